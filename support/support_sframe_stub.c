/* A stand-in for a kernel with SFrame registration, for tests.
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

#include <support/sframe-stub.h>

#include <array_length.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sframe.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <support/check.h>
#include <support/support.h>
#include <support/xunistd.h>
#include <sys/mman.h>
#include <sys/param.h>
#include <sys/wait.h>

#if defined __LP64__ && (defined __x86_64__ || defined __aarch64__)
# include <linux/audit.h>
# include <linux/filter.h>
# include <linux/seccomp.h>
# include <sys/syscall.h>
# include <sys/prctl.h>
# include <dl-sframe-kernel.h>
# ifdef __x86_64__
#  include <asm/prctl.h>
# endif
#endif

/* Read at most MAX program headers of the ELF file PATH into PHDR;
   return their number, or -1.  */
static int
read_phdrs (const char *path, ElfW(Phdr) *phdr, int max)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  ElfW(Ehdr) eh;
  int n = -1;
  if (fd >= 0 && pread (fd, &eh, sizeof (eh), 0) == sizeof (eh)
      && memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
      && eh.e_phentsize == sizeof (*phdr) && eh.e_phnum <= max
      && pread (fd, phdr, eh.e_phnum * sizeof (*phdr), eh.e_phoff)
	 == eh.e_phnum * sizeof (*phdr))
    n = eh.e_phnum;
  if (fd >= 0)
    xclose (fd);
  return n;
}

bool
sframe_stub_file_sframe (const char *path)
{
  ElfW(Phdr) phdr[64];
  int n = read_phdrs (path, phdr, array_length (phdr));
  if (n < 0)
    FAIL_EXIT1 ("cannot read program headers of %s", path);
  while (n-- > 0)
    if (phdr[n].p_type == PT_GNU_SFRAME)
      return true;
  return false;
}

/* What the child shares: the result, the live registrations' ranges.  */
struct stub
{
  struct sframe_stub_result result;
  struct
  {
    uintptr_t sframe_start, text_start, text_end;
  } regs[SFRAME_STUB_MAX_CALLS];
};

void
sframe_stub_free (struct sframe_stub_result *r)
{
  xmunmap (r, sizeof (struct stub));
}

#if defined DL_SFRAME_KERNEL && DL_SFRAME_KERNEL

static const struct sframe_stub_config *config;	/* In the child.  */
static struct stub *stub;

/* Say what is wrong with the call C, unless that is said already.  */
#define problem(c, ...) \
  ((c)->problem[0] != '\0' ? (void) 0 \
   : (void) snprintf ((c)->problem, sizeof ((c)->problem), __VA_ARGS__))

/* Return true if [START, END) lies in one executable mapping of a file
   (PATH, unless NULL); store its file, start, offset in C->object, *MAP,
   *OFFSET.  Reads /proc/self/maps with read: nothing here allocates,
   so that a dynamic linker started in the child may use the program
   break (see own_tp below).  */
