/* Module with SFrame, loaded with dlopen by the SFrame tests.
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

/* tst-sframe-mod3.c reuses this file with another marker.  */
#ifndef MARKER
# define MARKER 102
# define MODNAME "tst-sframe-mod2"
#endif

static int
sframe_mod_ifunc_impl (void)
{
  return MARKER;
}

/* Ask the stand-in whether this object's text is registered when
   relocation runs this IFUNC resolver, before any constructor (marker
   MARKER + 10).  The symbol is local, so its relocation is an
   IRELATIVE one, which the dynamic linker applies after the others,
   the PLT's that the call of prctl goes through included.  */
static __typeof (sframe_mod_ifunc_impl) *
sframe_mod_ifunc_resolver (void)
{
  sframe_marker (MARKER + 10, &sframe_mod_ifunc_impl);
  return sframe_mod_ifunc_impl;
}

static int sframe_mod_ifunc (void)
  __attribute__ ((ifunc ("sframe_mod_ifunc_resolver")));

int
sframe_mod_fn (void)
{
  return sframe_mod_ifunc ();
}

/* Ask the stand-in whether this object's text is registered when its
   constructor runs.  */
static void __attribute__ ((constructor))
init (void)
{
  printf ("%s: marker %d: %ld\n", MODNAME, MARKER,
	  (long int) sframe_marker (MARKER, &sframe_mod_fn));
  /* In a namespace of its own, this stdout is not flushed at exit.  */
  fflush (stdout);
}
