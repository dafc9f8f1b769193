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

/* The tests are static internal tests: the dynamic linker code linked
   into them loads what they dlopen, and they set the kernel's
   announcement themselves, through the code that parses the auxiliary
   vector at start-up.  Each configuration runs in a child process
   under the stand-in of <support/sframe-stub.h> (sframe_prog_run).  */

#include <array_length.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dl-tunables.h>
#include <ldsodefs.h>
#include <linux/seccomp.h>
#include <dl-sframe-auxv.h>
#include <dl-sframe-kernel.h>
#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>
#include <support/xdlfcn.h>
#include <support/xunistd.h>

/* The size of struct sframe_setup, which a kernel with the interface
   announces (struct dl_sframe_setup where glibc has the system calls'
   numbers; the tests compile without them, and say UNSUPPORTED).  */
#define TST_SFRAME_SETUP_SIZE 32
#if DL_SFRAME_KERNEL
_Static_assert (sizeof (struct dl_sframe_setup) == TST_SFRAME_SETUP_SIZE,
		"struct dl_sframe_setup is struct sframe_setup");
#endif

/* What the kernel announces in AT_SFRAME_SETUP_SIZE.  */
enum sframe_announce
  {
    sframe_announce_setup,	/* The size of struct sframe_setup.  */
    sframe_announce_zero,	/* 0: not available to this process.  */
    sframe_announce_none,	/* No entry, as every other kernel.  */
    sframe_announce_kernel,	/* What the kernel announced.  */
  };

/* How to run the commands.  */
struct sframe_prog_run
{
  enum sframe_announce announce;
  /* The value of glibc.rtld.sframe to set, or -1 for the default.  */
  int tunable;
  /* The commands (see sframe_prog_command), terminated by NULL.  */
  const char *const *cmds;
  /* Set by sframe_prog_run.  */
  const struct sframe_stub_config *config;
};

/* PATH without its directory.  */
static const char *
sframe_base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash == NULL ? path : slash + 1;
}

/* The number of calls of KIND in R for the file NAME (without
   directory), or for any if NAME is NULL.  */
static __attribute__ ((unused)) size_t
sframe_stub_count (const struct sframe_stub_result *r,
		   enum sframe_stub_kind kind, const char *name)
{
  size_t count = 0;
  for (size_t i = 0; i < r->ncalls; ++i)
    count += (r->calls[i].kind == kind
	      && (name == NULL
		  || strcmp (sframe_base_name (r->calls[i].object), name) == 0));
  return count;
}

/* True if NAME was registered when the child ended.  */
static __attribute__ ((unused)) bool
sframe_stub_live (const struct sframe_stub_result *r, const char *name)
{
  for (size_t i = 0; i < r->nlive; ++i)
    if (strcmp (sframe_base_name (r->live[i]), name) == 0)
      return true;
  return false;
}

/* The answer to marker ID, which must have been asked once.  */
static __attribute__ ((unused)) long int
sframe_stub_marker_value (const struct sframe_stub_result *r,
			  unsigned long int id)
{
  long int value = -1;
  int seen = 0;
  for (size_t i = 0; i < r->ncalls; ++i)
    if (r->calls[i].kind == sframe_stub_marker_call
	&& r->calls[i].args[0] == id)
      {
	value = r->calls[i].value;
	++seen;
      }
  if (seen != 1)
    FAIL ("marker %lu seen %d times, expected once", id, seen);
  return value;
}

/* Print the calls of R, and fail the test for each with a problem and
   for a child that did not exit with status 0.  */
static void
sframe_stub_check (const struct sframe_stub_result *r)
{
  static const char *const kinds[] = { "add", "remove", "marker" };
  for (size_t i = 0; i < r->ncalls; ++i)
    {
      const struct sframe_stub_call *c = &r->calls[i];
      printf ("stub: %-6s %#lx %#lx %#lx %#lx -> error %d value %ld"
	      " batch %u  %s\n", kinds[c->kind], c->args[0], c->args[1],
	      c->args[2], c->args[3], c->error, c->value, c->batch,
	      c->object);
      if (c->problem[0] != '\0')
	FAIL ("stub: call %zu: %s", i, c->problem);
    }
  for (size_t i = 0; i < r->nlive; ++i)
    printf ("stub: live at exit: %s\n", r->live[i]);
  if (!WIFEXITED (r->status) || WEXITSTATUS (r->status) != 0)
    FAIL ("stub: child wait status %#x", r->status);
}

