/* Provisional numbers of the SFrame registration system calls.  AArch64.
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

/* FALLBACK: glibc's system call lists and the kernel headers that
   predate the interface lack these; use the numbers of the matching
   kernel series (scripts/syscall.tbl, the table AArch64 shares with
   other architectures), the first free ones after Linux 7.2.  They are
   provisional until the upstream kernel assigns numbers.  */
#ifndef __NR_sframe_register
# define __NR_sframe_register	472
# define __NR_sframe_unregister	473
# define __NR_sframe_register_batch	474
#endif
