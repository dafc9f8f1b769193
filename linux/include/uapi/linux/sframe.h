/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * SFrame user-space unwinding: the argument of the sframe_register() and
 * sframe_unregister() system calls.
 *
 * See Documentation/userspace-api/sframe.rst.
 */
#ifndef _UAPI_LINUX_SFRAME_H
#define _UAPI_LINUX_SFRAME_H

#include <linux/types.h>

/**
 * struct sframe_setup - an SFrame section and the text it describes
 * @sframe_start: address of the section (the object's PT_GNU_SFRAME
 *	segment, as mapped)
 * @sframe_size: size of the section in bytes
 * @text_start: address of the text the section describes
 * @text_size: size of that text in bytes
 * @next: address of the next structure of a chain to register in the
 *	same call, of the same size, or 0 (SFRAME_SETUP_SIZE_VER1)
 *
 * sframe_unregister() uses @sframe_start only; the other fields must be 0.
 * Clear the whole structure before filling it in: with
 * SFRAME_SETUP_SIZE_VER1, sframe_register() follows a @next that is not 0.
 *
 * The size argument of both calls is the size of the structure the caller
 * passes, and versions it: the kernel takes only the sizes it knows, the
 * SFRAME_SETUP_SIZE_VER* below.  Fields are only ever appended.
 */
struct sframe_setup {
	__u64 sframe_start;
	__u64 sframe_size;
	__u64 text_start;
	__u64 text_size;
	__u64 next;
};

#define SFRAME_SETUP_SIZE_VER0	32	/* the four fields up to text_size */
#define SFRAME_SETUP_SIZE_VER1	40	/* and next */

#endif /* _UAPI_LINUX_SFRAME_H */
