/* Module with a dependency that is missing at run time.
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

/* This module is linked against tst-sframe-gone.so, whose soname is
   tst-sframe-does-not-exist.so, so its DT_NEEDED entry names a file
   that does not exist and dlopen fails after mapping this module.  The
   dynamic linker must then withdraw the registration of this module
   when it unmaps it.  */

int
sframe_mod_fn (void)
{
  return 105;
}
