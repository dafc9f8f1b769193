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
#include <sframe.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <support/check.h>
#include <support/support.h>
#include <support/xunistd.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined __linux__ && !defined __ILP32__ \
  && (defined __x86_64__ || defined __aarch64__)
# define STUB_SUPPORTED 1
# include <linux/audit.h>
# include <linux/filter.h>
# include <linux/seccomp.h>
# include <poll.h>
# include <sys/auxv.h>
# include <sys/ioctl.h>
# include <sys/param.h>
# include <sys/pidfd.h>
# include <sys/ptrace.h>
# include <sys/socket.h>
# include <sys/syscall.h>
# include <sys/uio.h>
# include <dl-sframe-kernel.h>
#endif

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash == NULL ? path : slash + 1;
}

/* Read the program headers of the ELF file PATH into *PHDR (malloc'ed).
   Return their number, or -1 if PATH is not a readable native ELF
   file.  */
static int
read_phdrs (const char *path, ElfW(Phdr) **phdr)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  ElfW(Ehdr) eh;
  int n = -1;
  if (pread (fd, &eh, sizeof (eh), 0) == sizeof (eh)
      && memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
      && eh.e_phentsize == sizeof (ElfW(Phdr)))
    {
      size_t size = eh.e_phnum * sizeof (ElfW(Phdr));
      *phdr = xmalloc (size);
      if (pread (fd, *phdr, size, eh.e_phoff) == size)
	n = eh.e_phnum;
      else
	free (*phdr);
    }
  xclose (fd);
  return n;
}

bool
sframe_stub_file_sframe (const char *path, ElfW(Phdr) *sframe)
{
  ElfW(Phdr) *phdr;
  int n = read_phdrs (path, &phdr);
  if (n < 0)
    FAIL_EXIT1 ("cannot read program headers of %s", path);
  bool found = false;
  for (int i = 0; i < n && !found; ++i)
    if (phdr[i].p_type == PT_GNU_SFRAME)
      {
	found = true;
	if (sframe != NULL)
	  *sframe = phdr[i];
      }
  free (phdr);
  return found;
}

size_t
sframe_stub_count (const struct sframe_stub_result *r,
		   enum sframe_stub_kind kind, const char *name)
{
  size_t count = 0;
  for (size_t i = 0; i < r->ncalls; ++i)
    if (r->calls[i].kind == kind
	&& (name == NULL
	    || (r->calls[i].object != NULL
		&& strcmp (base_name (r->calls[i].object), name) == 0)))
      ++count;
  return count;
}

bool
sframe_stub_live (const struct sframe_stub_result *r, const char *name)
{
  for (size_t i = 0; i < r->nlive; ++i)
    if (strcmp (base_name (r->live[i]), name) == 0)
      return true;
  return false;
}

long int
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
    {
      support_record_failure ();
      printf ("error: marker %lu seen %d times, expected once\n", id, seen);
    }
  return value;
}

void
sframe_stub_check (const struct sframe_stub_result *r)
{
  static const char *const kinds[] = { "add", "remove", "marker" };
  for (size_t i = 0; i < r->ncalls; ++i)
    {
      const struct sframe_stub_call *c = &r->calls[i];
      printf ("stub: %-6s %#lx %#lx %#lx %#lx -> %s %d value %ld"
	      " batch %u  %s\n", kinds[c->kind],
	      c->args[0], c->args[1], c->args[2], c->args[3],
	      c->forwarded ? "kernel; stand-in's error" : "error", c->error,
	      c->value, c->batch, c->object != NULL ? c->object : "");
      if (c->problem != NULL)
	{
	  support_record_failure ();
	  printf ("error: stub: call %zu: %s\n", i, c->problem);
	}
    }
  for (size_t i = 0; i < r->nlive; ++i)
    printf ("stub: live at exit: %s\n", r->live[i]);
  if (!WIFEXITED (r->status) || WEXITSTATUS (r->status) != 0)
    {
      support_record_failure ();
      printf ("error: stub: child wait status %#x\n", r->status);
    }
}

void
sframe_stub_free (struct sframe_stub_result *r)
{
  for (size_t i = 0; i < r->ncalls; ++i)
    {
      free (r->calls[i].object);
      free (r->calls[i].problem);
    }
  free (r->calls);
  for (size_t i = 0; i < r->nlive; ++i)
    free (r->live[i]);
  free (r->live);
  free (r);
}

