// SPDX-License-Identifier: GPL-2.0
/*
 * The registers the x86-64 user unwinder asks for, by DWARF number: from
 * a task's entry registers, on which a topmost frame's CFA may be based
 * (glibc's lazy-binding trampoline, _dl_runtime_resolve_xsave, has CFA =
 * %rbx + 32), or from the context a signal frame saved.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>
#include <asm/sigframe.h>
#include <asm/unistd.h>

/* DWARF register numbers 0-16 (rax ... r15, then the return address). */
#define UNWIND_USER_DWARF_REGS	17

static const u8 unwind_user_pt_off[UNWIND_USER_DWARF_REGS] = {
	offsetof(struct pt_regs, ax),  offsetof(struct pt_regs, dx),
	offsetof(struct pt_regs, cx),  offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, si),  offsetof(struct pt_regs, di),
	offsetof(struct pt_regs, bp),  offsetof(struct pt_regs, sp),
	offsetof(struct pt_regs, r8),  offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
	offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
	offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
	offsetof(struct pt_regs, ip),
};

static const u8 unwind_user_sc_off[UNWIND_USER_DWARF_REGS] = {
	offsetof(struct sigcontext_64, ax),  offsetof(struct sigcontext_64, dx),
	offsetof(struct sigcontext_64, cx),  offsetof(struct sigcontext_64, bx),
	offsetof(struct sigcontext_64, si),  offsetof(struct sigcontext_64, di),
	offsetof(struct sigcontext_64, bp),  offsetof(struct sigcontext_64, sp),
	offsetof(struct sigcontext_64, r8),  offsetof(struct sigcontext_64, r9),
	offsetof(struct sigcontext_64, r10), offsetof(struct sigcontext_64, r11),
	offsetof(struct sigcontext_64, r12), offsetof(struct sigcontext_64, r13),
	offsetof(struct sigcontext_64, r14), offsetof(struct sigcontext_64, r15),
	offsetof(struct sigcontext_64, ip),
};

int unwind_user_pt_reg(struct pt_regs *regs, unsigned int reg,
		       unsigned long *val)
{
	if (reg >= UNWIND_USER_DWARF_REGS)
		return -EINVAL;
	*val = *(unsigned long *)((void *)regs + unwind_user_pt_off[reg]);
	return 0;
}

/*
 * glibc's __restore_rt, the restorer every x86-64 signal handler returns
 * to (SA_RESTORER): "mov $__NR_rt_sigreturn, %rax; syscall".  Debuggers
 * recognize it by these bytes too.
 */
static const u8 unwind_user_restore_rt[] = {
	0x48, 0xc7, 0xc0, __NR_rt_sigreturn, 0x00, 0x00, 0x00,	/* mov */
	0x0f, 0x05,						/* syscall */
};

int unwind_user_sigcontext(unsigned long ra, unsigned long sp,
			   unsigned long *sc)
{
	u8 insn[sizeof(unwind_user_restore_rt)];

	if (copy_from_user(insn, (const void __user *)ra, sizeof(insn)))
		return -ENOENT;
	if (memcmp(insn, unwind_user_restore_rt, sizeof(insn)))
		return -ENOENT;
	/* The handler's return popped the frame's pretcode. */
	*sc = sp - sizeof(char __user *) +
	      offsetof(struct rt_sigframe, uc.uc_mcontext);
	return 0;
}

int unwind_user_sigcontext_reg(unsigned long sc, unsigned int reg,
			       unsigned long *val)
{
	if (reg >= UNWIND_USER_DWARF_REGS)
		return -EINVAL;
	if (get_user(*val, (unsigned long __user *)(sc + unwind_user_sc_off[reg])))
		return -EFAULT;
	return 0;
}
