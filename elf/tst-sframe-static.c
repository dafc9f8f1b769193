/* Test SFrame registration with dlopen from a static program.
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

/* In a static program, the dynamic linker code linked into the program
   loads objects for dlopen, and must register and withdraw their
   SFrame data like ld.so does.  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>

/* Runs in the child under the stand-in.  Uses _exit, so that no exit
   handler of the test driver runs in the child.  */
static void
load_and_unload (void *closure)
{
  const char *path = closure;
  void *handle = dlopen (path, RTLD_NOW);
  if (handle == NULL)
    {
      printf ("error: dlopen (\"%s\"): %s\n", path, dlerror ());
      fflush (stdout);
      _exit (1);
    }
  int (*fn) (void) = dlsym (handle, "sframe_mod_fn");
  if (fn == NULL)
    {
      printf ("error: dlsym (sframe_mod_fn): %s\n", dlerror ());
      fflush (stdout);
      _exit (1);
    }
  printf ("info: sframe_mod_fn returned %d\n", fn ());
  if (dlclose (handle) != 0)
    {
      printf ("error: dlclose: %s\n", dlerror ());
      fflush (stdout);
      _exit (1);
    }
  fflush (stdout);
  _exit (0);
}

static int
do_test (void)
{
  char *path = xasprintf ("%s/elf/tst-sframe-mod2.so", support_objdir_root);
  fflush (stdout);
  struct sframe_stub_result *r
    = sframe_stub_run (NULL, load_and_unload, path);
  sframe_stub_check (r);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				   "tst-sframe-mod2.so"), 1);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				   "tst-sframe-mod2.so"), 1);
  TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod2.so"));
  TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
  sframe_stub_free (r);
  free (path);
  return 0;
}

#include <support/test-driver.c>
