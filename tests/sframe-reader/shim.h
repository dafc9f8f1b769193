/* The kernel's SFrame reader in user space: its interface (the kernel's
   kernel/unwind/sframe.h) and the shim's controls.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#ifndef SHIM_H
#define SHIM_H

#include <linux/unwind_user.h>
#include "sframe.h"
#include "sframe_format.h"

enum shim_arch { SHIM_X86_64, SHIM_AARCH64 };

void shim_set_arch (enum shim_arch arch);
/* User memory is LEN bytes at BASE, read from BYTES.  */
void shim_set_window (unsigned long base, const void *bytes,
		      unsigned long len);

#endif
