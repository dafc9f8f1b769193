/* The entry point of make bench's work-fp-whole: tests/kernel/
   sframe-unwind.c's main with frame pointers all the way up.  crt1's
   _start calls main through libc's __libc_start_main, which Debian
   builds without frame pointers, so that a frame-pointer walk through it
   reads whatever its frame pointer register holds.  This _start clears
   the frame pointer and calls main itself: every frame of the chain has
   a frame pointer, and the outermost one is 0, where every unwinder
   stops.  No crt1, crti or crtn is linked (-nostartfiles): the program
   needs nothing of them (its libraries are set up by the dynamic linker,
   and it has no constructors of its own).

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

	.text
	.globl	_start
	.type	_start, @function
_start:
	xorl	%ebp, %ebp
	movq	(%rsp), %rdi		/* argc */
	leaq	8(%rsp), %rsi		/* argv */
	andq	$-16, %rsp
	call	main
	movl	%eax, %edi
	call	exit@PLT
	hlt
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits
