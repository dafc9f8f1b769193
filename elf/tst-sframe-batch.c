/* Registering the objects of one load with one system call (a batch).
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

/* Checks that where the kernel takes batches (it announces
   AT_SFRAME_BATCH_MAX), the dynamic linker registers all the objects of
   a dlopen with one sframe_register_batch, still before any of their
   code runs (the IFUNC resolvers relocation runs, the constructors),
   though after the debugger hears of them; that a load of more objects
   than the kernel takes in one call is sent in batches of at most that
   many; that an object refused in a batch costs only itself its
   registration; that objects unmapped before their load was
   registered (a failed dlopen), from any place in the batch, are
   neither registered nor withdrawn; that a policy's errno for every
   call stops all further requests, and one for the batch call alone
   leaves one call per object; and that a kernel without batches gets
   one sframe_register per object.  A static dlopen of a module brings
   libc.so.6 and ld.so with it: a load of three objects.  Start-up and
   dlmopen are tst-sframe-load's.  */

#include <array_length.h>
#include <errno.h>
#include <string.h>
#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>

#include "tst-sframe-common.h"

/* The number of adds in R whose place in a batch is PLACE (0: an add
   of its own), without sframe_batch_calls's check that every add is of
   a batch.  */
static size_t
adds_at (const struct sframe_stub_result *r, unsigned int place)
{
  size_t n = 0;
  for (size_t i = 0; i < r->ncalls; ++i)
    n += r->calls[i].kind == sframe_stub_add && r->calls[i].batch == place;
  return n;
}

