/* tst-sframe-vers-y.so as tst-sframe-vers-w.so is linked against it.
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

/* The same function as tst-sframe-vers-y.c, and the same soname, but at
   version SFRAME_VERS_2 (tst-sframe-vers-ylink.map).  Only linked against:
   never loaded.  */

#include "tst-sframe-vers-y.c"
