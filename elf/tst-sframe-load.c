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

/* Checks, on a kernel with SFrame registration, which objects the
   kernel holds (/proc/PID/sframe) after the dynamic linker has mapped
   a program and its dependencies at start-up, LD_PRELOAD and LD_AUDIT
   modules, and a dlmopen into a new namespace; that each was
   registered before its code ran (the modules' markers, answered from
   /proc/self/sframe); that dlclose withdraws it; and that
   glibc.rtld.sframe=0 leaves all of them to the kernel alone.  The
   start-up's announcement is the kernel's own, so the test is
   UNSUPPORTED on a kernel that does not announce the interface.  The
   static tests check the loader's calls themselves, on any kernel.  */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <support/capture_subprocess.h>
#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>
#include <dl-sframe-auxv.h>

/* How to run tst-sframe-prog.  */
struct run
{
  /* If true, execute tst-sframe-prog-kernel directly, else run
     tst-sframe-prog with an explicit ld.so invocation.  */
  bool kernel;
  /* NAME=VALUE to add to the environment, or NULL.  */
  const char *env;
  /* The commands of tst-sframe-prog, terminated by NULL.  */
  const char *const *cmds;
};

/* Run the program as RUN says and return its output, after checking
   that it succeeded.  */
static char *
run_prog (const struct run *run)
{
  const char *argv[16];
  size_t n = 0;
  char *path = xasprintf ("%s:%s/elf", support_objdir_root,
			  support_objdir_root);
  char *prog = xasprintf ("%s/elf/tst-sframe-prog%s", support_objdir_root,
			  run->kernel ? "-kernel" : "");
  if (!run->kernel)
    {
      argv[n++] = support_objdir_elf_ldso;
      argv[n++] = "--library-path";
      argv[n++] = path;
    }
  argv[n++] = prog;
  for (size_t i = 0; run->cmds[i] != NULL; ++i)
    argv[n++] = run->cmds[i];
  argv[n] = NULL;
  char *envp[] = { (char *) run->env, NULL };

  printf ("info: running%s", run->env != NULL ? " with " : "");
  if (run->env != NULL)
    printf ("%s", run->env);
  for (size_t i = 0; i < n; ++i)
    printf (" %s", argv[i]);
  putchar ('\n');
  struct support_capture_subprocess proc
    = support_capture_subprogram (argv[0], (char **) argv,
				  run->env != NULL ? envp : NULL);
  support_capture_subprocess_check (&proc, "tst-sframe-prog", 0,
				    sc_allow_stdout);
  fputs (proc.out.buffer, stdout);
  char *out = xstrdup (proc.out.buffer);
  support_capture_subprocess_free (&proc);
  free (prog);
  free (path);
  return out;
}

/* The value the program reported for marker ID in OUT; the test fails
   if it did not report it exactly once.  */
static long int
marker (const char *out, int id)
{
  char *key = xasprintf (": marker %d: ", id);
  const char *p = strstr (out, key);
  long int value = p != NULL ? strtol (p + strlen (key), NULL, 10) : -2;
  if (p == NULL || strstr (p + 1, key) != NULL)
    FAIL ("marker %d reported %s", id, p == NULL ? "never" : "twice");
  free (key);
  return value;
}

/* The number of times OUT lists NAME among the kernel's registrations
   (the "sframe" command).  */
static int
registered (const char *out, const char *name)
{
  char *line = xasprintf ("\nsframe: %s\n", name);
  int count = 0;
  for (const char *p = out; (p = strstr (p, line)) != NULL; ++p)
    ++count;
  free (line);
  return count;
}

/* 1 if the file NAME in the build tree has a PT_GNU_SFRAME segment.  */
static int
has_sframe (const char *name)
{
  char *path = xasprintf ("%s/%s", support_objdir_root, name);
  char *real = realpath (path, NULL);
  TEST_VERIFY_EXIT (real != NULL);
  int result = sframe_stub_file_sframe (real);
  free (real);
  free (path);
  return result;
}

