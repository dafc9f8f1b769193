/* libdemo-tramp.so: a call trampoline like libffi's ffi_call, built
   with neither SFrame data nor frame pointers; its CFI is in .eh_frame
   only, so that DWARF unwinds it and nothing else does.

   unsigned long demo_tramp_call (demo_callback fn, unsigned long arg):
   return FN (ARG).  Like ffi_call_unix64, it keeps in %rbp a pointer to
   a block of its own data: a frame-pointer walk would take the block's
   words (stack addresses here) for the caller's frame pointer and
   return address.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

	.text
	.globl	demo_tramp_call
	.type	demo_tramp_call, @function
demo_tramp_call:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	subq	$32, %rsp
	.cfi_def_cfa_offset 48
	movq	%rsp, %rbp
	leaq	16(%rsp), %rax
	movq	%rax, 0(%rbp)
	movq	%rax, 8(%rbp)
	movq	%rdi, %rax
	movq	%rsi, %rdi
	call	*%rax
	addq	$32, %rsp
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	demo_tramp_call, .-demo_tramp_call

	.section .note.GNU-stack, "", @progbits
