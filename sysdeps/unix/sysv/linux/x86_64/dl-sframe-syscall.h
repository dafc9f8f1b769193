/* Provisional numbers of the SFrame registration system calls.  x86-64.
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

/* glibc's own numbers first (its system call lists): where they have
   the calls, this fallback steps aside.  */
#include <sysdep.h>

/* FALLBACK: glibc's system call lists and the kernel headers that
   predate the interface lack these; use the numbers of the matching
   kernel series (arch/x86/entry/syscalls/syscall_64.tbl), the first
   free ones after Linux 7.2.  They are provisional until the upstream
   kernel assigns numbers.  The kernel series gives them to 64-bit
   processes only: x32 has no numbers, so rtld asks nothing there.  */
#ifdef __LP64__
# define DL_SFRAME_NR_REGISTER	472
# define DL_SFRAME_NR_UNREGISTER	473
# define DL_SFRAME_NR_REGISTER_BATCH	474
# ifndef __NR_sframe_register
#  define __NR_sframe_register	DL_SFRAME_NR_REGISTER
#  define __NR_sframe_unregister	DL_SFRAME_NR_UNREGISTER
# elif __NR_sframe_register != DL_SFRAME_NR_REGISTER \
       || __NR_sframe_unregister != DL_SFRAME_NR_UNREGISTER
#  error "glibc's sframe_register numbers differ from this fallback's"
# endif
# ifndef __NR_sframe_register_batch
#  define __NR_sframe_register_batch	DL_SFRAME_NR_REGISTER_BATCH
# elif __NR_sframe_register_batch != DL_SFRAME_NR_REGISTER_BATCH
#  error "glibc's sframe_register_batch number differs from this fallback's"
# endif
#endif