#ifdef STUB_SUPPORTED

# ifdef __x86_64__
#  define STUB_AUDIT_ARCH AUDIT_ARCH_X86_64
# else
#  define STUB_AUDIT_ARCH AUDIT_ARCH_AARCH64
# endif

/* One mapping of the child, from /proc/PID/maps.  */
struct mapping
{
  uintptr_t start;
  uintptr_t end;
  bool readable;
  bool executable;
  unsigned long int offset;
  char *path;			/* NULL for anonymous mappings.  */
};

struct maps
{
  struct mapping *m;
  size_t n;
};

static void
maps_read (pid_t pid, struct maps *maps)
{
  char *name = xasprintf ("/proc/%d/maps", (int) pid);
  FILE *fp = fopen (name, "re");
  if (fp == NULL)
    FAIL_EXIT1 ("fopen (%s): %m", name);
  free (name);
  maps->m = NULL;
  maps->n = 0;
  size_t alloc = 0;
  char *line = NULL;
  size_t line_size = 0;
  while (getline (&line, &line_size, fp) > 0)
    {
      unsigned long int start, end, offset;
      char perms[5];
      int path_start = 0;
      if (sscanf (line, "%lx-%lx %4s %lx %*s %*s %n", &start, &end, perms,
		  &offset, &path_start) < 4)
	continue;
      if (maps->n == alloc)
	{
	  alloc = 2 * alloc + 16;
	  maps->m = xrealloc (maps->m, alloc * sizeof (*maps->m));
	}
      struct mapping *m = &maps->m[maps->n++];
      m->start = start;
      m->end = end;
      m->offset = offset;
      m->readable = perms[0] == 'r';
      m->executable = perms[2] == 'x';
      char *path = line + path_start;
      path[strcspn (path, "\n")] = '\0';
      m->path = path[0] == '/' ? xstrdup (path) : NULL;
    }
  free (line);
  fclose (fp);
}

static void
maps_free (struct maps *maps)
{
  for (size_t i = 0; i < maps->n; ++i)
    free (maps->m[i].path);
  free (maps->m);
}

/* Return the mapping that contains ADDR, or NULL.  */
static const struct mapping *
maps_find (const struct maps *maps, uintptr_t addr)
{
  for (size_t i = 0; i < maps->n; ++i)
    if (maps->m[i].start <= addr && addr < maps->m[i].end)
      return &maps->m[i];
  return NULL;
}

/* Return true if [START, END) is covered by mappings of PATH (of
   anything if PATH is NULL) that are readable (EXECUTABLE false) or
   executable (EXECUTABLE true).  */
static bool
maps_cover (const struct maps *maps, uintptr_t start, uintptr_t end,
	    const char *path, bool executable)
{
  while (start < end)
    {
      const struct mapping *m = maps_find (maps, start);
      if (m == NULL
	  || (path != NULL
	      && (m->path == NULL || strcmp (m->path, path) != 0))
	  || (executable ? !m->executable : !m->readable))
	return false;
      start = m->end;
    }
  return true;
}

/* The registrations the stand-in holds.  */
struct registration
{
  uintptr_t sframe_start;
  uintptr_t text_start;
  uintptr_t text_end;
  char *object;
};

struct stub
{
  const struct sframe_stub_config *config;
  /* Let the kernel carry out the calls (see <support/sframe-stub.h>).  */
  bool forward;
  /* The kernel also takes batches.  */
  bool forward_batches;
  /* The AT_SFRAME_BATCH_MAX the child was told, 0 for none.  */
  unsigned long int batch_max;
  /* The answer to the current call is one the test configured.  */
  bool injected;
  pid_t pid;
  struct sframe_stub_result *result;
  struct registration *regs;
  size_t nregs;
  size_t regs_alloc;
};

static void
add_problem (struct sframe_stub_call *c, const char *fmt, ...)
{
  if (c->problem != NULL)
    return;
  va_list ap;
  va_start (ap, fmt);
  if (vasprintf (&c->problem, fmt, ap) < 0)
    FAIL_EXIT1 ("vasprintf: %m");
  va_end (ap);
}

