/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface between the SFrame section registry (sframe.c) and
 * the SFrame format reader (sframe_read.c).
 */
#ifndef _KERNEL_UNWIND_SFRAME_H
#define _KERNEL_UNWIND_SFRAME_H

#include <linux/types.h>

struct unwind_user_frame;

/*
 * A section: where it is, and what its header says.  The unwinder reads
 * the header into its own copy at each lookup (sframe_unwind_rule()); a
 * registered entry needs only what the registrant gave.
 */
struct sframe_section {
	/* Given by the registrant. */
	unsigned long	sframe_start;
	unsigned long	sframe_end;
	unsigned long	text_start;
	unsigned long	text_end;
	/* Read from the header by sframe_read_header(). */
	unsigned long	fdes_start;
	unsigned long	fres_start;
	unsigned long	fres_end;
	u32		num_fdes;
	/*
	 * In a registered entry (sframe_mm.h), what the unwinder found the
	 * header to be: 0 until it reads it, then the version, or
	 * SFRAME_HEADER_REFUSED; read and written with READ_ONCE() and
	 * WRITE_ONCE().
	 */
	u8		version;
	u8		flags;
	s8		ra_off;		/* RA at CFA + ra_off; 0: in the FRE */
	s8		fp_off;		/* FP at CFA + fp_off; 0: in the FRE */
};

/* A registered section's version when its header is not one to read. */
#define SFRAME_HEADER_REFUSED	0xff

/* sframe_read_rule() result: this is the outermost frame, stop. */
#define SFRAME_OUTERMOST	1

/*
 * The most frame row entries one unwind may scan over all its frames:
 * one function with the most rows the format allows.
 */
#define SFRAME_UNWIND_MAX_ROWS	0x10000

int sframe_read_header(struct sframe_section *sec, u8 abi);
int sframe_parse_header(struct sframe_section *sec, const void *hdr, u8 abi);
int sframe_read_rule(const struct sframe_section *sec, unsigned long ip,
		     struct unwind_user_frame *frame, unsigned int *rows);

#endif /* _KERNEL_UNWIND_SFRAME_H */
