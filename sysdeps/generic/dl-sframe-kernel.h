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

/* Nonzero if the kernel may offer SFrame registration at all.  A
   system that does defines DL_SFRAME_KERNEL to 1, the structure
   struct dl_sframe_setup the kernel takes, and the functions

     int dl_sframe_kernel_add (uintptr_t sframe_start, uintptr_t sframe_end,
			       uintptr_t text_start, uintptr_t text_end);
     int dl_sframe_kernel_remove (uintptr_t sframe_start);

   which return 0 or a positive errno value (see elf/dl-sframe.c).  */
#define DL_SFRAME_KERNEL 0

#endif /* dl-sframe-kernel.h */
