/* SFrame registration at start-up, under the stand-in for the kernel.
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

/* At start-up the announcement is the kernel's: it is in the auxiliary
   vector that execve gives the dynamic linker, which a process cannot
   change for its own execve.  So this test starts the built ld.so as
   the kernel would, without execve: in a child under the stand-in of
   <support/sframe-stub.h>, it maps ld.so, builds the initial stack of
   a program (arguments, environment, and an auxiliary vector with the
   announcement this test chooses) and jumps to ld.so's entry point.
   ld.so then runs tst-sframe-prog (an explicit invocation: it maps the
   program itself) and its dependencies, LD_PRELOAD and LD_AUDIT
   modules as at any start-up, and the stand-in answers and records
   their registration calls.  This tests the start-up path (dl_main)
   on any kernel; tst-sframe-load checks it again against the kernel
   series itself.  */

#include <array_length.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <sys/param.h>

#include "tst-sframe-common.h"

/* How to start the dynamic linker.  */
struct start
{
  enum sframe_announce announce;
  /* NAME=VALUE to add to the environment, or NULL.  */
  const char *env;
  /* The commands of tst-sframe-prog, terminated by NULL.  */
  const char *const *cmds;
  /* The AT_SFRAME_BATCH_MAX to announce with a size (0: no entry);
     set by run from the stand-in's configuration.  */
  unsigned int batch_max;
};

/* Map the ELF object PATH (the dynamic linker) as the kernel maps a
   program that has no interpreter; return its load bias, store its ELF
   header in *EH and the address of its program headers in *PHDR_ADDR.  */
static uintptr_t
map_object (const char *path, ElfW(Ehdr) *eh, uintptr_t *phdr_addr)
{
  int fd = xopen (path, O_RDONLY, 0);
  ElfW(Phdr) phdr[16];
  if (pread (fd, eh, sizeof (*eh), 0) != sizeof (*eh)
      || memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0
      || eh->e_type != ET_DYN
      || eh->e_phentsize != sizeof (phdr[0])
      || eh->e_phnum > array_length (phdr)
      || pread (fd, phdr, eh->e_phnum * sizeof (phdr[0]), eh->e_phoff)
	 != eh->e_phnum * sizeof (phdr[0]))
    FAIL_EXIT1 ("%s: cannot read its program headers", path);
  uintptr_t page = getpagesize (), low = UINTPTR_MAX, high = 0;
  for (int i = 0; i < eh->e_phnum; ++i)
    if (phdr[i].p_type == PT_LOAD)
      {
	low = MIN (low, ALIGN_DOWN (phdr[i].p_vaddr, page));
	high = MAX (high, ALIGN_UP (phdr[i].p_vaddr + phdr[i].p_memsz, page));
      }
  if (low >= high)
    FAIL_EXIT1 ("%s: no PT_LOAD segment", path);
  *phdr_addr = 0;
  uintptr_t bias = ((uintptr_t) xmmap (NULL, high - low, PROT_NONE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1)
		    - low);
  for (int i = 0; i < eh->e_phnum; ++i)
    if (phdr[i].p_type == PT_LOAD)
      {
	const ElfW(Phdr) *ph = &phdr[i];
	int prot = (((ph->p_flags & PF_R) ? PROT_READ : 0)
		    | ((ph->p_flags & PF_W) ? PROT_WRITE : 0)
		    | ((ph->p_flags & PF_X) ? PROT_EXEC : 0));
	uintptr_t start = ALIGN_DOWN (bias + ph->p_vaddr, page);
	uintptr_t file_end = bias + ph->p_vaddr + ph->p_filesz;
	uintptr_t mem_end = bias + ph->p_vaddr + ph->p_memsz;
	/* ld.so has no segment of bss alone.  */
	if (ph->p_filesz == 0)
	  FAIL_EXIT1 ("%s: a PT_LOAD segment with nothing from the file",
		      path);
	if (mmap ((void *) start, ALIGN_UP (file_end, page) - start,
		  prot | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
		  ALIGN_DOWN (ph->p_offset, page)) == MAP_FAILED)
	  FAIL_EXIT1 ("%s: cannot map a segment: %m", path);
	if (ph->p_offset <= eh->e_phoff
	    && eh->e_phoff < ph->p_offset + ph->p_filesz)
	  *phdr_addr = bias + ph->p_vaddr - ph->p_offset + eh->e_phoff;
	/* The bss: the rest of the file's last page, then zero pages.  */
	if (mem_end > file_end)
	  {
	    memset ((void *) file_end, 0,
		    MIN (ALIGN_UP (file_end, page), mem_end) - file_end);
	    if (ALIGN_UP (mem_end, page) > ALIGN_UP (file_end, page))
	      xmmap ((void *) ALIGN_UP (file_end, page),
		     ALIGN_UP (mem_end, page) - ALIGN_UP (file_end, page),
		     prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1);
	  }
	xmprotect ((void *) start, ALIGN_UP (mem_end, page) - start, prot);
      }
  xclose (fd);
  if (*phdr_addr == 0)
    FAIL_EXIT1 ("%s: its program headers are in no PT_LOAD segment", path);
  return bias;
}

