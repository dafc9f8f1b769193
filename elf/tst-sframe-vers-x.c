/* The object that tst-sframe-batch opens and whose load fails.
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

/* Depends on tst-sframe-vers-y.so, tst-sframe-vers-z.so and
   tst-sframe-vers-w.so, in that order, so that the four are mapped as
   x, y, z, w, each pending for the batch of this load.  The version
   that w needs is missing, so the load fails before relocation and the
   four are unmapped, in the order of their finalizers (x, z, w, y),
   before the batch is built: none of them may be in it.  */

int
sframe_vers_x (void)
{
  return 109;
}
