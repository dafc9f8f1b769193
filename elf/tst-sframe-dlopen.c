/* Test SFrame registration with dlopen, dlclose and dlmopen.
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

/* Checks that the dynamic linker registers an object loaded with dlopen
   before its constructor runs and withdraws the registration
   with sframe_unregister when dlclose unmaps it, and when dlopen
   fails after mapping it (a missing dependency, a failed relocation).
   dlmopen is tst-sframe-load's: a static program has one namespace.  */

#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>

#include "tst-sframe-common.h"

static int
do_test (void)
{
  sframe_require_modules ();
  size_t libc_expected = sframe_libc_expected ();
  char *libc_name = sframe_libc_name ();

  /* (E) Load, unload and load again.  The object registered before its
     load is announced to the debugger (the first of a load, with
     _r_debug still consistent).  */
  {
    static const char *const cmds[] =
      {
	"open", "tst-sframe-mod2.so", "call", "close",
	"open", "tst-sframe-mod2.so", "close", NULL
      };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 2);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-mod2.so"), 2);
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod2.so"));
    /* The constructor ran once per load, and relocation ran the IFUNC
       resolver, each time after registration.  */
    TEST_COMPARE (sframe_marker_calls (r, 102, 1), 2);
    TEST_COMPARE (sframe_marker_calls (r, 112, 1), 2);
    TEST_COMPARE (r->calls[0].r_state, RT_CONSISTENT);
    sframe_stub_free (r);
  }

  /* (E2) dlopen of an object that is already loaded maps nothing and
     registers nothing.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod1.so", "open", "tst-sframe-mod1.so",
	"close", NULL };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod1.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-mod1.so"), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc_name),
		  libc_expected);
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-mod1.so"));
    sframe_stub_free (r);
  }

  /* (F) dlopen fails because a dependency is missing.  */
  {
    static const char *const cmds[] =
      { "open-fail", "tst-sframe-needs-missing.so", NULL };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-needs-missing.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-needs-missing.so"), 1);
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-needs-missing.so"));
    sframe_stub_free (r);
  }

  /* (G) dlopen fails in relocation processing.  */
  {
    static const char *const cmds[] =
      { "open-fail", "tst-sframe-undef.so", NULL };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-undef.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-undef.so"), 1);
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-undef.so"));
    sframe_stub_free (r);
  }

  free (libc_name);
  return 0;
}

#include <support/test-driver.c>
