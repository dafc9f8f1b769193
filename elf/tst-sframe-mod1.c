/* Module with SFrame, a dependency of tst-sframe-prog.
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

#include <stdio.h>
#include "tst-sframe-marker.h"

int
sframe_mod1_fn (void)
{
  return 101;
}

/* Ask the stand-in whether this object's text is registered when its
   constructor runs.  */
static void __attribute__ ((constructor))
init (void)
{
  printf ("tst-sframe-mod1: marker 101: %ld\n",
	  (long int) sframe_marker (101, &sframe_mod1_fn));
}