/* Runs in the child: start ld.so with the arguments, environment and
   announcement that CLOSURE, a struct start, says.  Does not return:
   the process exits when tst-sframe-prog does.  */
static void
start_ldso (void *closure)
{
  const struct start *start = closure;
  ElfW(Ehdr) eh;
  uintptr_t phdr_addr;
  uintptr_t bias = map_object (support_objdir_elf_ldso, &eh, &phdr_addr);

  /* The strings the vectors point to.  */
  char *path = xasprintf ("%s:%s/elf", support_objdir_root,
			  support_objdir_root);
  char *prog = xasprintf ("%s/elf/tst-sframe-prog", support_objdir_root);
  const char *argv[16] =
    { support_objdir_elf_ldso, "--library-path", path, prog };
  size_t argc = 4;
  for (size_t i = 0; start->cmds[i] != NULL; ++i)
    {
      TEST_VERIFY_EXIT (argc < array_length (argv));
      argv[argc++] = start->cmds[i];
    }
  const char *envp[] = { start->env, NULL };

  /* This process's auxiliary vector, but for what the kernel says of
     the program it runs (here ld.so itself, which has no interpreter)
     and the announcement.  The pointers in it (AT_RANDOM, AT_EXECFN,
     AT_PLATFORM) point into this process's stack, which stays mapped;
     the started libc.so.6 takes its stack guard from the same
     AT_RANDOM bytes as this process.  */
  static const unsigned long int program[] =
    { AT_PHDR, AT_PHENT, AT_PHNUM, AT_BASE, AT_ENTRY };
  ElfW(auxv_t) auxv[64];
  size_t auxc = sframe_auxv (auxv, array_length (auxv), program,
			     array_length (program), start->announce,
			     start->batch_max);
  auxv[auxc++] = (ElfW(auxv_t)) { AT_PHDR, { phdr_addr } };
  auxv[auxc++] = (ElfW(auxv_t)) { AT_PHENT, { eh.e_phentsize } };
  auxv[auxc++] = (ElfW(auxv_t)) { AT_PHNUM, { eh.e_phnum } };
  auxv[auxc++] = (ElfW(auxv_t)) { AT_BASE, { 0 } };
  auxv[auxc++] = (ElfW(auxv_t)) { AT_ENTRY, { bias + eh.e_entry } };
  auxv[auxc++] = (ElfW(auxv_t)) { AT_NULL, { 0 } };

  /* The initial stack: argc, the argument and environment pointers,
     each list ended by a null pointer, then the auxiliary vector, at a
     16-byte aligned stack pointer.  The strings stay where they are:
     the child's own memory stays mapped.  */
  size_t envc = start->env != NULL;
  size_t words = 1 + argc + 1 + envc + 1 + 2 * auxc;
  size_t size = 1024 * 1024;
  char *stack = xmmap (NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1);
  uintptr_t *sp = (uintptr_t *) ALIGN_DOWN ((uintptr_t) stack + size
					    - words * sizeof (*sp), 16);
  uintptr_t *w = sp;
  *w++ = argc;
  for (size_t i = 0; i < argc; ++i)
    *w++ = (uintptr_t) argv[i];
  *w++ = 0;
  for (size_t i = 0; i < envc; ++i)
    *w++ = (uintptr_t) envp[i];
  *w++ = 0;
  memcpy (w, auxv, auxc * sizeof (auxv[0]));

  uintptr_t entry = bias + eh.e_entry;
  printf ("info: starting %s at %#lx, announcing %s\n",
	  support_objdir_elf_ldso, (unsigned long int) entry,
	  start->announce == sframe_announce_none ? "nothing"
	  : start->announce == sframe_announce_zero ? "0" : "a size");
  fflush (NULL);
  /* As the kernel enters a program: the frame pointer cleared, and no
     function for the program to register with atexit.  */
#if defined __x86_64__ && defined __LP64__
  asm volatile ("mov %0, %%rsp\n\t"
		"xor %%ebp, %%ebp\n\t"
		"xor %%edx, %%edx\n\t"
		"jmp *%1"
		: : "r" (sp), "a" (entry) : "memory");
#elif defined __aarch64__
  register uintptr_t target asm ("x16") = entry;
  asm volatile ("mov sp, %0\n\t"
		"mov x29, xzr\n\t"
		"mov x30, xzr\n\t"
		"mov x0, xzr\n\t"
		"br %1"
		: : "r" (sp), "r" (target) : "memory");
#else
  FAIL_UNSUPPORTED ("no program entry for this architecture");
#endif
  __builtin_unreachable ();
}