static int
sframe_first_object (struct dl_phdr_info *info, size_t size, void *closure)
{
  memcpy (closure, info, sizeof (*info));
  return 1;
}

/* Store in AV, which has room for MAX entries, this process's
   auxiliary vector without its entries of the NDROP types at DROP and
   without the kernel's announcement, then the announcement ANNOUNCE
   and AT_SFRAME_BATCH_MAX BATCH_MAX (no entry if 0), as the kernel
   makes them at execve.  Return the number of entries stored; room is
   left for eight more, AT_NULL included, which the caller adds.  */
static size_t
sframe_auxv (ElfW(auxv_t) *av, size_t max, const unsigned long int *drop,
	     size_t ndrop, enum sframe_announce announce,
	     unsigned long int batch_max)
{
  int fd = xopen ("/proc/self/auxv", O_RDONLY, 0);
  ssize_t n = read (fd, av, (max - 8) * sizeof (av[0]));
  if (n <= 0)
    FAIL_EXIT1 ("read (/proc/self/auxv): %m");
  xclose (fd);
  size_t j = 0;
  for (size_t i = 0; i < n / sizeof (av[0]) && av[i].a_type != AT_NULL; ++i)
    {
      bool keep = (av[i].a_type != AT_SFRAME_SETUP_SIZE
		   && av[i].a_type != AT_SFRAME_BATCH_MAX);
      for (size_t d = 0; d < ndrop; ++d)
	keep &= av[i].a_type != drop[d];
      if (keep)
	av[j++] = av[i];
    }
  if (announce != sframe_announce_none)
    av[j++] = (ElfW(auxv_t))
      {
	AT_SFRAME_SETUP_SIZE,
	{ announce == sframe_announce_zero
	  ? 0 : TST_SFRAME_SETUP_SIZE }
      };
  if (announce != sframe_announce_none && batch_max != 0)
    av[j++] = (ElfW(auxv_t)) { AT_SFRAME_BATCH_MAX, { batch_max } };
  return j;
}

/* Make the announcement ANNOUNCE, and AT_SFRAME_BATCH_MAX BATCH_MAX
   (no entry if 0), as the kernel makes it at execve: a copy of this
   process's auxiliary vector with these entries is parsed again by the
   code that parses it at start-up; and set glibc.rtld.sframe to TUNABLE
   unless it is -1.  Both change variables that are read-only after
   start-up, so the program's RELRO segment is made writable
   meanwhile.  The parse also sets again what start-up took from the
   vector and may have changed since (the hardware capabilities, rseq's
   area size): nothing these tests use.  */
static void
sframe_announce (enum sframe_announce announce, unsigned long int batch_max,
		 int tunable)
{
  static ElfW(auxv_t) av[128];
  size_t j = sframe_auxv (av, array_length (av), NULL, 0, announce,
			  batch_max);
  av[j].a_type = AT_NULL;

  struct dl_phdr_info main;
  dl_iterate_phdr (sframe_first_object, &main);
  uintptr_t start = 0, end = 0, page = getpagesize ();
  for (size_t i = 0; i < main.dlpi_phnum; ++i)
    if (main.dlpi_phdr[i].p_type == PT_GNU_RELRO)
      {
	start = (main.dlpi_addr + main.dlpi_phdr[i].p_vaddr) & -page;
	/* As _dl_protect_relro: the last page is not RELRO's alone.  */
	end = ALIGN_DOWN (main.dlpi_addr + main.dlpi_phdr[i].p_vaddr
			  + main.dlpi_phdr[i].p_memsz, page);
      }
  if (start != end)
    xmprotect ((void *) start, end - start, PROT_READ | PROT_WRITE);
  if (announce != sframe_announce_kernel)
    _dl_aux_init (av);
  if (tunable >= 0)
    TUNABLE_SET_FULL (glibc, rtld, sframe, tunable);
  if (start != end)
    xmprotect ((void *) start, end - start, PROT_READ);
}

