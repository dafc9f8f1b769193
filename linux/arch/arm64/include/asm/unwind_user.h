/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_UNWIND_USER_H
#define _ASM_ARM64_UNWIND_USER_H

#ifdef CONFIG_UNWIND_USER

#include <asm/compiler.h>
#include <asm/ptrace.h>

/*
 * AArch32 (compat) tasks are not unwound here: their frame layout depends
 * on the compiler and its options, and guessing it was rejected.  They
 * keep the callchain perf takes at the time of the event.
 */
static inline int unwind_user_word_size(struct pt_regs *regs)
{
	return compat_user_mode(regs) ? 0 : 8;
}

/*
 * DWARF numbers of the registers the unwinder asks for.  A topmost frame
 * may not have saved its return address (x30, the LR).
 */
#define UNWIND_USER_DWARF_FP		29
#define UNWIND_USER_DWARF_LR		30
#define UNWIND_USER_DWARF_SP		31
#define UNWIND_USER_DWARF_PC		32

/* At a function's first instruction: the return address in the LR. */
#define ARCH_INIT_USER_ENTRY_FRAME(ws)			\
	.cfa_off	= 0*(ws),			\
	.ra_off		= 0,				\
	.fp_off		= 0,				\
	.use_fp		= false,

static inline int unwind_user_pt_reg(struct pt_regs *regs, unsigned int reg,
				     unsigned long *val)
{
	if (reg < 31)
		*val = regs->regs[reg];
	else if (reg == UNWIND_USER_DWARF_SP)
		*val = regs->sp;
	else if (reg == UNWIND_USER_DWARF_PC)
		*val = regs->pc;
	else
		return -EINVAL;
	return 0;
}
#define unwind_user_pt_reg unwind_user_pt_reg

int unwind_user_sigcontext(unsigned long ra, unsigned long sp,
			   unsigned long *sc);
int unwind_user_sigcontext_reg(unsigned long sc, unsigned int reg,
			       unsigned long *val);
#define unwind_user_sigcontext unwind_user_sigcontext

/* Return addresses signed with pointer authentication: strip the PAC. */
#define UNWIND_USER_SIGNED_RA		1
#define unwind_user_strip_ra(ra)	ptrauth_strip_user_insn_pac(ra)

#endif /* CONFIG_UNWIND_USER */

#ifdef CONFIG_HAVE_UNWIND_USER_FP

/*
 * A frame record: x29 points at the caller's x29, followed by the LR.
 * The record is usually at the bottom of its frame, so the caller's SP is
 * not known from it.  A topmost function that has not set up its record
 * yet is not seen, and its caller is skipped.
 */
#define ARCH_INIT_USER_FP_FRAME(ws)			\
	.cfa_off	=  2*(ws),			\
	.ra_off		= -1*(ws),			\
	.fp_off		= -2*(ws),			\
	.use_fp		= true,				\
	.sp_unknown	= true,

#endif /* CONFIG_HAVE_UNWIND_USER_FP */

#ifdef CONFIG_HAVE_UNWIND_USER_SFRAME

/* The SFrame ABI of this byte order. */
#ifdef CONFIG_CPU_BIG_ENDIAN
#define UNWIND_USER_SFRAME_ABI		SFRAME_ABI_AARCH64_ENDIAN_BIG
#else
#define UNWIND_USER_SFRAME_ABI		SFRAME_ABI_AARCH64_ENDIAN_LITTLE
#endif

#endif /* CONFIG_HAVE_UNWIND_USER_SFRAME */

#endif /* _ASM_ARM64_UNWIND_USER_H */
