/* Kernel interface for SFrame registration.  Generic version.
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

#include <errno.h>
#include <stdint.h>

/* Nonzero if the kernel may offer SFrame registration at all.  */
#define DL_SFRAME_KERNEL 0

/* How the kernel is asked, for messages and tests.  */
#define DL_SFRAME_TRANSPORT "none"

/* Register the SFrame section [SFRAME_START, SFRAME_END) for the text
   [TEXT_START, TEXT_END).  Return 0 on success or a positive errno value.  */
static inline int
dl_sframe_kernel_add (uintptr_t sframe_start, uintptr_t sframe_end,
		      uintptr_t text_start, uintptr_t text_end)
{
  return ENOSYS;
}

/* Withdraw the SFrame section that starts at SFRAME_START.  Return 0 on
   success or a positive errno value.  */
static inline int
dl_sframe_kernel_remove (uintptr_t sframe_start)
{
  return ENOSYS;
}

#endif /* dl-sframe-kernel.h */
