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

/* sframe_stub_run runs test code in a child process where a seccomp
   filter turns the SFrame registration calls into SIGSYS: a signal
   handler, standing in for the kernel, records each call, checks it
   against the mappings and the file's program headers, and answers it.
   Nothing traces the process.  The handler allocates nothing and runs
   with the child's own thread pointer, so that the child may also start
   a dynamic linker as the kernel starts a program, whose libc.so.6 has
   its own thread pointer and heap (tst-sframe-startup).  A prctl with
   the option SFRAME_STUB_MARKER asks whether an address lies in
   registered text (the tests' marker).  */

#include <link.h>
#include <stdbool.h>
#include <stddef.h>

__BEGIN_DECLS

/* The prctl option of the marker ("SFST").  */
#define SFRAME_STUB_MARKER 0x53465354

enum sframe_stub_kind
  {
    sframe_stub_add,		/* One structure of sframe_register(_batch).  */
    sframe_stub_remove,		/* sframe_unregister.  */
    sframe_stub_marker_call,	/* The marker.  */
  };

/* One trapped call, in the order the child made them.  */
struct sframe_stub_call
{
  enum sframe_stub_kind kind;
  /* Add: the start and end of the section and of the text.  Remove:
     the section's start.  Marker: its ID and address.  */
  unsigned long int args[4];
  int error;			/* Errno answered; 0 for success.  */
  /* Marker: the answer.  The first add of a batch: the number of
     structures registered, if not ERROR.  */
  long int value;
  /* An add of sframe_register_batch: its place in the batch, from 1.  */
  unsigned int batch;
  /* Add: the child's own _r_debug.r_state (RT_CONSISTENT: the
     debugger has not heard of the load yet), not that of a dynamic
     linker the child started itself.  */
  int r_state;
  /* Add: the file mapped at the text; remove: the registration's.  */
  char object[256];
  char problem[512];		/* What is wrong with the call.  */
};

/* How the stand-in answers; zero-initialized, it accepts every valid
   request and no batch.  */
struct sframe_stub_config
{
  /* The AT_SFRAME_BATCH_MAX announced (0: ENOSYS for a batch).  */
  unsigned int batch_max;
  /* A policy's errno for every call, or for every batch.  */
  int no_support_errno;
  int batch_errno;
  /* Answer an add of the file REFUSE_OBJECT (name without directory)
     with REFUSE_ERRNO.  */
  const char *refuse_object;
  int refuse_errno;
};

#define SFRAME_STUB_MAX_CALLS 256

struct sframe_stub_result
{
  size_t ncalls;
  struct sframe_stub_call calls[SFRAME_STUB_MAX_CALLS];
  /* Objects of the registrations in place when the child ended.  */
  size_t nlive;
  char live[SFRAME_STUB_MAX_CALLS][256];
  int status;			/* Wait status of the child.  */
};

/* Run FN (CLOSURE) in a child process under the stand-in configured by
   CONFIG (NULL for the defaults); the child exits with status 0 if FN
   returns.  UNSUPPORTED without seccomp filters.  */
struct sframe_stub_result *sframe_stub_run (const struct sframe_stub_config *,
					    void (*fn) (void *),
					    void *closure);
void sframe_stub_free (struct sframe_stub_result *);

/* Install a seccomp filter (and PR_SET_NO_NEW_PRIVS) that gives ACTION
   to the registration calls and, if MARKER, to the marker.  */
int sframe_stub_filter (unsigned int action, bool marker);

/* True if the ELF file PATH has a PT_GNU_SFRAME segment.  */
bool sframe_stub_file_sframe (const char *path);

__END_DECLS

#endif /* SUPPORT_SFRAME_STUB_H */