/* Check the arguments of an add against the program headers of the
   mapped file: they must be exactly its PT_GNU_SFRAME segment and the
   hull of its executable PT_LOAD segments, relocated by the load bias
   that the file's lowest mapping shows.  */
static void
check_against_file (struct sframe_stub_call *c, const struct maps *maps)
{
  ElfW(Phdr) *phdr;
  int n = read_phdrs (c->object, &phdr);
  if (n < 0)
    {
      add_problem (c, "cannot read program headers of %s", c->object);
      return;
    }
  /* The mapping of the text start shows the load bias: its file offset
     is that of an executable PT_LOAD segment (page-aligned).  */
  const struct mapping *text = maps_find (maps, c->args[2]);
  uintptr_t page = getpagesize ();
  const ElfW(Phdr) *text_load = NULL, *sframe = NULL;
  uintptr_t text_start = UINTPTR_MAX, text_end = 0;
  for (int i = 0; i < n; ++i)
    {
      const ElfW(Phdr) *ph = &phdr[i];
      if (ph->p_type == PT_LOAD)
	{
	  if ((ph->p_flags & PF_X) && text_load == NULL
	      && (ph->p_offset & -page) == text->offset)
	    text_load = ph;
	  if ((ph->p_flags & PF_X) && ph->p_vaddr < text_start)
	    text_start = ph->p_vaddr;
	  if ((ph->p_flags & PF_X) && ph->p_vaddr + ph->p_memsz > text_end)
	    text_end = ph->p_vaddr + ph->p_memsz;
	}
      else if (ph->p_type == PT_GNU_SFRAME)
	sframe = ph;
    }
  if (text_load == NULL || sframe == NULL)
    add_problem (c, "%s has no %s", c->object,
		 sframe == NULL ? "PT_GNU_SFRAME"
		 : "executable PT_LOAD at the text start");
  else
    {
      uintptr_t bias = text->start - (text_load->p_vaddr & -page);
      uintptr_t expected[4] =
	{
	  bias + sframe->p_vaddr, bias + sframe->p_vaddr + sframe->p_memsz,
	  bias + text_start, bias + text_end
	};
      if (memcmp (expected, c->args, sizeof (expected)) != 0)
	add_problem (c, "arguments differ from the program headers of %s:"
		     " expected %#lx %#lx %#lx %#lx", c->object,
		     (unsigned long int) expected[0],
		     (unsigned long int) expected[1],
		     (unsigned long int) expected[2],
		     (unsigned long int) expected[3]);
    }
  free (phdr);
}

/* Validate an add the way a kernel does and return the error to
   answer.  */
static int
handle_add (struct stub *stub, struct sframe_stub_call *c)
{
  uintptr_t sframe_start = c->args[0], sframe_end = c->args[1];
  uintptr_t text_start = c->args[2], text_end = c->args[3];
  struct maps maps;
  maps_read (stub->pid, &maps);
  int err = 0;

  const struct mapping *text = maps_find (&maps, text_start);
  if (text != NULL && text->path != NULL)
    c->object = xstrdup (text->path);
  if (c->object == NULL
      || !maps_cover (&maps, text_start, text_end, c->object, true))
    {
      add_problem (c, "text is not mapped executable from one file");
      /* The kernel's answers: a hole, or text not executable.  */
      err = (text != NULL && maps_cover (&maps, text_start, text_end,
					 NULL, false)
	     ? EACCES : ENXIO);
    }
  else
    {
      /* rtld judges neither the PT_GNU_SFRAME segment nor the data in
	 it: what is checked here is that the ranges are the object's
	 program headers.  The kernel checks the section's range when it
	 registers it, and reads the section only when it unwinds: an
	 empty or inverted range is EINVAL, one beyond user space EFAULT
	 (the largest user address of any configuration stands for the
	 task's own), one shorter than an SFrame header ENOEXEC; a
	 section in no mapping, or past the end of its file, is
	 registered.  */
      check_against_file (c, &maps);
      if (sframe_start >= sframe_end)
	err = EINVAL;
      else if (sframe_end > (uintptr_t) 1 << 56)
	err = EFAULT;
      else if (sframe_end - sframe_start < sizeof (sframe_header))
	err = ENOEXEC;
    }
  maps_free (&maps);

  for (size_t i = 0; err == 0 && i < stub->nregs; ++i)
    if (stub->regs[i].text_start < text_end
	&& text_start < stub->regs[i].text_end)
      err = EEXIST;
  const struct sframe_stub_config *config = stub->config;
  if (err == 0 && config->refuse_object != NULL
      && strcmp (base_name (c->object), config->refuse_object) == 0)
    {
      err = config->refuse_errno;
      stub->injected = true;
    }
  if (err == 0)
    {
      if (stub->nregs == stub->regs_alloc)
	{
	  stub->regs_alloc = 2 * stub->regs_alloc + 8;
	  stub->regs = xrealloc (stub->regs,
				 stub->regs_alloc * sizeof (*stub->regs));
	}
      stub->regs[stub->nregs++] = (struct registration)
	{
	  .sframe_start = sframe_start,
	  .text_start = text_start,
	  .text_end = text_end,
	  .object = xstrdup (c->object),
	};
    }
  return err;
}

