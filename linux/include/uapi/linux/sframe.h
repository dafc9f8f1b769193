/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * SFrame user-space unwinding: the argument of the sframe_register(),
 * sframe_unregister() and sframe_register_batch() system calls.
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
 *
 * sframe_unregister() uses @sframe_start only; the other fields must be 0.
 *
 * The size argument of the calls is the size of the structure the caller
 * passes (for sframe_register_batch(), of each structure of the array),
 * and versions it: the kernel takes only the sizes it knows, the
 * SFRAME_SETUP_SIZE_VER* below.  Fields are only ever appended.
 */
struct sframe_setup {
	__u64 sframe_start;
	__u64 sframe_size;
	__u64 text_start;
	__u64 text_size;
};

#define SFRAME_SETUP_SIZE_VER0	32	/* the four fields above */

/* The most structures one sframe_register_batch() call takes. */
#define SFRAME_BATCH_MAX	1024

#endif /* _UAPI_LINUX_SFRAME_H */
