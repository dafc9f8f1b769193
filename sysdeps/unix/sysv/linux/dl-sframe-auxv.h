/* The auxiliary vector entries that announce SFrame registration.  Linux.
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

#ifndef _DL_SFRAME_AUXV_H
#define _DL_SFRAME_AUXV_H 1

/* FALLBACK: the auxiliary vector entries in which the matching kernel
   series announces SFrame registration (its include/uapi/linux/auxvec.h).
   AT_SFRAME_SETUP_SIZE is the largest struct sframe_setup size the
   kernel takes, 0 if it cannot unwind the process with SFrame.
   AT_SFRAME_BATCH_MAX, the series' extension, is the most structures
   one sframe_register_batch call takes; 0 or no entry if that call must
   not be made.  The numbers are provisional until the upstream kernel
   assigns them, so they stay out of the installed <elf.h>; this is the
   only place in glibc that names them.  */
#ifndef AT_SFRAME_SETUP_SIZE
# define AT_SFRAME_SETUP_SIZE	52
#endif
#ifndef AT_SFRAME_BATCH_MAX
# define AT_SFRAME_BATCH_MAX	53
#endif

#endif /* dl-sframe-auxv.h */
