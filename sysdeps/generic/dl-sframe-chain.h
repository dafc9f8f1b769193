/* A chain of SFrame registrations, as the kernel takes it.
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

#ifndef _DL_SFRAME_CHAIN_H
#define _DL_SFRAME_CHAIN_H 1

#include <stdint.h>

/* The kernel's struct sframe_setup of version 1 (40 bytes): what to
   register, and the address of the next structure of a chain that one
   sframe_register call registers, or 0.  elf/dl-sframe.c builds a
   chain when it sends it.  */
struct dl_sframe_chain
{
  uint64_t sframe_start;
  uint64_t sframe_size;
  uint64_t text_start;
  uint64_t text_size;
  uint64_t next;
};

#endif /* dl-sframe-chain.h */
