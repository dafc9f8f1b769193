// SPDX-License-Identifier: GPL-2.0
/*
 * The registers a signal interrupted, for the arm64 user unwinder: the
 * context the kernel saved in the signal frame.
 */
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>
#include <asm/ucontext.h>
#include <asm/unistd.h>

/*
 * The frame the kernel writes at the SP a handler starts with (see
 * signal.c); the handler returns to the trampoline with that SP.
 */
struct unwind_user_rt_sigframe {
	struct siginfo info;
	struct ucontext uc;
};

/*
 * The vDSO's __kernel_rt_sigreturn, or a restorer given with SA_RESTORER
 * that does the same: "mov x8, #__NR_rt_sigreturn; svc #0".
 */
#define UNWIND_USER_SIGRETURN_MOV	(0xd2800008 | (__NR_rt_sigreturn << 5))
#define UNWIND_USER_SIGRETURN_SVC	0xd4000001

int unwind_user_sigcontext(unsigned long ra, unsigned long sp,
			   unsigned long *sc)
{
	__le32 insn[2];

	if (copy_from_user(insn, (const void __user *)ra, sizeof(insn)))
		return -ENOENT;
	if (le32_to_cpu(insn[0]) != UNWIND_USER_SIGRETURN_MOV ||
	    le32_to_cpu(insn[1]) != UNWIND_USER_SIGRETURN_SVC)
		return -ENOENT;
	*sc = sp + offsetof(struct unwind_user_rt_sigframe, uc.uc_mcontext);
	return 0;
}

int unwind_user_sigcontext_reg(unsigned long sc, unsigned int reg,
			       unsigned long *val)
{
	size_t off;

	if (reg < 31)
		off = offsetof(struct sigcontext, regs) + reg * sizeof(u64);
	else if (reg == UNWIND_USER_DWARF_SP)
		off = offsetof(struct sigcontext, sp);
	else if (reg == UNWIND_USER_DWARF_PC)
		off = offsetof(struct sigcontext, pc);
	else
		return -EINVAL;
	if (get_user(*val, (unsigned long __user *)(sc + off)))
		return -EFAULT;
	return 0;
}