/* A remove must name a registration and come while its text is still
   mapped.  */
static int
handle_remove (struct stub *stub, struct sframe_stub_call *c)
{
  for (size_t i = 0; i < stub->nregs; ++i)
    if (stub->regs[i].sframe_start == c->args[0])
      {
	struct registration reg = stub->regs[i];
	stub->regs[i] = stub->regs[--stub->nregs];
	c->object = reg.object;
	struct maps maps;
	maps_read (stub->pid, &maps);
	if (!maps_cover (&maps, reg.text_start, reg.text_end, reg.object,
			 true))
	  add_problem (c, "removed after the text of %s was unmapped",
		       reg.object);
	maps_free (&maps);
	return 0;
      }
  add_problem (c, "remove of a section that is not registered");
  return ENOENT;
}

/* Return true if the kernel has SFrame registration: it announces it to
   this process too.  */
static bool
kernel_has_sframe (void)
{
  if (getenv ("SFRAME_STUB_NO_FORWARD") != NULL)
    return false;
  return getauxval (AT_SFRAME_SETUP_SIZE) >= sizeof (struct dl_sframe_setup);
}

/* Put the ranges of SETUP, the structure of call C (NULL if it could
   not be read), into C->args (see there) and check its shape.  Return
   the error a kernel answers for it, or 0.  */
static int
setup_args (struct sframe_stub_call *c, const struct dl_sframe_setup *setup)
{
  if (setup == NULL)
    {
      add_problem (c, "cannot read struct sframe_setup");
      return EFAULT;
    }
  c->args[0] = setup->sframe_start;
  if (c->kind == sframe_stub_remove)
    {
      if (setup->sframe_size != 0 || setup->text_start != 0
	  || setup->text_size != 0)
	{
	  add_problem (c, "sframe_unregister with fields other than"
		       " sframe_start set");
	  return EINVAL;
	}
      return 0;
    }
  c->args[1] = setup->sframe_start + setup->sframe_size;
  c->args[2] = setup->text_start;
  c->args[3] = setup->text_start + setup->text_size;
  /* rtld sends the text only when it found some; the SFrame range is
     the program header's, whatever it holds (see handle_add).  */
  if (setup->text_size == 0 || c->args[3] < setup->text_start)
    {
      add_problem (c, "empty or wrapping text range");
      return EINVAL;
    }
  return 0;
}

/* Append a call to the result, zeroed, and return it.  *ALLOC is the
   number of calls there is room for.  */
static struct sframe_stub_call *
new_call (struct stub *stub, size_t *alloc)
{
  struct sframe_stub_result *r = stub->result;
  if (r->ncalls == *alloc)
    {
      *alloc = 2 * *alloc + 16;
      r->calls = xrealloc (r->calls, *alloc * sizeof (*r->calls));
    }
  struct sframe_stub_call *c = &r->calls[r->ncalls++];
  memset (c, 0, sizeof (*c));
  return c;
}

/* Handle the system call DATA, sframe_register, sframe_unregister or
   sframe_register_batch, recorded from call FIRST on: read its
   structures and record one add or remove for each, in order, up to
   the first refused, as the kernel handles them.  Put the answer in
   call FIRST (its error, or the value of a batch: the number
   registered) and return it.  The kernel carries the call out if it
   has it and no structure got an error the test configured (a verdict
   of the stand-in's own goes to the kernel, which gives its own
   answer); otherwise the stand-in answers, and registers the
   structures it accepted with itself only.  */
