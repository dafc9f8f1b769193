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

/* The dynamic linker registers SFrame data with prctl (PR_ADD_SFRAME)
   and withdraws it with prctl (PR_REMOVE_SFRAME).  Kernels that test
   machines run may lack both, so tests run the code under test in a
   child process whose prctl calls with these options are trapped by a
   seccomp filter (SECCOMP_RET_USER_NOTIF) and answered by the test
   process, which acts as the kernel: it records every call, checks it
   against the child's real mappings (/proc/PID/maps), the SFrame header
   in the child's memory and the program headers of the mapped file, and
   answers success or a chosen error.

   The child can also ask the stand-in, with sframe_stub_marker, whether
   an address lies in registered text at that moment; the question is
   recorded in order with the other calls.

   On a kernel that has the interface (PR_REMOVE_SFRAME of an address
   that was never registered answers ENOENT, not EINVAL), the stand-in
   still records and checks every call, but lets the kernel carry it
   out and answer it (SECCOMP_USER_NOTIF_FLAG_CONTINUE), so that the
   tests run against the real kernel; only the errors a test asks for
   in its configuration are still answered by the stand-in.  Set
   SFRAME_STUB_NO_FORWARD in the environment to answer everything.  */

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
    sframe_stub_add,		/* PR_ADD_SFRAME.  */
    sframe_stub_remove,		/* PR_REMOVE_SFRAME.  */
    sframe_stub_marker_call,	/* sframe_stub_marker.  */
  };

/* One trapped call, in the order the child made them.  */
struct sframe_stub_call
{
  enum sframe_stub_kind kind;
  unsigned long int args[4];	/* prctl arguments after the option.  */
  int error;			/* Errno answered; 0 for success.  */
  long int value;		/* Marker: the value answered.  */
  /* Add: the file mapped at the text start.  Remove: the file of the
     registration.  Marker: NULL.  NULL also if no file is mapped.  */
  char *object;
  /* NULL if the call is what a kernel expects, else what is wrong.  */
  char *problem;
  /* True if the kernel carried the call out and answered it; ERROR is
     then the stand-in's own verdict, not the answer.  */
  bool forwarded;
};

/* How the stand-in answers.  Zero-initialize for a kernel that accepts
   every valid request.  */
struct sframe_stub_config
{
  /* If nonzero, answer every add and remove with this error and do
     nothing else, like a kernel without the interface (EINVAL).  */
  int no_support_errno;
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

/* Run FN (CLOSURE) in a child process whose SFrame prctl calls go to a
   stand-in configured by CONFIG (NULL for the defaults), until the child
   and all its descendants under the filter are gone.  FN usually execs
   a program; if it returns, the child exits with status 0.  Exits with
   FAIL_UNSUPPORTED if the kernel lacks seccomp user notification.  */
struct sframe_stub_result *sframe_stub_run (const struct sframe_stub_config *,
					    void (*fn) (void *),
					    void *closure);

/* Free a result.  */
void sframe_stub_free (struct sframe_stub_result *);

/* Print every call of RESULT to standard output, then record a test
   failure for each call with a problem, and for a child that did not
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
