/* Test SFrame registration errors and the glibc.rtld.sframe tunable.
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

/* Checks that the kernel is asked only as the announcement in the
   auxiliary vector (AT_SFRAME_SETUP_SIZE) and glibc.rtld.sframe say: 0
   never, 1 only when a size is announced, never when 0 or nothing is
   announced; that a process that forbids the calls with a seccomp
   filter survives where no call is to be made; that an
   error for one object (every errno the interface answers) does not
   stop the registration of other objects and is not fatal; that after
   ENOSYS or EPERM, which only a policy such as a seccomp filter
   answers, no further request is made;
   that objects whose PT_GNU_SFRAME segment is broken (of size zero or
   near 2^63, outside every PT_LOAD, running past the end of the
   PT_LOAD that holds it, or in a page mapped from past the end of the
   file) are sent as their program headers say, one request each, left
   to the kernel to judge (rtld reads no SFrame byte), and load
   normally;
   and that ld.so --list-tunables shows the tunable.  */

#include <array_length.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>
#include <support/capture_subprocess.h>
#include <support/check.h>
#include <support/sframe-stub.h>
#include <support/support.h>
#include <support/temp_file.h>
#include <support/xunistd.h>
#include <dl-sframe-auxv.h>

#include "tst-sframe-common.h"

/* Refuse to register tst-sframe-mod1.so with ERRNO_VALUE when dlopen
   loads it, then load tst-sframe-mod2.so and unload it.  The program must run
   to completion.  With STOPS, the error is one of a policy for the
   whole process, and mod2 must cost no request; otherwise it concerns
   mod1 alone, and mod2 is registered and withdrawn.  */
static void
check_refused (int errno_value, bool stops)
{
  static const char *const cmds[] =
    {
      "open", "tst-sframe-mod1.so", "open", "tst-sframe-mod2.so", "close",
      NULL
    };
  struct sframe_stub_config config =
    {
      .refuse_object = "tst-sframe-mod1.so",
      .refuse_errno = errno_value,
    };
  printf ("info: refusing tst-sframe-mod1.so with %s\n",
	  strerrorname_np (errno_value));
  struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
  struct sframe_stub_result *r = sframe_prog_run (&config, &run);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				   "tst-sframe-mod1.so"), 1);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				   "tst-sframe-mod1.so"), 0);
  TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod1.so"));
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				   "tst-sframe-mod2.so"), !stops);
  TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				   "tst-sframe-mod2.so"), !stops);
  TEST_VERIFY (!sframe_stub_live (r, "tst-sframe-mod2.so"));
  TEST_COMPARE (sframe_stub_marker_value (r, 101), 0);
  TEST_COMPARE (sframe_stub_marker_value (r, 102), !stops);
  sframe_stub_free (r);
}

/* How make_bad_copy breaks the PT_GNU_SFRAME program header.  The
   SFrame data itself is the kernel's to judge: rtld does not read it,
   and answers an ENOEXEC for it like any refusal (check_refused).  */
enum corruption
  {
    bad_size_zero,		/* p_filesz and p_memsz 0.  */
    bad_size_huge,		/* p_filesz and p_memsz near 2^63.  */
    bad_outside,		/* p_vaddr 1 MiB past the last PT_LOAD.  */
    bad_straddle,		/* p_vaddr 8 bytes before the end of the
				   PT_LOAD that holds it.  */
    bad_past_eof,		/* In a page of the last PT_LOAD that lies
				   wholly past the end of the file.  */
  };

/* Change the PT_GNU_SFRAME program header of the file open at FD (named
   PATH) as HOW says.  */