static struct sframe_stub_call *
handle_setups (struct stub *stub, size_t *alloc, size_t first,
	       const struct seccomp_data *data)
{
  struct sframe_stub_result *r = stub->result;
  const struct sframe_stub_config *config = stub->config;
  bool batch = data->nr == __NR_sframe_register_batch;
  unsigned long int count = batch ? (unsigned int) data->args[1] : 1;
  unsigned long int size = data->args[batch ? 2 : 1];
  unsigned long int max = batch ? MIN (stub->batch_max,
				       DL_SFRAME_BATCH_MAX) : 1;
  struct sframe_stub_call *c = &r->calls[first];
  c->kind = (data->nr == __NR_sframe_unregister
	     ? sframe_stub_remove : sframe_stub_add);
  c->batch = batch;
  struct dl_sframe_setup setups[DL_SFRAME_BATCH_MAX];
  unsigned long int readable = 0;
  int error = 0;
  if (max == 0)
    {
      /* As a kernel without the call answers.  */
      add_problem (c, "sframe_register_batch, not announced");
      error = ENOSYS;
    }
  else if (size != sizeof (*setups) || count == 0 || count > max)
    {
      add_problem (c, "%lu structures of %lu bytes, not 1 to %lu of %zu",
		   count, size, max, sizeof (*setups));
      error = EINVAL;
    }
  else
    {
      struct iovec local = { setups, count * size };
      struct iovec remote = { (void *) data->args[0], count * size };
      ssize_t n = process_vm_readv (stub->pid, &local, 1, &remote, 1, 0);
      if (n < 0 && errno == EPERM)
	FAIL_UNSUPPORTED ("process_vm_readv not permitted (Yama?)");
      readable = n < 0 ? 0 : n / size;
    }

  /* A policy's errno refuses the whole call.  */
  int policy = (config->no_support_errno != 0 ? config->no_support_errno
		: batch ? config->batch_errno : 0);
  bool injected = false;
  unsigned long int done = 0;
  while (error == 0 && done < count)
    {
      if (done > 0)
	{
	  c = new_call (stub, alloc);
	  c->kind = sframe_stub_add;
	  c->batch = done + 1;
	}
      stub->injected = policy != 0;
      error = setup_args (c, done < readable ? &setups[done] : NULL);
      if (stub->injected)
	error = policy;
      else if (error == 0)
	error = (c->kind == sframe_stub_add
		 ? handle_add (stub, c) : handle_remove (stub, c));
      c->error = error;
      injected |= stub->injected;
      done += error == 0;
    }
  bool forward = (batch ? stub->forward_batches : stub->forward) && !injected;
  for (size_t i = first; i < r->ncalls; ++i)
    r->calls[i].forwarded = forward;
  c = &r->calls[first];
  if (done == 0)
    c->error = error;
  else if (batch)
    c->value = done;
  return c;
}

static long int
handle_marker (struct stub *stub, struct sframe_stub_call *c)
{
  for (size_t i = 0; i < stub->nregs; ++i)
    if (stub->regs[i].text_start <= c->args[1]
	&& c->args[1] < stub->regs[i].text_end)
      return 1;
  return 0;
}

int
sframe_stub_filter (unsigned int action, bool marker, unsigned int flags)
{
# if __BYTE_ORDER == __LITTLE_ENDIAN
  enum { option_low = offsetof (struct seccomp_data, args[0]) };
# else
  enum { option_low = offsetof (struct seccomp_data, args[0]) + 4 };
# endif
  /* The jumps go to the last instruction, which returns ACTION.  */
  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data,
						    arch)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, STUB_AUDIT_ARCH, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_register, 6, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_unregister, 5, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_register_batch, 4, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, marker ? __NR_prctl : -1U, 0, 2),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, option_low),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SFRAME_STUB_MARKER, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_RET | BPF_K, action),
    };
  size_t len = array_length (filter);
  struct sock_fprog prog = { len, filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
  return syscall (__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static void
send_fd (int sock, int fd)
{
  char data = 0;
  struct iovec iov = { &data, 1 };
  union
  {
    struct cmsghdr hdr;
    char buf[CMSG_SPACE (sizeof (int))];
  } u;
  struct msghdr msg =
    {
      .msg_iov = &iov, .msg_iovlen = 1,
      .msg_control = u.buf, .msg_controllen = sizeof (u.buf)
    };
  struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (cmsg), &fd, sizeof (int));
  if (sendmsg (sock, &msg, 0) != 1)
    _exit (127);
}

/* Receive a descriptor, or return -1 if the peer sent none (it could
   not install the filter).  */
static int
receive_fd (int sock)
{
  char data;
  struct iovec iov = { &data, 1 };
  union
  {
    struct cmsghdr hdr;
    char buf[CMSG_SPACE (sizeof (int))];
  } u;
  struct msghdr msg =
    {
      .msg_iov = &iov, .msg_iovlen = 1,
      .msg_control = u.buf, .msg_controllen = sizeof (u.buf)
    };
  if (recvmsg (sock, &msg, MSG_CMSG_CLOEXEC) != 1)
    return -1;
  struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg);
  if (cmsg == NULL || cmsg->cmsg_type != SCM_RIGHTS)
    return -1;
  int fd;
  memcpy (&fd, CMSG_DATA (cmsg), sizeof (int));
  return fd;
}

