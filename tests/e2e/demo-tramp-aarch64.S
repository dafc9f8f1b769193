/* libdemo-tramp.so: a call trampoline like libffi's ffi_call, built
   with neither SFrame data nor frame pointers; its CFI is in .eh_frame
   only, so that DWARF unwinds it and nothing else does.

   unsigned long demo_tramp_call (demo_callback fn, unsigned long arg):
   return FN (ARG).  Like ffi_call_SYSV, it keeps in x29 a pointer to a
   block of its own data, not a frame record: a frame-pointer walk would
   take the block's words (stack addresses here) for the caller's frame
   pointer and return address.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

	.text
	.globl	demo_tramp_call
	.type	demo_tramp_call, %function
	.p2align 2
demo_tramp_call:
	.cfi_startproc
	stp	x29, x30, [sp, -48]!
	.cfi_def_cfa_offset 48
	.cfi_offset 29, -48
	.cfi_offset 30, -40
	add	x29, sp, 16
	add	x9, sp, 32
	stp	x9, x9, [x29]
	mov	x9, x0
	mov	x0, x1
	blr	x9
	ldp	x29, x30, [sp], 48
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	demo_tramp_call, .-demo_tramp_call

	.section .note.GNU-stack, "", %progbits