static int
do_test (void)
{
  /* The modules have SFrame data where the toolchain generates it
     (elf/Makefile: have-gsframe).  */
  if (!has_sframe ("elf/tst-sframe-mod1.so"))
    FAIL_UNSUPPORTED ("tst-sframe-mod1.so has no PT_GNU_SFRAME segment:"
		      " the toolchain generates no SFrame data");
  unsigned long int announced = getauxval (AT_SFRAME_SETUP_SIZE);
  /* 32: the size of struct sframe_setup.  */
  if (announced < 32)
    FAIL_UNSUPPORTED ("the kernel does not announce SFrame registration"
		      " (AT_SFRAME_SETUP_SIZE %lu)", announced);
  bool batches = getauxval (AT_SFRAME_BATCH_MAX) != 0;
  printf ("info: the kernel announces %lu, batches %s\n", announced,
	  batches ? "too" : "not");
  char *libc_path = xasprintf ("%s/libc.so.6", support_objdir_root);
  char *libc_real = realpath (libc_path, NULL);
  const char *libc = strrchr (libc_real, '/') + 1;
  int libc_expected = has_sframe ("libc.so.6");
  static const char *const list[] = { "sframe", NULL };

  /* (A) The dynamic linker maps the program, its dependency with
     SFrame and libc.so.6, and registers them before their code runs;
     the kernel registered ld.so, which it mapped.  (B) The kernel maps
     the program and ld.so.  */
  for (int kernel = 0; kernel < 2; ++kernel)
    {
      struct run run = { .kernel = kernel, .cmds = list };
      char *out = run_prog (&run);
      TEST_COMPARE (marker (out, 0), 1);
      TEST_COMPARE (marker (out, 101), 1);
      TEST_COMPARE (registered (out, kernel ? "tst-sframe-prog-kernel"
				: "tst-sframe-prog"), 1);
      TEST_COMPARE (registered (out, "tst-sframe-mod1.so"), 1);
      TEST_COMPARE (registered (out, libc), libc_expected);
      TEST_COMPARE (registered (out, "ld.so"), has_sframe ("elf/ld.so"));
      TEST_COMPARE (registered (out, "tst-sframe-nosframe.so"), 0);
      free (out);
    }

  /* (C) An LD_PRELOAD module is registered with the others, before its
     constructor runs.  */
  {
    char *env = xasprintf ("LD_PRELOAD=%s/elf/tst-sframe-mod3.so",
			   support_objdir_root);
    struct run run = { .env = env, .cmds = list };
    char *out = run_prog (&run);
    TEST_COMPARE (marker (out, 103), 1);
    TEST_COMPARE (registered (out, "tst-sframe-mod3.so"), 1);
    free (out);
    free (env);
  }

  /* (D) An LD_AUDIT module, in a namespace of its own, is registered
     before its constructor runs.  Auditors hear of the program's
     dependency before it is registered where the kernel takes batches
     (they are sent once all objects of the start-up are mapped), and
     after otherwise.  */
  {
    char *env = xasprintf ("LD_AUDIT=%s/elf/tst-sframe-auditmod.so",
			   support_objdir_root);
    struct run run = { .env = env, .cmds = list };
    char *out = run_prog (&run);
    TEST_COMPARE (marker (out, 104), 1);
    TEST_COMPARE (marker (out, 105), !batches);
    TEST_COMPARE (marker (out, 101), 1);
    TEST_COMPARE (registered (out, "tst-sframe-auditmod.so"), 1);
    free (out);
    free (env);
  }

  /* (E) dlmopen into a new namespace registers the module and the
     namespace's own libc.so.6; dlclose withdraws both.  */
  {
    static const char *const cmds[] =
      {
	"mopen", "tst-sframe-mod2.so", "call", "sframe", "close", "sframe",
	NULL
      };
    struct run run = { .cmds = cmds };
    char *out = run_prog (&run);
    TEST_COMPARE (marker (out, 102), 1);
    TEST_COMPARE (registered (out, "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (registered (out, libc), 3 * libc_expected);
    free (out);
  }

  /* (F) glibc.rtld.sframe=0: the dynamic linker registers nothing; the
     kernel registered ld.so itself.  */
  {
    struct run run = { .env = "GLIBC_TUNABLES=glibc.rtld.sframe=0",
		       .cmds = list };
    char *out = run_prog (&run);
    TEST_COMPARE (marker (out, 101), 0);
    TEST_COMPARE (registered (out, "tst-sframe-prog"), 0);
    TEST_COMPARE (registered (out, "tst-sframe-mod1.so"), 0);
    TEST_COMPARE (registered (out, libc), 0);
    TEST_COMPARE (registered (out, "ld.so"), has_sframe ("elf/ld.so"));
    free (out);
  }

  free (libc_real);
  free (libc_path);
  return 0;
}

#include <support/test-driver.c>
