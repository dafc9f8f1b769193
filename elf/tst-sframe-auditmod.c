/* Audit module with SFrame for tst-sframe-load.
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

#include <link.h>
#include <stdio.h>
#include <support/sframe-stub.h>

unsigned int
la_version (unsigned int v)
{
  return LAV_CURRENT;
}

/* The dynamic linker loads audit modules before the main program and
   its dependencies, through the same code path, so this module must be
   registered by the time its constructor runs.  */
static void __attribute__ ((constructor))
init (void)
{
  printf ("tst-sframe-auditmod: marker 104: %ld\n",
	  (long int) sframe_stub_marker (104, &la_version));
}
