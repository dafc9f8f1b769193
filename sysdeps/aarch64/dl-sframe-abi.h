/* SFrame ABI identifier of AArch64.
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

#ifndef _DL_SFRAME_ABI_H
#define _DL_SFRAME_ABI_H 1

#include <sframe.h>

/* The sfh_abi_arch value of SFrame data this architecture can use.  */
#ifdef __ILP32__
# define DL_SFRAME_ABI 0
#elif defined __AARCH64EB__
# define DL_SFRAME_ABI SFRAME_ABI_AARCH64_ENDIAN_BIG
#else
# define DL_SFRAME_ABI SFRAME_ABI_AARCH64_ENDIAN_LITTLE
#endif

#endif /* dl-sframe-abi.h */
