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
   a start-up and all those of a dlopen or dlmopen with one
   sframe_register_batch each, still before any of their code runs (the
   IFUNC resolvers relocation runs, the constructors), though after
   auditors hear of them (la_objopen); that a load of
   more objects than the kernel takes in one call is sent in batches of
   at most that many; that an object refused in a batch costs only
   itself its registration; that objects unmapped before their load was
   registered (a failed dlopen), from any place in the batch, are
   neither registered nor withdrawn; that a policy's errno for every
   call stops all further requests, and one for the batch call alone
   leaves one call per object; and that a kernel without batches gets
   one sframe_register per object.  */

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
  size_t libc_expected = sframe_libc_expected ();
  char *libc_name = sframe_libc_name ();
  struct sframe_stub_config batch =
    { .announce = sframe_stub_announce_setup, .batch_max = 1024 };

  /* (A) The program, its dependency and libc.so.6 with one call at
     start-up; the plugin with one call at dlopen; each registered
     before its constructor runs, and withdrawn by dlclose.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", "call", "close", NULL };
    struct sframe_prog_run run = { .kernel = false, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_batch_calls (r), 2);
    TEST_COMPARE (sframe_batch_length (r, 0), 2 + libc_expected);
    TEST_COMPARE (sframe_batch_length (r, 1), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-prog"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod1.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc_name),
		  libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 0), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    /* Relocation ran the plugin's IFUNC resolver after the batch was
       registered.  */
    TEST_COMPARE (sframe_stub_marker_value (r, 112), 1);
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-prog"));
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-mod1.so"));
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod2.so"));
    sframe_stub_free (r);
  }

  /* (B) The kernel maps the program: the batch starts with its
     dependency.  LD_PRELOAD and LD_AUDIT modules are in a batch of
     their load too.  */
  {
    static const char *const no_cmds[] = { NULL };
    struct sframe_prog_run run = { .kernel = true, .cmds = no_cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_batch_calls (r), 1);
    TEST_COMPARE (sframe_batch_length (r, 0), 1 + libc_expected);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    sframe_stub_free (r);
  }
  {
    static const char *const no_cmds[] = { NULL };
    char *path = xasprintf ("%s/elf/tst-sframe-mod3.so",
			    support_objdir_root);
    struct sframe_prog_run run =
      {
	.kernel = false, .env_name = "LD_PRELOAD", .env_value = path,
	.cmds = no_cmds,
      };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_batch_calls (r), 1);
    TEST_COMPARE (sframe_batch_length (r, 0), 3 + libc_expected);
    TEST_COMPARE (sframe_stub_marker_value (r, 103), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 113), 1);
    sframe_stub_free (r);
    free (path);
  }
  {
    static const char *const no_cmds[] = { NULL };
    char *path = xasprintf ("%s/elf/tst-sframe-auditmod.so",
			    support_objdir_root);
    struct sframe_prog_run run =
      {
	.kernel = false, .env_name = "LD_AUDIT", .env_value = path,
	.cmds = no_cmds,
      };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-auditmod.so"), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 104), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    /* Auditors hear of tst-sframe-mod1.so when it is mapped, before
       the batch of its load is sent (marker 105 from la_objopen).  */
    TEST_COMPARE (sframe_stub_marker_value (r, 105), 0);
    sframe_batch_calls (r);
    sframe_stub_free (r);
    free (path);
  }

  /* (B2) dlmopen into a new namespace: the plugin and the namespace's
     own libc.so.6 with one call, each withdrawn by dlclose.  */
  {
    static const char *const cmds[] =
      { "mopen", "tst-sframe-mod2.so", "call", "close", NULL };
    struct sframe_prog_run run = { .kernel = false, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_batch_calls (r), 2);
    TEST_COMPARE (sframe_batch_length (r, 1), 1 + libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc_name),
		  2 * libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, libc_name),
		  libc_expected);
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod2.so"));
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 112), 1);
    if (libc_expected == 0)
      printf ("info: (B2) a batch of one: libc.so.6 lacks SFrame\n");
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
    struct sframe_prog_run run = { .kernel = false, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-needs-missing.so"), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-needs-missing.so"), 0);
    /* The batch was left whole: the next dlopen registers only its own
       object.  */
    TEST_COMPARE (sframe_batch_calls (r), 2);
    TEST_COMPARE (sframe_batch_length (r, 1), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  /* (D) dlopen fails in relocation: the object was registered when
     relocation began, and is withdrawn.  */
  {
    static const char *const cmds[] =
      { "open-fail", "tst-sframe-undef.so", NULL };
    struct sframe_prog_run run = { .kernel = false, .cmds = cmds };
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
     the next dlopen registers only its own object.  */
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
    struct sframe_prog_run run = { .kernel = false, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&batch, &run);
    for (size_t i = 0; i < array_length (vers); ++i)
      {
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, vers[i]), 0);
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, vers[i]), 0);
      }
    TEST_COMPARE (sframe_batch_calls (r), 2);
    TEST_COMPARE (sframe_batch_length (r, 1), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  /* (E) The kernel refuses the second object of the start-up's batch:
     the first stays registered, and the rest is asked for in a second
     call; the refused one is not asked for again.  Then the first.  */
  {
    static const char *const no_cmds[] = { NULL };
    struct sframe_stub_config refuse = batch;
    refuse.refuse_object = "tst-sframe-mod1.so";
    refuse.refuse_errno = ENXIO;
    struct sframe_prog_run run = { .kernel = false, .cmds = no_cmds };
    struct sframe_stub_result *r = sframe_prog_run (&refuse, &run);
    TEST_COMPARE (sframe_batch_calls (r), 1 + libc_expected);
    TEST_COMPARE (sframe_batch_length (r, 0), 2);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod1.so"), 1);
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-prog"));
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod1.so"));
    if (libc_expected)
      TEST_VERIFY (sframe_stub_live (r, libc_name));
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 0);
    sframe_stub_free (r);

    refuse.refuse_object = "tst-sframe-prog";
    refuse.refuse_errno = EACCES;
    r = sframe_prog_run (&refuse, &run);
    TEST_COMPARE (sframe_batch_calls (r), 2);
    TEST_COMPARE (sframe_batch_length (r, 0), 1);
    TEST_COMPARE (sframe_batch_length (r, 1), 1 + libc_expected);
    TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-prog"));
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-mod1.so"));
    sframe_stub_free (r);
  }

  /* (F) A policy's errno for every call (a seccomp filter that fails
     them): the batch is refused, then the call for its first object
     alone, and nothing more is asked, not even at the dlopen.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", NULL };
    struct sframe_stub_config policy = batch;
    policy.no_support_errno = EPERM;
    struct sframe_prog_run run = { .kernel = false, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&policy, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL), 2);
    TEST_COMPARE (adds_at (r, 1), 1);
    TEST_COMPARE (adds_at (r, 0), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 0);
    sframe_stub_free (r);
  }

  /* (F2) A policy's errno for the batch call alone (a seccomp filter
     older than it that allows sframe_register): rtld registers the
     start-up's objects and the dlopen's one call each.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", NULL };
    struct sframe_stub_config policy = batch;
    policy.batch_errno = EPERM;
    struct sframe_prog_run run = { .kernel = false, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&policy, &run);
    /* The refused batch, then each object in a call of its own.  */
    TEST_COMPARE (adds_at (r, 1), 1);
    TEST_COMPARE (adds_at (r, 0), 3 + libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL),
		  1 + 3 + libc_expected);
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-mod1.so"));
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  /* (G) The kernel takes at most two objects a call: the start-up with
     an LD_PRELOAD module, of three objects and libc.so.6, is sent in
     batches of two (the stand-in refuses a larger one), and the
     dlopen's plugin in a batch of one.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", NULL };
    char *path = xasprintf ("%s/elf/tst-sframe-mod3.so",
			    support_objdir_root);
    struct sframe_prog_run run =
      {
	.kernel = false, .env_name = "LD_PRELOAD", .env_value = path,
	.cmds = cmds,
      };
    struct sframe_stub_config two = batch;
    two.batch_max = 2;
    struct sframe_stub_result *r = sframe_prog_run (&two, &run);
    size_t startup = 3 + libc_expected;
    size_t calls = (startup + 1) / 2;
    TEST_COMPARE (sframe_batch_calls (r), calls + 1);
    for (size_t i = 0; i < calls; ++i)
      TEST_COMPARE (sframe_batch_length (r, i),
		    startup - 2 * i >= 2 ? 2 : 1);
    TEST_COMPARE (sframe_batch_length (r, calls), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL),
		  startup + 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 103), 1);
    sframe_stub_free (r);
    free (path);
  }

  /* (H) A kernel that announces the size of struct sframe_setup but no
     batches gets one sframe_register per object.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", NULL };
    struct sframe_prog_run run = { .kernel = false, .cmds = cmds };
    struct sframe_stub_config single = batch;
    single.batch_max = 0;
    struct sframe_stub_result *r = sframe_prog_run (&single, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL),
		  3 + libc_expected);
    for (size_t i = 0; i < r->ncalls; ++i)
      TEST_COMPARE (r->calls[i].batch, 0);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  free (libc_name);
  return 0;
}

#include <support/test-driver.c>