static int
do_test (void)
{
  sframe_require_modules ();
  size_t libc_expected = sframe_libc_expected ();
  size_t ldso_expected = sframe_ldso_expected ();
  /* The objects of the load of a module.  */
  size_t load = 1 + libc_expected + ldso_expected;
  char *libc_name = sframe_libc_name ();
  struct sframe_stub_config batch = { .batch_max = 1024 };

  /* (A) The module, libc.so.6 and ld.so with one call at dlopen, each
     registered before relocation runs the module's IFUNC resolver and
     before its constructor runs, and withdrawn by dlclose.  The
     debugger has heard of the load (_r_debug is RT_ADD).  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", "call", "close", NULL };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_batch_calls (r), 1);
    TEST_COMPARE (sframe_batch_length (r, 0), load);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc_name),
		  libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, "ld.so"),
		  ldso_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, NULL), load);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 112), 1);
    TEST_COMPARE (r->calls[0].r_state, RT_ADD);
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod2.so"));
    sframe_stub_free (r);
  }

  /* (A2) A load of one object, the next dlopen's: a batch of one,
     built from the ranges kept when it was mapped.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", "open", "tst-sframe-mod1.so", NULL };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_batch_calls (r), 2);
    TEST_COMPARE (sframe_batch_length (r, 0), load);
    TEST_COMPARE (sframe_batch_length (r, 1), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod1.so"), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    sframe_stub_free (r);
  }

  /* (C) dlopen fails because a dependency is missing: the object is
     unmapped before its load was registered, so nothing is asked.  */
  {
    static const char *const cmds[] =
      {
	"open-fail", "tst-sframe-needs-missing.so",
	"open", "tst-sframe-mod2.so", NULL
      };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-needs-missing.so"), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-needs-missing.so"), 0);
    /* The batch was left whole: the next dlopen registers only its own
       load.  */
    TEST_COMPARE (sframe_batch_calls (r), 1);
    TEST_COMPARE (sframe_batch_length (r, 0), load);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  /* (D) dlopen fails in relocation: the object was registered when
     relocation began, and is withdrawn.  */
  {
    static const char *const cmds[] =
      { "open-fail", "tst-sframe-undef.so", NULL };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-undef.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-undef.so"), 1);
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-undef.so"));
    sframe_batch_calls (r);
    sframe_stub_free (r);
  }

  /* (D2) dlopen fails after mapping four objects, before relocation
     (one needs a version another lacks), and unmaps them while they
     wait for their batch (tst-sframe-vers-x.c): none is asked for, and
     the next dlopen registers only its own load.  */
  {
    static const char *const cmds[] =
      {
	"open-fail", "tst-sframe-vers-x.so",
	"open", "tst-sframe-mod2.so", NULL
      };
    static const char *const vers[] =
      {
	"tst-sframe-vers-x.so", "tst-sframe-vers-y.so",
	"tst-sframe-vers-z.so", "tst-sframe-vers-w.so",
      };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    for (size_t i = 0; i < array_length (vers); ++i)
      {
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, vers[i]), 0);
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, vers[i]), 0);
      }
    TEST_COMPARE (sframe_batch_calls (r), 1);
    TEST_COMPARE (sframe_batch_length (r, 0), load);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  /* (E) The kernel refuses the second object of the batch (libc.so.6):
     the first stays registered, and the rest is asked for in a second
     call; the refused one is not asked for again.  Then the first.  */
  if (libc_expected)
    {
      static const char *const cmds[] =
	{ "open", "tst-sframe-mod2.so", NULL };
      struct sframe_stub_config refuse = batch;
      refuse.refuse_object = libc_name;
      refuse.refuse_errno = ENXIO;
      struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
      struct sframe_stub_result *r = sframe_prog_run (&refuse, &run);
      TEST_COMPARE (sframe_batch_calls (r), 1 + ldso_expected);
      TEST_COMPARE (sframe_batch_length (r, 0), 2);
      TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc_name), 1);
      TEST_VERIFY (sframe_stub_live (r, "tst-sframe-mod2.so"));
      TEST_VERIFY (!sframe_stub_live (r, libc_name));
      if (ldso_expected)
	TEST_VERIFY (sframe_stub_live (r, "ld.so"));
      TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
      sframe_stub_free (r);

      refuse.refuse_object = "tst-sframe-mod2.so";
      refuse.refuse_errno = EACCES;
      r = sframe_prog_run (&refuse, &run);
      TEST_COMPARE (sframe_batch_calls (r), 2);
      TEST_COMPARE (sframe_batch_length (r, 0), 1);
      TEST_COMPARE (sframe_batch_length (r, 1), load - 1);
      TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod2.so"));
      TEST_VERIFY (sframe_stub_live (r, libc_name));
      TEST_COMPARE (sframe_stub_marker_value (r, 102), 0);
      sframe_stub_free (r);
    }

  /* (F) A policy's errno for every call (a seccomp filter that fails
     them): the batch is refused, then the call for its first object
     alone, and nothing more is asked, not even at the next dlopen.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", "open", "tst-sframe-mod1.so", NULL };
    struct sframe_stub_config policy = batch;
    policy.no_support_errno = EPERM;
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&policy, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL), 2);
    TEST_COMPARE (adds_at (r, 1), 1);
    TEST_COMPARE (adds_at (r, 0), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 0);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 0);
    sframe_stub_free (r);
  }

  /* (F2) A policy's errno for the batch call alone (a seccomp filter
     older than it that allows sframe_register): rtld registers each
     object with a call of its own, at this dlopen and the next.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", "open", "tst-sframe-mod1.so", NULL };
    struct sframe_stub_config policy = batch;
    policy.batch_errno = EPERM;
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&policy, &run);
    /* The refused batch, then each object in a call of its own.  */
    TEST_COMPARE (adds_at (r, 1), 1);
    TEST_COMPARE (adds_at (r, 0), load + 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL), load + 2);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    sframe_stub_free (r);
  }

  /* (G) The kernel takes at most two objects a call: the load is sent
     in batches of two (the stand-in refuses a larger one).  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", NULL };
    struct sframe_stub_config two = batch;
    two.batch_max = 2;
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&two, &run);
    size_t calls = (load + 1) / 2;
    TEST_COMPARE (sframe_batch_calls (r), calls);
    for (size_t i = 0; i < calls; ++i)
      TEST_COMPARE (sframe_batch_length (r, i), load - 2 * i >= 2 ? 2 : 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL), load);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  /* (H) A kernel that announces the size of struct sframe_setup but no
     batches gets one sframe_register per object.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", NULL };
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL), load);
    for (size_t i = 0; i < r->ncalls; ++i)
      TEST_COMPARE (r->calls[i].batch, 0);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  free (libc_name);
  return 0;
}

#include <support/test-driver.c>
