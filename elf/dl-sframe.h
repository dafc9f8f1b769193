/* Internal interface for SFrame registration with the kernel.
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

#ifndef _DL_SFRAME_H
#define _DL_SFRAME_H 1

#include <link.h>

/* Tell the kernel where the SFrame stack trace data of the freshly
   mapped object L and its executable text are, so that the kernel can
   unwind user stacks through L (for example for perf's deferred user
   callchains).  Call once L's segments are mapped and L->l_phdr is set,
   before any of L's code can run (relocation runs IFUNC resolvers).
   Where the kernel takes batches, L only joins the batch of objects
   that _dl_sframe_register_pending registers.  Best effort: never
   fails, prints only under LD_DEBUG=files.  */
void _dl_sframe_register (struct link_map *l) attribute_hidden;

/* Register the objects _dl_sframe_register has left pending, if any,
   with one system call per batch the kernel takes.  Call before any of
   them is relocated.  */
void _dl_sframe_register_pending (void) attribute_hidden;

/* GLRO(dl_sframe_setup_size) when the auxiliary vector has no
   AT_SFRAME_SETUP_SIZE (no kernel announces a size this large).  */
#define DL_SFRAME_NOT_ANNOUNCED ((size_t) -1)

/* Withdraw what _dl_sframe_register registered for L, if anything.
   Call before L's segments are unmapped.  */
void _dl_sframe_unregister (struct link_map *l) attribute_hidden;

#endif /* dl-sframe.h */