/* Read the word at ADDR of the process whose memory is open at FD.  */
static uint64_t
mem_word (int fd, uintptr_t addr)
{
  uint64_t word;
  if (pread64 (fd, &word, sizeof (word), addr) != sizeof (word))
    FAIL_EXIT1 ("stand-in: cannot read the child's stack at %#lx: %m",
		(unsigned long int) addr);
  return word;
}

static void
mem_write_word (int fd, uintptr_t addr, uint64_t word)
{
  if (pwrite64 (fd, &word, sizeof (word), addr) != sizeof (word))
    FAIL_EXIT1 ("stand-in: cannot write the child's stack at %#lx: %m",
		(unsigned long int) addr);
}

/* Edit the auxiliary vector of PID, stopped right after its execve, as
   CONFIG says.  */
static void
edit_auxv (pid_t pid, const struct sframe_stub_config *config)
{
  /* Field 28 of /proc/PID/stat, startstack, is where execve put argc,
     followed by argv, envp and the auxiliary vector.  */
  char *name = xasprintf ("/proc/%d/stat", (int) pid);
  FILE *fp = fopen (name, "re");
  if (fp == NULL)
    FAIL_EXIT1 ("fopen (%s): %m", name);
  char buf[1024];
  size_t len = fread (buf, 1, sizeof (buf) - 1, fp);
  fclose (fp);
  buf[len] = '\0';
  char *p = strrchr (buf, ')');
  unsigned long int start_stack = 0;
  for (int field = 2; p != NULL && field < 28; ++field)
    p = strchr (p + 1, ' ');
  if (p == NULL || sscanf (p, " %lu", &start_stack) != 1
      || start_stack == 0)
    FAIL_EXIT1 ("%s: no startstack field", name);
  free (name);

  name = xasprintf ("/proc/%d/mem", (int) pid);
  int fd = xopen (name, O_RDWR | O_CLOEXEC, 0);
  free (name);
  uintptr_t addr = start_stack;
  uint64_t argc = mem_word (fd, addr);
  addr += (argc + 2) * sizeof (uint64_t);
  while (mem_word (fd, addr) != 0)
    addr += sizeof (uint64_t);
  addr += sizeof (uint64_t);

  /* The entries of AT_SFRAME_SETUP_SIZE and AT_SFRAME_BATCH_MAX, and
     those a missing one can replace, in that order: AT_IGNORE (two at
     most), AT_FLAGS, AT_PHENT.  */
  uintptr_t entry[2] = { 0, 0 }, spare[4] = { 0 };
  size_t nignore = 0;
  bool pagesz = false;
  for (uint64_t type; (type = mem_word (fd, addr)) != AT_NULL;
       addr += 2 * sizeof (uint64_t))
    if (type == AT_SFRAME_SETUP_SIZE || type == AT_SFRAME_BATCH_MAX)
      entry[type == AT_SFRAME_BATCH_MAX] = addr;
    else if (type == AT_IGNORE && nignore < 2)
      spare[nignore++] = addr;
    else if (type == AT_FLAGS || type == AT_PHENT)
      spare[2 + (type == AT_PHENT)] = addr;
    else if (type == AT_PAGESZ)
      pagesz = mem_word (fd, addr + sizeof (uint64_t)) == getpagesize ();
  if (!pagesz)
    FAIL_EXIT1 ("stand-in: no auxiliary vector found at startstack %#lx",
		start_stack);

  bool none = config->announce == sframe_stub_announce_none;
  const uint64_t values[2] =
    {
      config->announce == sframe_stub_announce_zero
      ? 0 : sizeof (struct dl_sframe_setup),
      none ? 0 : config->batch_max,
    };
  for (size_t i = 0, next = 0; i < 2; ++i)
    if (none || (i == 1 && values[i] == 0))
      {
	if (entry[i] != 0)
	  mem_write_word (fd, entry[i], AT_IGNORE);
      }
    else
      {
	while (entry[i] == 0 && next < array_length (spare))
	  entry[i] = spare[next++];
	if (entry[i] == 0)
	  FAIL_EXIT1 ("stand-in: no auxiliary vector entry to replace");
	mem_write_word (fd, entry[i],
			i == 0 ? AT_SFRAME_SETUP_SIZE : AT_SFRAME_BATCH_MAX);
	mem_write_word (fd, entry[i] + sizeof (uint64_t), values[i]);
      }
  if (none)
    printf ("info: stand-in: no AT_SFRAME_SETUP_SIZE\n");
  else
    printf ("info: stand-in: AT_SFRAME_SETUP_SIZE %lu,"
	    " AT_SFRAME_BATCH_MAX %lu (0: none)\n",
	    (unsigned long int) values[0], (unsigned long int) values[1]);
  xclose (fd);
}