static void
corrupt_phdr (int fd, const char *path, enum corruption how)
{
  ElfW(Ehdr) eh;
  if (pread (fd, &eh, sizeof eh, 0) != sizeof eh)
    FAIL_EXIT1 ("%s: cannot read the ELF header: %m", path);
  ElfW(Phdr) ph[eh.e_phnum];
  ssize_t size = eh.e_phnum * sizeof (ElfW(Phdr));
  if (pread (fd, ph, size, eh.e_phoff) != size)
    FAIL_EXIT1 ("%s: cannot read the program headers: %m", path);
  ElfW(Phdr) *sf = NULL, *last = NULL;
  ElfW(Addr) load_end = 0, holder_end = 0;
  for (int i = 0; i < eh.e_phnum; ++i)
    if (ph[i].p_type == PT_GNU_SFRAME)
      sf = &ph[i];
  if (sf == NULL)
    FAIL_EXIT1 ("%s: no PT_GNU_SFRAME segment", path);
  for (int i = 0; i < eh.e_phnum; ++i)
    if (ph[i].p_type == PT_LOAD)
      {
	ElfW(Addr) end = ph[i].p_vaddr + ph[i].p_memsz;
	if (end > load_end)
	  {
	    load_end = end;
	    last = &ph[i];
	  }
	if (sf->p_vaddr >= ph[i].p_vaddr && sf->p_vaddr < end)
	  holder_end = end;
      }
  TEST_VERIFY_EXIT (holder_end != 0);
  switch (how)
    {
    case bad_size_zero:
      sf->p_filesz = sf->p_memsz = 0;
      break;
    case bad_size_huge:
      sf->p_filesz = sf->p_memsz = (ElfW(Xword)) -1 / 2;
      break;
    case bad_outside:
      sf->p_vaddr = sf->p_paddr = load_end + 0x100000;
      break;
    case bad_straddle:
      sf->p_vaddr = sf->p_paddr = holder_end - 8;
      break;
    case bad_past_eof:
      {
	/* Let the last PT_LOAD map one more page of the file than there
	   is, ending on a page boundary (so that nothing is zero-filled
	   there), and put the SFrame segment in that page: the object
	   maps, but touching the page would raise SIGBUS.  The bytes the
	   longer segment now maps in place of its .bss are never used
	   for anything but the crt's "destructors done" flag.  */
	struct stat64 st;
	if (fstat64 (fd, &st) != 0)
	  FAIL_EXIT1 ("%s: fstat: %m", path);
	ElfW(Xword) page = getpagesize ();
	if (last->p_align > page)
	  page = last->p_align;
	ElfW(Off) past = roundup (st.st_size, page);
	ElfW(Addr) vaddr = last->p_vaddr + (past - last->p_offset);
	last->p_filesz = last->p_memsz = vaddr + page - last->p_vaddr;
	sf->p_offset = past;
	sf->p_vaddr = sf->p_paddr = vaddr;
      }
      break;
    default:
      FAIL_EXIT1 ("corrupt_phdr: not a program header corruption: %d", how);
    }
  if (pwrite (fd, ph, size, eh.e_phoff) != size)
    FAIL_EXIT1 ("%s: cannot write the program headers: %m", path);
}

/* Copy tst-sframe-mod3.so to DIR/NAME, and break the PT_GNU_SFRAME
   program header of the copy as HOW says.  Return the name of the
   copy.  */
static char *
make_bad_copy (const char *dir, const char *name, enum corruption how)
{
  char *from = xasprintf ("%s/elf/tst-sframe-mod3.so", support_objdir_root);
  char *to = xasprintf ("%s/%s", dir, name);
  support_copy_file (from, to);
  add_temp_file (to);
  int fd = xopen (to, O_RDWR, 0);
  corrupt_phdr (fd, to, how);
  xclose (fd);
  free (from);
  return to;
}

