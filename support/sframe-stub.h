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

#ifndef SUPPORT_SFRAME_STUB_H
#define SUPPORT_SFRAME_STUB_H

/* The dynamic linker registers SFrame data with the system call
   sframe_register and withdraws it with sframe_unregister, but only if
   the kernel announces the interface in the auxiliary vector entry
   AT_SFRAME_SETUP_SIZE.  Kernels that test machines run may lack all of
   this, so tests run the code under test in a child process whose calls
   are trapped by a seccomp filter (SECCOMP_RET_USER_NOTIF) and answered
   by the test process, which acts as the kernel: it records every call,
   checks its shape and its ranges against the child's real mappings
   (/proc/PID/maps) and the program headers of the mapped file, and
   answers success or a chosen error.  It does not read the SFrame data:
   rtld does not either, and what the kernel makes of it is the kernel
   series' to test.

   The stand-in also makes the announcement: the child runs under
   ptrace until its first execve, and at that stop the stand-in edits
   the new program's auxiliary vector (announcing the size of struct
   sframe_setup by default; or 0, or nothing; see enum
   sframe_stub_announce; and AT_SFRAME_BATCH_MAX if the configuration
   gives one), before any of the program's code runs.  A missing entry
   takes the place of AT_IGNORE or, failing that, of AT_FLAGS (always 0
   on Linux) or AT_PHENT (always the size of a program header), both
   unused by glibc; a removed entry becomes AT_IGNORE.  FN must
   therefore execve before it makes any trapped call, unless the
   configuration says sframe_stub_announce_kernel.

   A batch (sframe_register_batch) is recorded as one add per
   structure, up to the first the stand-in refuses, and answered as the
   kernel answers it; where no AT_SFRAME_BATCH_MAX was announced, as a
   kernel without the call answers (ENOSYS).  The kernel carries it out
   only if it takes batches itself and no structure got an error the
   test configured: otherwise the stand-in answers the whole call, and
   the structures before the refused one are registered with the
   stand-in only.

   The child can also ask the stand-in, with sframe_stub_marker, whether
   an address lies in registered text at that moment; the question is
   recorded in order with the other calls.

   On a kernel that has the interface (it announces it to the test
   process itself), the stand-in still records and checks every call,
   but lets the kernel carry it out and answer it
   (SECCOMP_USER_NOTIF_FLAG_CONTINUE), so that the tests run against the
   real kernel; only the errors a test asks for in its configuration are
   still answered by the stand-in.  Set SFRAME_STUB_NO_FORWARD in the
   environment to answer everything.  */

#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/prctl.h>

__BEGIN_DECLS

/* prctl option of the marker.  No kernel defines it ("SFST").  */
#define SFRAME_STUB_MARKER 0x53465354

/* In the child: record marker ID and return 1 if ADDR lies in text
   registered at this moment, 0 if not, -1 without the stand-in.  */
#define sframe_stub_marker(id, addr) \
  prctl (SFRAME_STUB_MARKER, (unsigned long int) (id), \
	 (unsigned long int) (addr), 0UL, 0UL)

enum sframe_stub_kind
  {
    sframe_stub_add,		/* sframe_register.  */
    sframe_stub_remove,		/* sframe_unregister.  */
    sframe_stub_marker_call,	/* sframe_stub_marker.  */
  };

/* One trapped call, in the order the child made them.  */
struct sframe_stub_call
{
  enum sframe_stub_kind kind;
  /* From struct sframe_setup: the start and end of the section and of
     the text (sframe_start and 0, 0, 0 for a removal).  Marker: its ID
     and address.  */
  unsigned long int args[4];
  int error;			/* Errno answered; 0 for success.  */
  /* Marker: the value answered.  The first add of a batch: what the
     call answered besides an error, the number of structures
     registered.  */
  long int value;
  /* An add of sframe_register_batch: its place in the batch, from 1,
     each structure being an add of its own.  0 for every other call.  */
  unsigned int batch;
  /* Add: the file mapped at the text start.  Remove: the file of the
     registration.  Marker: NULL.  NULL also if no file is mapped.  */
  char *object;
  /* NULL if the call is what a kernel expects, else what is wrong.  */
  char *problem;
  /* True if the kernel carried the call out and answered it; ERROR is
     then the stand-in's own verdict, not the answer.  */
  bool forwarded;
};

