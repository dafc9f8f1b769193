/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SFrame format, versions 2 and 3, as written by GNU binutils
 * (as --gsframe, ld): the on-disk layout the reader decodes.  All fields
 * are in the target's byte order and need not be aligned.
 */
#ifndef _KERNEL_UNWIND_SFRAME_FORMAT_H
#define _KERNEL_UNWIND_SFRAME_FORMAT_H

#include <linux/types.h>

#define SFRAME_MAGIC				0xdee2

#define SFRAME_VERSION_2			2
#define SFRAME_VERSION_3			3

/* Header flags. */
#define SFRAME_F_FDE_SORTED			0x1
#define SFRAME_F_FRAME_POINTER			0x2	/* v2 only */
#define SFRAME_F_FDE_FUNC_START_PCREL		0x4
#define SFRAME_V2_F_ALL				0x7
#define SFRAME_V3_F_ALL				0x5

/* ABI and byte order (sframe_header.abi_arch). */
#define SFRAME_ABI_AARCH64_ENDIAN_BIG		1
#define SFRAME_ABI_AARCH64_ENDIAN_LITTLE	2
#define SFRAME_ABI_AMD64_ENDIAN_LITTLE		3

struct sframe_header {
	u16	magic;
	u8	version;
	u8	flags;
	u8	abi_arch;
	s8	cfa_fixed_fp_offset;	/* 0: not fixed */
	s8	cfa_fixed_ra_offset;	/* 0: not fixed */
	u8	auxhdr_len;		/* auxiliary header after this one */
	u32	num_fdes;
	u32	num_fres;
	u32	fre_len;		/* bytes of FRE data */
	u32	fdes_off;		/* from the end of the headers */
	u32	fres_off;		/* from the end of the headers */
} __packed;

/*
 * v2 function descriptor entry.  The function's start is relative to the
 * start of the section, or to this field with SFRAME_F_FDE_FUNC_START_PCREL;
 * its FREs are at fre_off from the start of the FRE data.
 */
struct sframe_fde_v2 {
	s32	start;
	u32	size;
	u32	fre_off;
	u32	num_fres;
	u8	info;
	u8	rep_size;
	u16	padding;
} __packed;

/*
 * v3 function descriptor index entry: start (relative as in v2, but 64
 * bits), size, and the offset in the FRE data of the function's
 * attributes (struct sframe_fda_v3), which its FREs follow.
 */
struct sframe_fde_v3 {
	s64	start;
	u32	size;
	u32	fre_off;
} __packed;

struct sframe_fda_v3 {
	u16	num_fres;
	u8	info;
	u8	info2;
	u8	rep_size;
} __packed;

/* Function info byte (v2 FDE, v3 attributes). */
#define SFRAME_FUNC_FRE_TYPE(info)		((info) & 0xf)
#define SFRAME_FUNC_PC_MASK(info)		(((info) >> 4) & 0x1)
#define SFRAME_FUNC_SIGNAL(info)		(((info) >> 7) & 0x1) /* v3 */
#define SFRAME_FRE_TYPE_ADDR1			0
#define SFRAME_FRE_TYPE_ADDR2			1
#define SFRAME_FRE_TYPE_ADDR4			2

/* v3 function info2: FDE type. */
#define SFRAME_FUNC_FDE_TYPE(info2)		((info2) & 0x1f)
#define SFRAME_FDE_TYPE_DEFAULT			0
#define SFRAME_FDE_TYPE_FLEX			1

/*
 * Frame row entry: start address (1, 2 or 4 bytes, from the function's
 * start), info byte, then 'count' words of 1, 2 or 4 bytes.
 */
#define SFRAME_FRE_BASE_SP(info)		((info) & 0x1)
#define SFRAME_FRE_COUNT(info)			(((info) >> 1) & 0xf)
#define SFRAME_FRE_WORD_SIZE(info)		(((info) >> 5) & 0x3)
#define SFRAME_FRE_MANGLED_RA(info)		(((info) >> 7) & 0x1)

/*
 * Flexible FDE words come in (control, displacement) pairs for CFA, RA
 * and FP.  Control: bit 0 'register', bit 1 'dereference', bits 3 and up
 * a DWARF register number; 0 means 'not tracked'.
 */
#define SFRAME_FLEX_REG_P(ctl)			((ctl) & 0x1)
#define SFRAME_FLEX_DEREF_P(ctl)		(((ctl) >> 1) & 0x1)
#define SFRAME_FLEX_REGNUM(ctl)			((ctl) >> 3)

#endif /* _KERNEL_UNWIND_SFRAME_FORMAT_H */
