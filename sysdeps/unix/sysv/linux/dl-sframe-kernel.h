/* Kernel interface for SFrame registration.  Linux version.
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

#ifndef _DL_SFRAME_KERNEL_H
#define _DL_SFRAME_KERNEL_H 1

#include <stdint.h>
#include <sys/prctl.h>
#include <sysdep.h>
#include <dl-sframe-syscall.h>

/* The kernel takes a section and the text it describes in two ways:

   sframe_register (struct sframe_setup *, size) and
   sframe_unregister (struct sframe_setup *, size), the interface the
   upstream kernel is converging on, used when the system call numbers
   are known: from <arch-syscall.h> once glibc's system call lists have
   them, or else from <dl-sframe-syscall.h>, where an architecture gives
   the provisional numbers of the matching kernel series;

   prctl (PR_ADD_SFRAME, sframe_start, sframe_end, text_start, text_end)
   and prctl (PR_REMOVE_SFRAME, sframe_start, 0, 0, 0), the interface
   the kernel series began with, used otherwise.

   Both enter the same code in the kernel and give the same answers.
   Whether the kernel has them at all is told by the auxiliary vector
   entry AT_SFRAME_SETUP_SIZE (see dl-sframe.c), not by these calls.  */

/* The structure both system calls take.  Its size is its version: the
   kernel announces the largest size it knows in AT_SFRAME_SETUP_SIZE
   and answers EINVAL for a size it does not know.  */
struct dl_sframe_setup
{
  uint64_t sframe_start;
  uint64_t sframe_size;
  uint64_t text_start;
  uint64_t text_size;
};

#define DL_SFRAME_KERNEL 1

/* FALLBACK: kernel headers that predate the interface do not define
   the prctl options; then use the numbers of the matching kernel series
   (include/uapi/linux/prctl.h there).  They are provisional until the
   upstream kernel settles the interface: this is the only place in
   glibc that names them.  */
#ifndef PR_ADD_SFRAME
# define PR_ADD_SFRAME		82
# define PR_REMOVE_SFRAME	83
#endif

/* How the kernel is asked, for messages and tests.  */
#ifdef __NR_sframe_register
# define DL_SFRAME_TRANSPORT "sframe_register"
#else
# define DL_SFRAME_TRANSPORT "prctl"
#endif

/* Register the SFrame section [SFRAME_START, SFRAME_END) for the text
   [TEXT_START, TEXT_END).  Return 0 on success or a positive errno
   value.  */
static inline int
dl_sframe_kernel_add (uintptr_t sframe_start, uintptr_t sframe_end,
		      uintptr_t text_start, uintptr_t text_end)
{
#ifdef __NR_sframe_register
  struct dl_sframe_setup setup =
    {
      .sframe_start = sframe_start,
      .sframe_size = sframe_end - sframe_start,
      .text_start = text_start,
      .text_size = text_end - text_start,
    };
  long int r = INTERNAL_SYSCALL_CALL (sframe_register, &setup,
				      sizeof (setup));
#else
  long int r = INTERNAL_SYSCALL_CALL (prctl, PR_ADD_SFRAME, sframe_start,
				      sframe_end, text_start, text_end);
#endif
  return INTERNAL_SYSCALL_ERROR_P (r) ? INTERNAL_SYSCALL_ERRNO (r) : 0;
}

/* Withdraw the SFrame section that starts at SFRAME_START.  Return 0 on
   success or a positive errno value (ENOENT: not registered).  */
static inline int
dl_sframe_kernel_remove (uintptr_t sframe_start)
{
#ifdef __NR_sframe_unregister
  struct dl_sframe_setup setup = { .sframe_start = sframe_start };
  long int r = INTERNAL_SYSCALL_CALL (sframe_unregister, &setup,
				      sizeof (setup));
#else
  long int r = INTERNAL_SYSCALL_CALL (prctl, PR_REMOVE_SFRAME, sframe_start,
				      0, 0, 0);
#endif
  return INTERNAL_SYSCALL_ERROR_P (r) ? INTERNAL_SYSCALL_ERRNO (r) : 0;
}

#endif /* dl-sframe-kernel.h */
