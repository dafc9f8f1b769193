/* The object whose version tst-sframe-vers-w.so lacks at run time.
   Copyright The GNU Toolchain Authors.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

/* Built with SFRAME_VERS_1 only (tst-sframe-vers-y.map); tst-sframe-vers-w.so
   is linked against tst-sframe-vers-ylink.so, the same object under the
   same soname with SFRAME_VERS_2, so that it needs a version this one does
   not define and dlopen fails after every object of its load is mapped,
   before relocation (see tst-sframe-batch.c).  */

int
sframe_vers_y (void)
{
  return 107;
}
