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

/* The prctl options come from the kernel headers glibc is built against.
   FALLBACK: kernel headers that predate the interface do not define
   them; then use the numbers of the matching kernel series, which
   defines them in include/uapi/linux/prctl.h.  They are provisional
   until the upstream kernel assigns numbers: this is the only place in
   glibc that names them.  */
#ifndef PR_ADD_SFRAME
# define PR_ADD_SFRAME		82
# define PR_REMOVE_SFRAME	83
#endif

#define DL_SFRAME_KERNEL 1

/* Register the SFrame section [SFRAME_START, SFRAME_END) for the text
   [TEXT_START, TEXT_END).  Return 0 on success or a positive errno value.
   A kernel without the interface answers EINVAL (unknown option).  */
static inline int
dl_sframe_kernel_add (uintptr_t sframe_start, uintptr_t sframe_end,
		      uintptr_t text_start, uintptr_t text_end)
{
  long int r = INTERNAL_SYSCALL_CALL (prctl, PR_ADD_SFRAME, sframe_start,
				      sframe_end, text_start, text_end);
  return INTERNAL_SYSCALL_ERROR_P (r) ? INTERNAL_SYSCALL_ERRNO (r) : 0;
}

/* Withdraw the SFrame section that starts at SFRAME_START.  Return 0 on
   success or a positive errno value (ENOENT: not registered).  */
static inline int
dl_sframe_kernel_remove (uintptr_t sframe_start)
{
  long int r = INTERNAL_SYSCALL_CALL (prctl, PR_REMOVE_SFRAME, sframe_start,
				      0, 0, 0);
  return INTERNAL_SYSCALL_ERROR_P (r) ? INTERNAL_SYSCALL_ERRNO (r) : 0;
}

#endif /* dl-sframe-kernel.h */