/* What the stand-in puts in the child's auxiliary vector.  */
enum sframe_stub_announce
  {
    /* AT_SFRAME_SETUP_SIZE is the size of struct sframe_setup.  */
    sframe_stub_announce_setup,
    /* AT_SFRAME_SETUP_SIZE is 0: not available to this process.  */
    sframe_stub_announce_zero,
    /* No AT_SFRAME_SETUP_SIZE, like every kernel without the
       interface.  */
    sframe_stub_announce_none,
    /* What the kernel put there; the child is not traced.  */
    sframe_stub_announce_kernel,
  };

/* How the stand-in answers.  Zero-initialize for a kernel that announces
   and accepts every valid request.  */
struct sframe_stub_config
{
  enum sframe_stub_announce announce;
  /* If nonzero, AT_SFRAME_BATCH_MAX, the most structures the stand-in
     takes in one sframe_register_batch call (at most 1024), unless
     ANNOUNCE is sframe_stub_announce_none or _kernel.  */
  unsigned int batch_max;
  /* If nonzero, answer every add and remove with this error and do
     nothing else, like a policy that forbids the calls (a seccomp
     filter that answers ENOSYS or EPERM).  */
  int no_support_errno;
  /* If nonzero, answer every sframe_register_batch with this error and
     do nothing else, like a policy that allows the other calls but
     fails that one (a seccomp filter older than it).  */
  int batch_errno;
  /* If REFUSE_OBJECT is not NULL, answer an add whose object's file name
     (without directory) equals it with REFUSE_ERRNO.  */
  const char *refuse_object;
  int refuse_errno;
};

struct sframe_stub_result
{
  struct sframe_stub_call *calls;
  size_t ncalls;
  /* Objects of the registrations still in place when the child ended.  */
  char **live;
  size_t nlive;
  /* Wait status of the child.  */
  int status;
};

/* Run FN (CLOSURE) in a child process whose SFrame registration calls
   go to a stand-in configured by CONFIG (NULL for the defaults), until
   the child and all its descendants under the filter are gone.  FN
   usually execs a program (and must, before any such call, unless
   CONFIG->announce is sframe_stub_announce_kernel); if it returns, the
   child exits with status 0.  Exits with FAIL_UNSUPPORTED if the kernel
   lacks seccomp user notification or ptrace is not permitted.  */
struct sframe_stub_result *sframe_stub_run (const struct sframe_stub_config *,
					    void (*fn) (void *),
					    void *closure);

/* Install in the calling thread, after setting PR_SET_NO_NEW_PRIVS, a
   seccomp filter that gives ACTION (a SECCOMP_RET_* value) to the
   SFrame registration system calls and, if MARKER, to prctl with
   SFRAME_STUB_MARKER; every other
   call is allowed.  FLAGS are those of SECCOMP_SET_MODE_FILTER.  Return
   what seccomp returns (the listener with
   SECCOMP_FILTER_FLAG_NEW_LISTENER), or -1 with errno set.  */
int sframe_stub_filter (unsigned int action, bool marker, unsigned int flags);

/* Free a result.  */
void sframe_stub_free (struct sframe_stub_result *);

/* Print every call of RESULT to standard output, then record a test
   failure for each call with a problem and for a child that did not
   exit with status 0.  */
void sframe_stub_check (const struct sframe_stub_result *result);

/* Number of calls of KIND whose object's file name (without directory)
   equals NAME; all calls of KIND if NAME is NULL.  */
size_t sframe_stub_count (const struct sframe_stub_result *,
			  enum sframe_stub_kind kind, const char *name);

/* Return true if a registration for the object NAME (file name without
   directory) was still in place when the child ended.  */
bool sframe_stub_live (const struct sframe_stub_result *, const char *name);

/* Return the value answered to the marker ID; the test fails if the
   child did not make exactly one such marker call.  */
long int sframe_stub_marker_value (const struct sframe_stub_result *,
				   unsigned long int id);

/* Return true if the ELF file PATH has a PT_GNU_SFRAME segment, and
   store its program header in *SFRAME unless SFRAME is NULL.  */
bool sframe_stub_file_sframe (const char *path, ElfW(Phdr) *sframe);

__END_DECLS

#endif /* SUPPORT_SFRAME_STUB_H */