/* Start ld.so as START says under the stand-in configured by CONFIG
   (NULL for the defaults), and check the result with
   sframe_stub_check.  */
static struct sframe_stub_result *
run (const struct sframe_stub_config *config, struct start *start)
{
  start->batch_max = config != NULL ? config->batch_max : 0;
  struct sframe_stub_result *r = sframe_stub_run (config, start_ldso, start);
  sframe_stub_check (r);
  return r;
}

static int
do_test (void)
{
  sframe_require_modules ();
  char *libc = sframe_libc_name ();
  size_t libc_expected = sframe_libc_expected ();
  static const char *const none[] = { NULL };

  /* (A) The dynamic linker maps the program, its dependency with
     SFrame and libc.so.6, and registers them before their code runs
     (the markers of the program and of the dependency); not the
     dependency without SFrame.  ld.so is the kernel's to register.  */
  {
    struct start start = { .announce = sframe_announce_setup, .cmds = none };
    struct sframe_stub_result *r = run (NULL, &start);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, "tst-sframe-prog"),
		  1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod1.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc),
		  libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-nosframe.so"), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, "ld.so"), 0);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL),
		  2 + libc_expected);
    TEST_COMPARE (sframe_stub_marker_value (r, 0), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    TEST_VERIFY (sframe_stub_live (r, "tst-sframe-prog"));
    sframe_stub_free (r);
  }

  /* (B) An LD_PRELOAD module is registered with the others, before its
     constructor runs.  */
  {
    char *env = xasprintf ("LD_PRELOAD=%s/elf/tst-sframe-mod3.so",
			   support_objdir_root);
    struct start start =
      { .announce = sframe_announce_setup, .env = env, .cmds = none };
    struct sframe_stub_result *r = run (NULL, &start);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod3.so"), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 103), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    sframe_stub_free (r);
    free (env);
  }

  /* (C) An LD_AUDIT module, in a namespace of its own with its own
     libc.so.6, is registered before its constructor runs, and the
     program's dependency before auditors hear of it.  */
  {
    char *env = xasprintf ("LD_AUDIT=%s/elf/tst-sframe-auditmod.so",
			   support_objdir_root);
    struct start start =
      { .announce = sframe_announce_setup, .env = env, .cmds = none };
    struct sframe_stub_result *r = run (NULL, &start);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-auditmod.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc),
		  2 * libc_expected);
    TEST_COMPARE (sframe_stub_marker_value (r, 104), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 105), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    sframe_stub_free (r);
    free (env);
  }

  /* (D) A dlmopen into a new namespace registers the module and the
     namespace's libc.so.6; dlclose withdraws both.  */
  {
    static const char *const cmds[] =
      { "mopen", "tst-sframe-mod2.so", "call", "close", NULL };
    struct start start = { .announce = sframe_announce_setup, .cmds = cmds };
    struct sframe_stub_result *r = run (NULL, &start);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-mod2.so"), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, libc),
		  2 * libc_expected);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove, libc),
		  libc_expected);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    sframe_stub_free (r);
  }

  /* (E) No call where the kernel announces nothing or 0, or where
     glibc.rtld.sframe=0 says so; the markers then find nothing
     registered.  */
  {
    static const struct
    {
      enum sframe_announce announce;
      const char *env;
    } quiet[] =
      {
	{ sframe_announce_none, NULL },
	{ sframe_announce_zero, NULL },
	{ sframe_announce_setup, "GLIBC_TUNABLES=glibc.rtld.sframe=0" },
      };
    for (size_t i = 0; i < array_length (quiet); ++i)
      {
	struct start start =
	  { .announce = quiet[i].announce, .env = quiet[i].env,
	    .cmds = none };
	struct sframe_stub_result *r = run (NULL, &start);
	TEST_COMPARE (sframe_stub_count (r, sframe_stub_add, NULL), 0);
	TEST_COMPARE (sframe_stub_marker_value (r, 0), 0);
	TEST_COMPARE (sframe_stub_marker_value (r, 101), 0);
	sframe_stub_free (r);
      }
  }

  /* (F) Where the kernel takes batches, the objects of the start-up go
     in one call, made once all are mapped and before relocation runs
     their code (the markers); a dlmopen into a new namespace sends its
     objects in one more.  */
  {
    static const char *const cmds[] =
      { "mopen", "tst-sframe-mod2.so", "close", NULL };
    struct sframe_stub_config config = { .batch_max = 8 };
    struct start start = { .announce = sframe_announce_setup, .cmds = cmds };
    struct sframe_stub_result *r = run (&config, &start);
    TEST_COMPARE (sframe_batch_calls (r), 2);
    TEST_COMPARE (sframe_batch_length (r, 0), 2 + libc_expected);
    TEST_COMPARE (sframe_batch_length (r, 1), 1 + libc_expected);
    TEST_COMPARE (sframe_stub_marker_value (r, 0), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 102), 1);
    TEST_COMPARE (sframe_stub_count (r, sframe_stub_remove,
				     "tst-sframe-mod2.so"), 1);
    sframe_stub_free (r);
  }

  /* (G) With batches and an LD_AUDIT module: the module and its
     namespace's libc.so.6 are sent when they are loaded, before its
     constructor runs, with what is pending then (the program, which
     ld.so mapped first); auditors hear of the program's dependency
     before the start-up's batch registers it.  */
  {
    char *env = xasprintf ("LD_AUDIT=%s/elf/tst-sframe-auditmod.so",
			   support_objdir_root);
    struct sframe_stub_config config = { .batch_max = 8 };
    struct start start =
      { .announce = sframe_announce_setup, .env = env, .cmds = none };
    struct sframe_stub_result *r = run (&config, &start);
    TEST_COMPARE (sframe_batch_calls (r), 2);
    TEST_COMPARE (sframe_batch_length (r, 0), 2 + libc_expected);
    TEST_COMPARE (sframe_batch_length (r, 1), 1 + libc_expected);
    TEST_COMPARE (sframe_stub_marker_value (r, 104), 1);
    TEST_COMPARE (sframe_stub_marker_value (r, 105), 0);
    TEST_COMPARE (sframe_stub_marker_value (r, 101), 1);
    sframe_stub_free (r);
    free (env);
  }

  free (libc);
  return 0;
}

#include <support/test-driver.c>