/* Let PID, which called PTRACE_TRACEME, run to its first execve, edit
   its auxiliary vector there and detach.  Return false and store the
   wait status in *STATUS if it ended before.  */
static bool
trace_to_exec (pid_t pid, const struct sframe_stub_config *config,
	       int *status)
{
  while (true)
    {
      xwaitpid (pid, status, 0);
      if (!WIFSTOPPED (*status))
	return false;
      int sig = WSTOPSIG (*status);
      if (sig == SIGTRAP)
	{
	  /* The stop after a successful execve.  */
	  edit_auxv (pid, config);
	  if (ptrace (PTRACE_DETACH, pid, 0, 0) != 0)
	    FAIL_EXIT1 ("ptrace (PTRACE_DETACH): %m");
	  return true;
	}
      if (ptrace (PTRACE_CONT, pid, 0, sig) != 0)
	FAIL_EXIT1 ("ptrace (PTRACE_CONT): %m");
    }
}

static void
supervise (struct stub *stub, int listener)
{
  struct seccomp_notif_sizes sizes;
  if (syscall (__NR_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
    FAIL_EXIT1 ("SECCOMP_GET_NOTIF_SIZES: %m");
  struct seccomp_notif *req = xmalloc (sizes.seccomp_notif);
  struct seccomp_notif_resp *resp = xmalloc (sizes.seccomp_notif_resp);
  size_t alloc = 0;
  struct sframe_stub_result *r = stub->result;

  /* Kernels before 6.11 signal POLLHUP on the listener only once the
     child is reaped; its pidfd tells when it has exited.  */
  int pidfd = pidfd_open (stub->pid, 0);
  while (true)
    {
      struct pollfd pfd[2] =
	{
	  { .fd = listener, .events = POLLIN },
	  { .fd = pidfd, .events = POLLIN },
	};
      if (poll (pfd, pidfd < 0 ? 1 : 2, -1) < 0)
	{
	  if (errno == EINTR)
	    continue;
	  FAIL_EXIT1 ("poll: %m");
	}
      if (!(pfd[0].revents & POLLIN))
	/* POLLHUP: no process left under the filter, or the child has
	   exited (it does not fork).  */
	break;
      memset (req, 0, sizes.seccomp_notif);
      if (ioctl (listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0)
	{
	  if (errno == EINTR || errno == ENOENT)
	    continue;
	  FAIL_EXIT1 ("SECCOMP_IOCTL_NOTIF_RECV: %m");
	}
      stub->pid = req->pid;

      size_t first = r->ncalls;
      struct sframe_stub_call *c = new_call (stub, &alloc);
      if (req->data.nr == __NR_prctl)
	{
	  /* The marker.  */
	  c->kind = sframe_stub_marker_call;
	  c->args[0] = req->data.args[1];
	  c->args[1] = req->data.args[2];
	  c->value = handle_marker (stub, c);
	}
      else
	c = handle_setups (stub, &alloc, first, &req->data);

      /* The answer only counts if the call is still pending: what was
	 read from /proc then belonged to the caller.  */
      if (ioctl (listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) != 0)
	add_problem (c, "caller vanished during the call");
      memset (resp, 0, sizes.seccomp_notif_resp);
      resp->id = req->id;
      if (c->forwarded)
	resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
      else
	{
	  resp->error = -c->error;
	  resp->val = c->error == 0 ? c->value : 0;
	}
      if (ioctl (listener, SECCOMP_IOCTL_NOTIF_SEND, resp) != 0
	  && errno != ENOENT)
	FAIL_EXIT1 ("SECCOMP_IOCTL_NOTIF_SEND: %m");
    }
  if (pidfd >= 0)
    xclose (pidfd);
  free (req);
  free (resp);
}

struct sframe_stub_result *
sframe_stub_run (const struct sframe_stub_config *config,
		 void (*fn) (void *), void *closure)
{
  static const struct sframe_stub_config defaults;
  struct stub stub =
    {
      .config = config != NULL ? config : &defaults,
      .result = xcalloc (1, sizeof (struct sframe_stub_result)),
    };
  int socks[2];
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, socks) != 0)
    FAIL_EXIT1 ("socketpair: %m");
  /* Output written before the fork must not appear twice.  */
  fflush (NULL);
  pid_t pid = xfork ();
  bool trace = stub.config->announce != sframe_stub_announce_kernel;
  if (pid == 0)
    {
      xclose (socks[0]);
      if (trace && ptrace (PTRACE_TRACEME, 0, 0, 0) != 0)
	_exit (126);
      /* The two system calls and the marker go to the supervisor.  */
      int listener = sframe_stub_filter (SECCOMP_RET_USER_NOTIF, true,
					 SECCOMP_FILTER_FLAG_NEW_LISTENER);
      if (listener < 0)
	_exit (127);
      send_fd (socks[1], listener);
      xclose (listener);
      xclose (socks[1]);
      fn (closure);
      _exit (0);
    }
  xclose (socks[1]);
  int listener = receive_fd (socks[0]);
  xclose (socks[0]);
  if (listener < 0)
    {
      int status;
      xwaitpid (pid, &status, 0);
      if (WIFEXITED (status) && WEXITSTATUS (status) == 126)
	FAIL_UNSUPPORTED ("ptrace (PTRACE_TRACEME) not permitted (Yama?)");
      FAIL_UNSUPPORTED ("cannot install a seccomp user notification filter");
    }
  stub.pid = pid;
  stub.forward = kernel_has_sframe ();
  stub.forward_batches = stub.forward && getauxval (AT_SFRAME_BATCH_MAX) != 0;
  stub.batch_max = (stub.config->announce == sframe_stub_announce_kernel
		    ? getauxval (AT_SFRAME_BATCH_MAX)
		    : stub.config->announce == sframe_stub_announce_none
		    ? 0 : stub.config->batch_max);
  if (stub.forward)
    printf ("info: stand-in: the kernel has SFrame registration;"
	    " calls are checked and forwarded to it, except\n"
	    "info: stand-in: the errors this test injects\n");
  if (!trace
      || trace_to_exec (pid, stub.config, &stub.result->status))
    {
      supervise (&stub, listener);
      xwaitpid (pid, &stub.result->status, 0);
    }
  xclose (listener);

  struct sframe_stub_result *r = stub.result;
  r->live = xrealloc (NULL, (stub.nregs + 1) * sizeof (char *));
  for (size_t i = 0; i < stub.nregs; ++i)
    r->live[r->nlive++] = stub.regs[i].object;
  free (stub.regs);
  return r;
}

#else /* !STUB_SUPPORTED */

int
sframe_stub_filter (unsigned int action, bool marker, unsigned int flags)
{
  errno = ENOSYS;
  return -1;
}

struct sframe_stub_result *
sframe_stub_run (const struct sframe_stub_config *config,
		 void (*fn) (void *), void *closure)
{
  FAIL_UNSUPPORTED ("no SFrame registration stand-in for this target");
}

#endif
