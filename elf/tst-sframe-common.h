/* Common code of the SFrame registration tests.
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

/* The tests run elf/tst-sframe-prog (built from tst-sframe-prog.c) under
   the SFrame stand-in of <support/sframe-stub.h>, either with an
   explicit ld.so invocation, so that the dynamic linker maps the
   program, or as tst-sframe-prog-kernel, which the kernel maps.  */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>

/* How to run the program.  */
struct sframe_prog_run
{
  /* If true, execute tst-sframe-prog-kernel directly, else run
     tst-sframe-prog with an explicit ld.so invocation.  */
  bool kernel;
  /* Environment variable to set in the child, or NULL.  */
  const char *env_name;
  const char *env_value;
  /* The commands of tst-sframe-prog, terminated by NULL.  */
  const char *const *cmds;
};

/* Runs in the child under the stand-in: execute the program as
   described by CLOSURE, a struct sframe_prog_run.  Uses _exit on
   failure, so that no exit handler of the test driver runs in the
   child.  */
static __attribute__ ((unused)) void
sframe_prog_exec (void *closure)
{
  const struct sframe_prog_run *run = closure;

  if (run->env_name != NULL
      && setenv (run->env_name, run->env_value, 1) != 0)
    {
      printf ("error: setenv (\"%s\"): %m\n", run->env_name);
      fflush (stdout);
      _exit (1);
    }

  size_t ncmds = 0;
  while (run->cmds != NULL && run->cmds[ncmds] != NULL)
    ++ncmds;

  /* ld.so, --library-path, the path, the program, the commands and the
     terminating null pointer.  */
  char **argv = xcalloc (ncmds + 5, sizeof (*argv));
  size_t n = 0;
  if (run->kernel)
    argv[n++] = xasprintf ("%s/elf/tst-sframe-prog-kernel",
			   support_objdir_root);
  else
    {
      argv[n++] = (char *) support_objdir_elf_ldso;
      argv[n++] = (char *) "--library-path";
      argv[n++] = xasprintf ("%s:%s/elf", support_objdir_root,
			     support_objdir_root);
      argv[n++] = xasprintf ("%s/elf/tst-sframe-prog", support_objdir_root);
    }
  for (size_t i = 0; i < ncmds; ++i)
    argv[n++] = (char *) run->cmds[i];
  argv[n] = NULL;

  fflush (stdout);
  execv (argv[0], argv);
  printf ("error: execv (\"%s\"): %m\n", argv[0]);
  fflush (stdout);
  _exit (1);
}

/* Run the program as described by RUN under the stand-in configured by
   CONFIG (NULL for the defaults), and check the result with
   sframe_stub_check.  */
static __attribute__ ((unused)) struct sframe_stub_result *
sframe_prog_run (const struct sframe_stub_config *config,
		 const struct sframe_prog_run *run)
{
  printf ("info: running %s", run->kernel ? "tst-sframe-prog-kernel"
	  : "ld.so tst-sframe-prog");
  for (size_t i = 0; run->cmds != NULL && run->cmds[i] != NULL; ++i)
    printf (" %s", run->cmds[i]);
  if (run->env_name != NULL)
    printf (" with %s=%s", run->env_name, run->env_value);
  putchar ('\n');
  fflush (stdout);

  struct sframe_stub_result *r
    = sframe_stub_run (config, sframe_prog_exec, (void *) run);
  sframe_stub_check (r);
  return r;
}

/* The file name that the mappings of libc.so.6 show, which is that of
   the file the symbolic link libc.so.6 resolves to in the build tree.  */
static __attribute__ ((unused)) char *
sframe_libc_name (void)
{
  char *path = xasprintf ("%s/libc.so.6", support_objdir_root);
  char *real = realpath (path, NULL);
  if (real == NULL)
    FAIL_EXIT1 ("realpath (\"%s\"): %m", path);
  char *name = xstrdup (strrchr (real, '/') + 1);
  free (real);
  free (path);
  return name;
}

/* Return the number of registrations expected for libc.so.6 per load:
   1 if it has a PT_GNU_SFRAME segment, else 0.  */
static __attribute__ ((unused)) size_t
sframe_libc_expected (void)
{
  char *path = xasprintf ("%s/libc.so.6", support_objdir_root);
  size_t result = sframe_stub_file_sframe (path, NULL) ? 1 : 0;
  printf ("info: %s %s SFrame\n", path, result ? "has" : "lacks");
  free (path);
  return result;
}

/* Return the number of marker calls with ID in R, and check that each
   was answered with EXPECTED.  */
static __attribute__ ((unused)) size_t
sframe_marker_calls (const struct sframe_stub_result *r,
		     unsigned long int id, long int expected)
{
  size_t count = 0;
  for (size_t i = 0; i < r->ncalls; ++i)
    if (r->calls[i].kind == sframe_stub_marker_call
	&& r->calls[i].args[0] == id)
      {
	++count;
	if (r->calls[i].value != expected)
	  {
	    support_record_failure ();
	    printf ("error: marker %lu call %zu answered %ld, expected %ld\n",
		    id, count, r->calls[i].value, expected);
	  }
      }
  return count;
}

/* The number of adds in R that started a system call (the first of a
   batch), and check that every add was part of a batch.  */
static __attribute__ ((unused)) size_t
sframe_batch_calls (const struct sframe_stub_result *r)
{
  size_t calls = 0;
  for (size_t i = 0; i < r->ncalls; ++i)
    if (r->calls[i].kind == sframe_stub_add)
      {
	if (r->calls[i].batch == 0)
	  {
	    support_record_failure ();
	    printf ("error: call %zu: an add of its own, not of a batch\n",
		    i);
	  }
	calls += r->calls[i].batch == 1;
      }
  return calls;
}

/* The length of the batch of system call N (from 0) in R.  */
static __attribute__ ((unused)) size_t
sframe_batch_length (const struct sframe_stub_result *r, size_t n)
{
  size_t len = 0;
  for (size_t i = 0; i < r->ncalls; ++i)
    if (r->calls[i].kind == sframe_stub_add && r->calls[i].batch != 0)
      {
	if (r->calls[i].batch == 1 && n-- == 0)
	  len = 1;
	else if (len != 0 && r->calls[i].batch == len + 1)
	  ++len;
	else if (len != 0)
	  break;
      }
  return len;
}
