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
   SFrame data like ld.so does.  The program that does so is this test,
   executed again under the stand-in (which announces the interface in
   the auxiliary vector of the new program).  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>

#include "tst-sframe-common.h"

/* The environment variable that makes this test the program under
   test; its value is the object to load.  */
#define CHILD_VAR "TST_SFRAME_STATIC_LOAD"

/* Runs in the child under the stand-in: execute this test again, as
   the program under test.  */
static void
exec_self (void *closure)
{
  char *self = xasprintf ("%s/elf/tst-sframe-static", support_objdir_root);
  if (setenv (CHILD_VAR, closure, 1) != 0)
    _exit (1);
  fflush (stdout);
  execl (self, self, "--direct", NULL);
  printf ("error: execl (\"%s\"): %m\n", self);
  fflush (stdout);
  _exit (1);
}

/* The program under test.  Uses _exit, so that no exit handler of the
   test driver runs.  */
static void
load_and_unload (const char *path)
{
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
  if (getenv (CHILD_VAR) != NULL)
    load_and_unload (getenv (CHILD_VAR));

  char *path = xasprintf ("%s/elf/tst-sframe-mod2.so", support_objdir_root);
  fflush (stdout);
  struct sframe_stub_result *r = sframe_stub_run (NULL, exec_self, path);
  sframe_stub_check (r);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				   "tst-sframe-mod2.so"), 1);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				   "tst-sframe-mod2.so"), 1);
  TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod2.so"));
  TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
  sframe_stub_free (r);

  /* Where the kernel takes batches, the dlopen registers the plugin and
     the libc.so.6 and ld.so it brings (a static program has neither
     mapped) with one call, before the plugin's constructor runs;
     dlclose withdraws each.  */
  {
    struct sframe_stub_config batch =
      { .announce = sframe_stub_announce_setup, .batch_max = 1024 };
    size_t libc_expected = sframe_libc_expected ();
    char *libc_name = sframe_libc_name ();
    char *ldso = xasprintf ("%s/elf/ld.so", support_objdir_root);
    size_t ldso_expected = sframe_stub_file_sframe (ldso, NULL);
    fflush (stdout);
    r = sframe_stub_run (&batch, exec_self, path);
    sframe_stub_check (r);
    TEST_COMPARE (sframe_batch_calls (r), 1);
    TEST_COMPARE (sframe_batch_length (r, 0),
		  1 + libc_expected + ldso_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc_name),
		  libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, libc_name),
		  libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, "ld.so"),
		  ldso_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, "ld.so"),
		  ldso_expected);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    /* Relocation ran the plugin's IFUNC resolver after the batch was
       registered.  */
    TEST_COMPARE (sframe_stub_marker_value (r, 112), 1);
    if (libc_expected + ldso_expected == 0)
      printf ("info: a batch of one: libc.so.6 and ld.so lack SFrame\n");
    sframe_stub_free (r);
    free (ldso);
    free (libc_name);
  }
  free (path);
  return 0;
}

#include <support/test-driver.c>