static bool
text_mapped (struct sframe_stub_call *c, uintptr_t start, uintptr_t end,
	     const char *path, uintptr_t *map, uintptr_t *offset)
{
  static char maps[256 * 1024];
  int fd = open ("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  TEST_VERIFY_EXIT (fd >= 0);
  size_t len = 0;
  for (ssize_t n; (n = read (fd, maps + len, sizeof (maps) - 1 - len)) > 0; )
    len += n;
  close (fd);
  TEST_VERIFY_EXIT (len < sizeof (maps) - 1);
  maps[len] = '\0';
  char *line = NULL, perms[5];
  uintptr_t map_end = 0;
  int file = 0;
  for (char *next = maps; *next != '\0'; )
    {
      line = next;
      next = line + strcspn (line, "\n");
      if (*next != '\0')
	*next++ = '\0';
      if (sscanf (line, "%lx-%lx %4s %lx %*s %*s %n", map, &map_end, perms,
		  offset, &file) >= 4 && *map <= start && start < map_end)
	break;
    }
  if (line == NULL || start < *map || start >= map_end || end > map_end
      || perms[2] != 'x' || line[file] != '/'
      || (path != NULL && strcmp (path, line + file) != 0))
    return false;
  snprintf (c->object, sizeof (c->object), "%s", line + file);
  return true;
}

/* Check that the ranges of the add C are the PT_GNU_SFRAME segment and
   the hull of the executable PT_LOAD segments of its file, relocated by
   the load bias of the mapping at MAP of file offset OFFSET.  */
static void
check_against_file (struct sframe_stub_call *c, uintptr_t map,
		    uintptr_t offset)
{
  ElfW(Phdr) phdr[64];
  int n = read_phdrs (c->object, phdr, array_length (phdr));
  uintptr_t page = getpagesize (), bias = UINTPTR_MAX;
  unsigned long int expected[4] = { 0, 0, UINTPTR_MAX, 0 };
  for (const ElfW(Phdr) *ph = phdr; ph < phdr + n; ++ph)
    if (ph->p_type == PT_GNU_SFRAME)
      {
	expected[0] = ph->p_vaddr;
	expected[1] = ph->p_vaddr + ph->p_memsz;
      }
    else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
      {
	if (bias == UINTPTR_MAX && (ph->p_offset & -page) == offset)
	  bias = map - (ph->p_vaddr & -page);
	expected[2] = MIN (expected[2], ph->p_vaddr);
	expected[3] = MAX (expected[3], ph->p_vaddr + ph->p_memsz);
      }
  for (int i = 0; i < 4; ++i)
    expected[i] += bias;
  if (n < 0 || memcmp (expected, c->args, sizeof (expected)) != 0)
    problem (c, "not the program headers of %s: %#lx %#lx %#lx %#lx",
	     c->object, expected[0], expected[1], expected[2], expected[3]);
}

/* Answer the add C as the kernel series' registration does.  */
static int
handle_add (struct sframe_stub_call *c)
{
  uintptr_t sframe_start = c->args[0], sframe_end = c->args[1];
  uintptr_t text_start = c->args[2], text_end = c->args[3];
  struct sframe_stub_result *r = &stub->result;
  uintptr_t map, offset;
  if (text_start >= text_end
      || !text_mapped (c, text_start, text_end, NULL, &map, &offset))
    {
      problem (c, "the text is not in one executable mapping of a file");
      return text_start >= text_end ? EINVAL : ENXIO;
    }
  /* The kernel's checks of the section at registration (it reads it
     only to unwind): EINVAL empty, EFAULT beyond user space (that of
     any configuration), ENOEXEC shorter than a header.  */
  check_against_file (c, map, offset);
  if (sframe_start >= sframe_end)
    return EINVAL;
  if (sframe_end > (uintptr_t) 1 << 56)
    return EFAULT;
  if (sframe_end - sframe_start < sizeof (sframe_header))
    return ENOEXEC;
  for (size_t i = 0; i < r->nlive; ++i)
    if (stub->regs[i].text_start < text_end
	&& text_start < stub->regs[i].text_end)
      return EEXIST;
  if (config->refuse_object != NULL
      && strcmp (strrchr (c->object, '/') + 1, config->refuse_object) == 0)
    return config->refuse_errno;
  stub->regs[r->nlive].sframe_start = sframe_start;
  stub->regs[r->nlive].text_start = text_start;
  stub->regs[r->nlive].text_end = text_end;
  strcpy (r->live[r->nlive++], c->object);
  return 0;
}

/* A remove must name a registration, while its text is mapped.  */
static int
handle_remove (struct sframe_stub_call *c)
{
  struct sframe_stub_result *r = &stub->result;
  size_t i = 0;
  while (i < r->nlive && stub->regs[i].sframe_start != c->args[0])
    ++i;
  if (i == r->nlive)
    {
      problem (c, "remove of a section that is not registered");
      return ENOENT;
    }
  uintptr_t map, offset;
  if (!text_mapped (c, stub->regs[i].text_start, stub->regs[i].text_end,
		    r->live[i], &map, &offset))
    problem (c, "removed after its text was unmapped");
  strcpy (c->object, r->live[i]);
  stub->regs[i] = stub->regs[--r->nlive];
  strcpy (r->live[i], r->live[r->nlive]);
  return 0;
}

static struct sframe_stub_call *
new_call (enum sframe_stub_kind kind)
{
  struct sframe_stub_result *r = &stub->result;
  /* The test fails on the child's status if there are more.  */
  if (r->ncalls == SFRAME_STUB_MAX_CALLS)
    abort ();
  struct sframe_stub_call *c = &r->calls[r->ncalls++];
  memset (c, 0, sizeof (*c));
  c->kind = kind;
  return c;
}

/* Record the structure S, of SIZE bytes, of a call of KIND, answer it
   (with POLICY, a policy's errno, if not 0) and return its record.  */
static struct sframe_stub_call *
answer_one (enum sframe_stub_kind kind, const struct dl_sframe_setup *s,
	    size_t size, int policy)
{
  struct sframe_stub_call *c = new_call (kind);
  if (size != sizeof (*s))
    problem (c, "struct sframe_setup of %zu bytes, not %zu", size,
	     sizeof (*s));
  c->args[0] = s->sframe_start;
  if (kind == sframe_stub_remove
      && (s->sframe_size != 0 || s->text_start != 0 || s->text_size != 0))
    problem (c, "sframe_unregister with more than sframe_start");
  if (kind == sframe_stub_add)
    {
      c->args[1] = s->sframe_start + s->sframe_size;
      c->args[2] = s->text_start;
      c->args[3] = s->text_start + s->text_size;
      c->r_state = _r_debug.r_state;
    }
  c->error = (policy != 0 ? policy : c->problem[0] != '\0' ? EINVAL
	      : kind == sframe_stub_add ? handle_add (c) : handle_remove (c));
  return c;
}

/* Answer sframe_register_batch (SETUPS, COUNT, SIZE): the structures in
   order, up to the first refused; the number registered, or the error
   of the first.  */
static long int
answer_batch (const struct dl_sframe_setup *setups, unsigned int count,
	      size_t size)
{
  size_t max = MIN (config->batch_max, DL_SFRAME_BATCH_MAX), done = 0;
  int policy = config->no_support_errno ?: config->batch_errno;
  struct sframe_stub_call *first = NULL, *c;
  if (max == 0 || size != sizeof (*setups) || count == 0 || count > max)
    {
      c = new_call (sframe_stub_add);
      c->batch = 1;
      problem (c, "%u structures of %zu bytes, not 1 to %zu of %zu%s",
	       count, size, max, sizeof (*setups),
	       max == 0 ? " (not announced)" : "");
      return -(c->error = max == 0 ? ENOSYS : EINVAL);
    }
  do
    {
      c = answer_one (sframe_stub_add, &setups[done], size, policy);
      c->batch = done + 1;
      first = first ?: c;
    }
  while (c->error == 0 && ++done < count);
  return done == 0 ? -c->error : (first->value = done);
}

/* Answer the system call NR with the arguments A: its return value, or
   a negated errno value.  */
static long int
answer (long int nr, const unsigned long int *a)
{
  if (nr == __NR_prctl)
    {
      struct sframe_stub_call *c = new_call (sframe_stub_marker_call);
      c->args[0] = a[1];
      c->args[1] = a[2];
      for (size_t i = 0; i < stub->result.nlive; ++i)
	c->value |= (stub->regs[i].text_start <= a[2]
		     && a[2] < stub->regs[i].text_end);
      return c->value;
    }
  const struct dl_sframe_setup *setups = (const void *) a[0];
  if (nr == __NR_sframe_register_batch)
    return answer_batch (setups, a[1], a[2]);
  enum sframe_stub_kind kind = (nr == __NR_sframe_unregister
				? sframe_stub_remove : sframe_stub_add);
  return -answer_one (kind, setups, a[1], config->no_support_errno)->error;
}

/* The thread pointer of the child's own libc.  A test may start a
   dynamic linker in the child as the kernel starts a program
   (tst-sframe-startup): the calls of that linker and of the libc.so.6
   it loads trap with their own thread pointer, under which the
   thread-local variables of this code (errno, malloc's) are not its
   own.  */
static void *own_tp;

static inline __attribute__ ((always_inline)) void *
get_tp (void)
{
# ifdef __x86_64__
  /* The first word of the TCB points to the TCB.  */
  void *tp;
  asm volatile ("mov %%fs:0, %0" : "=r" (tp));
  return tp;
# else
  return __builtin_thread_pointer ();
# endif
}

static inline __attribute__ ((always_inline)) void
set_tp (void *tp)
{
# ifdef __x86_64__
  long int ret;
  asm volatile ("syscall"
		: "=a" (ret)
		: "0" ((long int) __NR_arch_prctl), "D" (ARCH_SET_FS), "S" (tp)
		: "rcx", "r11", "memory");
  if (ret != 0)
    abort ();
# else
  asm volatile ("msr tpidr_el0, %0" : : "r" (tp) : "memory");
# endif
}

static void __attribute__ ((noinline))
trap_answer (siginfo_t *si, ucontext_t *uc)
{
  int saved = errno;
# ifdef __x86_64__
  greg_t *g = uc->uc_mcontext.gregs;
  unsigned long int a[3] = { g[REG_RDI], g[REG_RSI], g[REG_RDX] };
  g[REG_RAX] = answer (si->si_syscall, a);
# else
  unsigned long long int *x = uc->uc_mcontext.regs;
  unsigned long int a[3] = { x[0], x[1], x[2] };
  x[0] = answer (si->si_syscall, a);
# endif
  errno = saved;
}

/* Nothing here may use thread-local storage before the switch, the
   stack protector's guard included.  */
static void inhibit_stack_protector
trap (int sig, siginfo_t *si, void *context)
{
  void *tp = get_tp ();
  if (tp != own_tp)
    set_tp (own_tp);
  trap_answer (si, context);
  if (tp != own_tp)
    set_tp (tp);
}

int
sframe_stub_filter (unsigned int action, bool marker)
{
# ifdef __x86_64__
  enum { arch = AUDIT_ARCH_X86_64 };
# else
  enum { arch = AUDIT_ARCH_AARCH64 };
# endif
  /* The jumps go to the last instruction, which returns ACTION.  The
     marker is a prctl whose option's low half (little-endian) is
     SFRAME_STUB_MARKER.  */
  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data,
						    arch)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_register, 6, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_unregister, 5, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_register_batch, 4, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, marker ? __NR_prctl : -1U, 0, 2),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data,
						    args[0])),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SFRAME_STUB_MARKER, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_RET | BPF_K, action),
    };
  struct sock_fprog prog = { array_length (filter), filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
  return syscall (__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

struct sframe_stub_result *
sframe_stub_run (const struct sframe_stub_config *cfg,
		 void (*fn) (void *), void *closure)
{
  static const struct sframe_stub_config defaults;
  struct stub *shared = xmmap (NULL, sizeof (*shared),
			       PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1);
  /* Output written before the fork must not appear twice.  */
  fflush (NULL);
  pid_t pid = xfork ();
  if (pid == 0)
    {
      config = cfg != NULL ? cfg : &defaults;
      stub = shared;
      own_tp = get_tp ();
      struct sigaction sa = { .sa_sigaction = trap, .sa_flags = SA_SIGINFO };
      if (sigaction (SIGSYS, &sa, NULL) != 0
	  || sframe_stub_filter (SECCOMP_RET_TRAP, true) != 0)
	_exit (126);
      fn (closure);
      fflush (NULL);
      _exit (0);
    }
  xwaitpid (pid, &shared->result.status, 0);
  if (shared->result.status == 126 << 8)
    FAIL_UNSUPPORTED ("cannot install a seccomp filter");
  return &shared->result;
}

#else /* !DL_SFRAME_KERNEL: no system calls to stand in for.  */
int
sframe_stub_filter (unsigned int action, bool marker)
{
  return -1;
}
struct sframe_stub_result *
sframe_stub_run (const struct sframe_stub_config *config,
		 void (*fn) (void *), void *closure)
{
  FAIL_UNSUPPORTED ("no SFrame registration stand-in for this target");
}
#endif
