/* Test SFrame registration of objects loaded at startup.
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

/* Checks which objects the dynamic linker registers with
   sframe_register at startup: the main program when ld.so is
   invoked explicitly, but not when the kernel mapped it; DT_NEEDED
   libraries with SFrame, but not those without; LD_PRELOAD and LD_AUDIT
   modules; never ld.so itself.  Each module asks the stand-in from its
   constructor whether its text is registered at that moment, and the
   audit module from la_objopen whether an object is when auditors hear
   of it.  */

#include <string.h>
#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>

#include "tst-sframe-common.h"

/* Run the program with the module NAME in the environment variable
   ENV_NAME (LD_PRELOAD or LD_AUDIT): the module must be registered once,
   before its constructor (which makes marker MARKER) runs, as must
   tst-sframe-mod1.so.  */
static void
check_env_module (const char *env_name, const char *name,
		  unsigned long int marker)
{
  static const char *const no_cmds[] = { NULL };
  char *path = xasprintf ("%s/elf/%s", support_objdir_root, name);
  struct sframe_prog_run run =
    {
      .kernel = false,
      .env_name = env_name,
      .env_value = path,
      .cmds = no_cmds,
    };
  struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, name), 1);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				   "tst-sframe-mod1.so"), 1);
  TEST_COMPARE (sframe_stub_marker_value (r, marker), 1);
  TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
  /* Auditors hear of tst-sframe-mod1.so after it is registered: the
     audit module's la_objopen finds it registered (marker 105).  */
  if (strcmp (env_name, "LD_AUDIT") == 0)
    TEST_COMPARE (sframe_stub_marker_value (r, 105), 1);
  TEST_VERIFY (sframe_stub_live (r, name));
  sframe_stub_free (r);
  free (path);
}

static int
do_test (void)
{
  {
    char *path = xasprintf ("%s/elf/tst-sframe-nosframe.so",
			    support_objdir_root);
    if (sframe_stub_file_sframe (path, NULL))
      FAIL_EXIT1 ("test module built with sframe: %s", path);
    free (path);
  }
  size_t libc_expected = sframe_libc_expected ();
  char *libc_name = sframe_libc_name ();
  const char *ldso = strrchr (support_objdir_elf_ldso, '/');
  ldso = ldso != NULL ? ldso + 1 : support_objdir_elf_ldso;

  static const char *const no_cmds[] = { NULL };

  /* (A) The dynamic linker maps the main program.  */
  {
    struct sframe_prog_run run = { .kernel = false, .cmds = no_cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-prog"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod1.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc_name),
		  libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-nosframe.so"), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, ldso), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, NULL), 0);
    TEST_COMPARE (sframe_stub_marker_value (r, 0), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-prog"));
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-mod1.so"));
    sframe_stub_free (r);
  }

  /* (B) The kernel maps the main program and ld.so.  */
  {
    struct sframe_prog_run run = { .kernel = true, .cmds = no_cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-prog-kernel"), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, ldso), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod1.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc_name),
		  libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-nosframe.so"), 0);
    TEST_COMPARE (sframe_stub_marker_value (r, 0), 0);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    sframe_stub_free (r);
  }

  /* (C) LD_PRELOAD.  */
  check_env_module ("LD_PRELOAD", "tst-sframe-mod3.so", 103);

  /* (D) LD_AUDIT.  The audit module is loaded into its own namespace,
     before the main program's dependencies.  */
  check_env_module ("LD_AUDIT", "tst-sframe-auditmod.so", 104);

  free (libc_name);
  return 0;
}

#include <support/test-driver.c>