static int
do_test (void)
{
  sframe_require_modules ();
  /* (I) The tunable disables registration.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", "close", NULL };
    struct sframe_prog_run run = { .tunable = 0, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, NULL), 0);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 0);
    sframe_stub_free (r);
  }

  /* (J) Each announcement with each value of the tunable: how many
     objects are registered (the two opened, and with each the libc.so.6
     and ld.so it brings, if they have SFrame).  */
  {
    static const char *const cmds[] =
      {
	"open", "tst-sframe-mod2.so", "close",
	"open", "tst-sframe-mod3.so", NULL
      };
    size_t each = 1 + sframe_libc_expected () + sframe_ldso_expected ();
    static const struct
    {
      enum sframe_announce announce;
      int tunable;
      bool registers;
    } states[] =
      {
	{ sframe_announce_setup, -1, true },
	{ sframe_announce_setup, 1, true },
	{ sframe_announce_setup, 0, false },
	{ sframe_announce_zero, -1, false },
	{ sframe_announce_none, -1, false },
	{ sframe_announce_none, 0, false },
      };
    for (size_t i = 0; i < array_length (states); ++i)
      {
	struct sframe_prog_run run =
	  {
	    .announce = states[i].announce,
	    .tunable = states[i].tunable,
	    .cmds = cmds,
	  };
	struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL),
		      states[i].registers ? 2 * each : 0);
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, NULL),
		      states[i].registers ? each : 0);
	sframe_stub_free (r);
      }
  }

  /* (J1) What the kernel itself announces, with the default tunable:
     no call at all on a kernel without the interface, one per object
     with SFrame on one that has it.  */
  {
    static const char *const cmds[] =
      { "open", "tst-sframe-mod2.so", "close", NULL };
    /* 32: the size of struct sframe_setup.  */
    bool announced = getauxval (AT_SFRAME_SETUP_SIZE) >= 32;
    printf ("info: the kernel's own announcement: %s\n",
	    announced ? "a size" : "none");
    struct sframe_stub_config config =
      { .batch_max = getauxval (AT_SFRAME_BATCH_MAX) };
    struct sframe_prog_run run =
      { .announce = sframe_announce_kernel, .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (&config, &run);
    size_t adds = sframe_stub_count (r, sframe_stub_add, NULL);
    size_t removes = sframe_stub_count (r, sframe_stub_remove, NULL);
    printf ("info: on this kernel: %zu registrations, %zu withdrawals\n",
	    adds, removes);
    size_t each = 1 + sframe_libc_expected () + sframe_ldso_expected ();
    TEST_COMPARE (adds, announced ? each : 0);
    TEST_COMPARE (removes, announced ? each : 0);
    sframe_stub_free (r);
  }

  /* (J3) A process that kills itself at any registration call (a
     seccomp sandbox installed before dlopen) runs to completion on a
     kernel that announces nothing or 0; the same process is killed
     where the kernel announces the interface, which shows that the
     sandbox works.  */
  {
    static const char *const cmds[] =
      { "sandbox", "open", "tst-sframe-mod2.so", "close", NULL };
    static const enum sframe_announce quiet[] =
      { sframe_announce_none, sframe_announce_zero };
    for (size_t i = 0; i < array_length (quiet); ++i)
      {
	struct sframe_prog_run run =
	  { .announce = quiet[i], .tunable = -1, .cmds = cmds };
	struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL), 0);
	TEST_COMPARE (sframe_stub_marker_value (r, 102), 0);
	sframe_stub_free (r);
      }
    static const struct sframe_stub_config config;
    struct sframe_prog_run run =
      { .tunable = -1, .cmds = cmds, .config = &config };
    printf ("info: the sandboxed program, the interface announced\n");
    struct sframe_stub_result *r
      = sframe_stub_run (&config, sframe_prog_commands, &run);
    if (!WIFSIGNALED (r->status) || WTERMSIG (r->status) != SIGSYS)
      {
	support_record_failure ();
	printf ("error: registering in the sandbox: wait status %#x,"
		" expected SIGSYS\n", r->status);
      }
    sframe_stub_free (r);
  }

  /* (K), (K2), (L) Errors for one object only: on a kernel that
     announced the interface, every answer the interface gives, EINVAL
     included, concerns only the object it was given for.  */
  static const int refusals[] =
    { ENOEXEC, EINVAL, EFAULT, EEXIST, ENXIO, EACCES, ENOSPC, ENOMEM };
  for (size_t i = 0; i < array_length (refusals); ++i)
    check_refused (refusals[i], false);
  /* (K3) ENOSYS and EPERM, which the interface never answers, come from
     a policy (a seccomp filter that fails the calls with an errno, as
     containers have): after one, nothing more is asked.  */
  check_refused (ENOSYS, true);
  check_refused (EPERM, true);

  /* (M) Objects whose PT_GNU_SFRAME program header is broken cost one
     request each, with the ranges their program headers give (the
     stand-in checks that), and load normally.  The kernel refuses the
     ranges it can judge at registration (empty, beyond user space); the
     rest it registers, and their unwinds fail when they read the
     section.  */
  {
    char *dir = support_create_temp_directory ("tst-sframe-errors-");
    static const struct
    {
      const char *name;
      enum corruption how;
      bool refused;		/* EINVAL, EFAULT: not registered.  */
    } bad[] =
      {
	{ "bad-size-zero.so", bad_size_zero, true },
	{ "bad-size-huge.so", bad_size_huge, true },
	{ "bad-outside.so", bad_outside, false },
	{ "bad-straddle.so", bad_straddle, false },
	{ "bad-past-eof.so", bad_past_eof, false },
      };
    const char *cmds[2 * array_length (bad) + 3];
    char *paths[array_length (bad)];
    size_t n = 0;
    for (size_t i = 0; i < array_length (bad); ++i)
      {
	paths[i] = make_bad_copy (dir, bad[i].name, bad[i].how);
	cmds[n++] = "open";
	cmds[n++] = paths[i];
      }
    cmds[n++] = "open";
    cmds[n++] = "tst-sframe-mod2.so";
    cmds[n] = NULL;
    struct sframe_prog_run run = { .tunable = -1, .cmds = cmds };
    struct sframe_stub_result *r = sframe_prog_run (NULL, &run);
    for (size_t i = 0; i < array_length (bad); ++i)
      {
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, bad[i].name), 1);
	if (bad[i].refused)
	  TEST_VERIFY (!sframe_stub_live (r, bad[i].name));
	free (paths[i]);
      }
    /* Each copy was loaded (its constructor ran), in the order of BAD;
       the refused ones were not registered then.  */
    size_t loaded = 0;
    for (size_t i = 0; i < r->ncalls; ++i)
      if (r->calls[i].kind == sframe_stub_marker_call
	  && r->calls[i].args[0] == 103)
	{
	  if (loaded < array_length (bad) && bad[loaded].refused)
	    TEST_COMPARE (r->calls[i].value, 0);
	  ++loaded;
	}
    TEST_COMPARE (loaded, array_length (bad));
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
    free (dir);
  }

  /* (N0) LD_DEBUG=files says whether registration is on and why;
     here without the stand-in, so on whatever the kernel announces to
     this test.  */
  {
    char *prog = xasprintf ("%s/elf/tst-sframe-prog", support_objdir_root);
    char *path = xasprintf ("%s:%s/elf", support_objdir_root,
			    support_objdir_root);
    char *const argv[] =
      {
	(char *) support_objdir_elf_ldso, (char *) "--library-path", path,
	prog, NULL
      };
    char *const envp[] = { (char *) "LD_DEBUG=files", NULL };
    struct support_capture_subprocess proc
      = support_capture_subprogram (support_objdir_elf_ldso, argv, envp);
    support_capture_subprocess_check (&proc, "ld.so tst-sframe-prog", 0,
				      sc_allow_stdout | sc_allow_stderr);
    unsigned long int announced = getauxval (AT_SFRAME_SETUP_SIZE);
    /* rtld asks for at most 1024 objects a call.  */
    unsigned long int batch = MIN (getauxval (AT_SFRAME_BATCH_MAX), 1024);
    char *expected;
    if (announced >= 32 && batch > 0)
      expected = xasprintf ("sframe: registration on: kernel announces it"
			    " (AT_SFRAME_SETUP_SIZE %lu);  batches of up to"
			    " %lu\n", announced, batch);
    else if (announced >= 32)
      expected = xasprintf ("sframe: registration on: kernel announces it"
			    " (AT_SFRAME_SETUP_SIZE %lu)\n", announced);
    else if (announced == 0)
      /* getauxval cannot tell 0 from absent; no kernel announces 0 to
	 a native process.  */
      expected = xstrdup ("sframe: registration off: kernel does not"
			  " announce it (no AT_SFRAME_SETUP_SIZE)\n");
    else
      FAIL_EXIT1 ("kernel announces AT_SFRAME_SETUP_SIZE %lu", announced);
    if (strstr (proc.err.buffer, expected) == NULL)
      {
	support_record_failure ();
	printf ("error: LD_DEBUG=files output lacks: %s"
		"output:\n%s", expected, proc.err.buffer);
      }
    else
      printf ("info: LD_DEBUG=files says: %s", expected);
    free (expected);
    support_capture_subprocess_free (&proc);
    free (path);
    free (prog);
  }

  /* (N) The tunable is listed with its default and bounds.  */
  {
    char *const argv[] =
      { (char *) support_objdir_elf_ldso, (char *) "--list-tunables", NULL };
    struct support_capture_subprocess proc
      = support_capture_subprogram (support_objdir_elf_ldso, argv, NULL);
    support_capture_subprocess_check (&proc, "ld.so --list-tunables", 0,
				      sc_allow_stdout);
    if (strstr (proc.out.buffer, "glibc.rtld.sframe: 1 (min: 0, max: 1)\n")
	== NULL)
      {
	support_record_failure ();
	printf ("error: glibc.rtld.sframe missing from ld.so"
		" --list-tunables output:\n%s", proc.out.buffer);
      }
    support_capture_subprocess_free (&proc);
  }

  return 0;
}

#include <support/test-driver.c>