/* The path of the test module NAME.  */
static char *
sframe_module (const char *name)
{
  if (name[0] == '/')
    return xstrdup (name);
  return xasprintf ("%s/elf/%s", support_objdir_root, name);
}

/* The tests' modules have SFrame data where the toolchain generates it
   (elf/Makefile: have-gsframe); the tests are UNSUPPORTED elsewhere.  */
static void
sframe_require_modules (void)
{
  char *path = sframe_module ("tst-sframe-mod1.so");
  if (!sframe_stub_file_sframe (path))
    FAIL_UNSUPPORTED ("%s has no PT_GNU_SFRAME segment: the toolchain"
		      " generates no SFrame data", path);
  free (path);
}

/* Runs in the child: announce, then carry out the commands of CLOSURE,
   a struct sframe_prog_run:
   open NAME: dlopen the test module NAME, which must succeed;
   open-fail NAME: dlopen NAME, which must fail;
   call: call sframe_mod_fn of the last object opened;
   close: dlclose the last object opened;
   sandbox: install a seccomp filter that kills the process at any SFrame
     registration call, as a sandbox that allows only the calls it knows
     does.
   Exits with status 1 on failure.  */
static void
sframe_prog_commands (void *closure)
{
  const struct sframe_prog_run *run = closure;
  sframe_announce (run->announce, run->config->batch_max, run->tunable);
  void *handle = NULL;
  for (const char *const *cmd = run->cmds; *cmd != NULL; ++cmd)
    {
      if (strncmp (*cmd, "open", 4) == 0)
	{
	  char *path = sframe_module (*++cmd);
	  void *h = dlopen (path, RTLD_NOW);
	  if ((h == NULL) != (strcmp (cmd[-1], "open-fail") == 0))
	    FAIL_EXIT1 ("%s %s: %s", cmd[-1], *cmd,
			h == NULL ? dlerror () : "succeeded");
	  printf ("info: %s %s: %s\n", cmd[-1], *cmd,
		  h == NULL ? dlerror () : "done");
	  if (h != NULL)
	    handle = h;
	  free (path);
	}
      else if (strcmp (*cmd, "call") == 0)
	{
	  int (*fn) (void) = xdlsym (handle, "sframe_mod_fn");
	  printf ("info: call: sframe_mod_fn returned %d\n", fn ());
	}
      else if (strcmp (*cmd, "close") == 0)
	xdlclose (handle);
      else if (strcmp (*cmd, "sandbox") == 0)
	{
	  if (sframe_stub_filter (SECCOMP_RET_KILL_PROCESS, false) != 0)
	    FAIL_EXIT1 ("sandbox: %m");
	  printf ("info: sandbox installed\n");
	}
      else
	FAIL_EXIT1 ("unknown command %s", *cmd);
    }
}

/* Run the commands of RUN under the stand-in configured by CONFIG (NULL
   for the defaults), and check the result with sframe_stub_check.  */
static __attribute__ ((unused)) struct sframe_stub_result *
sframe_prog_run (const struct sframe_stub_config *config,
		 struct sframe_prog_run *run)
{
  static const struct sframe_stub_config defaults;
  run->config = config != NULL ? config : &defaults;
  static const char *const announcements[] =
    { "a size", "0", "nothing", "what the kernel announced" };
  printf ("info: announcing %s, batches of %u, running",
	  announcements[run->announce], run->config->batch_max);
  for (size_t i = 0; run->cmds[i] != NULL; ++i)
    printf (" %s", run->cmds[i]);
  puts (run->tunable >= 0 ? " with glibc.rtld.sframe set" : "");
  struct sframe_stub_result *r
    = sframe_stub_run (run->config, sframe_prog_commands, run);
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
  size_t result = sframe_stub_file_sframe (path) ? 1 : 0;
  printf ("info: %s %s SFrame\n", path, result ? "has" : "lacks");
  free (path);
  return result;
}

/* Return the number of registrations expected for ld.so per static
   dlopen that brings it: 1 if it has a PT_GNU_SFRAME segment, else 0.  */
static __attribute__ ((unused)) size_t
sframe_ldso_expected (void)
{
  char *path = xasprintf ("%s/elf/ld.so", support_objdir_root);
  size_t result = sframe_stub_file_sframe (path) ? 1 : 0;
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
