/* Kernel interface for SFrame registration.  Linux version.
   Copyright The GNU Toolchain Authors.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

#ifndef _DL_SFRAME_KERNEL_H
#define _DL_SFRAME_KERNEL_H 1

/* <sysdep.h> first: it brings glibc's system call numbers, which the
   fallback in <dl-sframe-syscall.h> must see.  */
#include <sysdep.h>
#include <dl-sframe-auxv.h>
#include <dl-sframe-syscall.h>

#ifndef __NR_sframe_register
/* No system call numbers for this architecture: nothing is asked.  */
# define DL_SFRAME_KERNEL 0
#else

# include <errno.h>
# include <stddef.h>
# include <stdint.h>

/* The kernel takes a section and the text it describes with
   sframe_register (struct sframe_setup *, size) and
   sframe_unregister (struct sframe_setup *, size), the interface the
   upstream kernel is converging on.  Whether the kernel has them at all
   is told by AT_SFRAME_SETUP_SIZE (see elf/dl-sframe.c), never by a
   call.

   The matching kernel series also has sframe_register_batch (const
   struct sframe_setup *setups, unsigned int count, size_t size), which
   registers an array of structures in one call, and announces it with
   AT_SFRAME_BATCH_MAX, the largest COUNT it takes.  */

/* The structure the system calls take.  Its size is its version: the
   kernel announces the largest size it knows in AT_SFRAME_SETUP_SIZE
   and answers EINVAL for a size it does not know.  */
struct dl_sframe_setup
{
  uint64_t sframe_start;
  uint64_t sframe_size;
  uint64_t text_start;
  uint64_t text_size;
};

# define DL_SFRAME_KERNEL 1

/* The most structures one sframe_register_batch call takes, whatever
   AT_SFRAME_BATCH_MAX says (the kernel documents this bound); 0 where
   the call has no number, and rtld then makes one call per object.  */
# ifdef __NR_sframe_register_batch
#  define DL_SFRAME_BATCH_MAX 1024
# else
#  define DL_SFRAME_BATCH_MAX 0
# endif

/* Register the SFrame section [SFRAME_START, SFRAME_END) for the text
   [TEXT_START, TEXT_END).  Return 0 on success or a positive errno
   value.  */
static inline int
dl_sframe_kernel_add (uintptr_t sframe_start, uintptr_t sframe_end,
		      uintptr_t text_start, uintptr_t text_end)
{
  struct dl_sframe_setup setup =
    {
      .sframe_start = sframe_start,
      .sframe_size = sframe_end - sframe_start,
      .text_start = text_start,
      .text_size = text_end - text_start,
    };
  long int r = INTERNAL_SYSCALL_CALL (sframe_register, &setup,
				      sizeof (setup));
  return INTERNAL_SYSCALL_ERROR_P (r) ? INTERNAL_SYSCALL_ERRNO (r) : 0;
}

/* Register the COUNT structures at SETUPS (at most the kernel's
   AT_SFRAME_BATCH_MAX), in their order, up to the first one the kernel
   refuses.  Return the number registered, COUNT if all of them were;
   or, if the first was refused, its negated errno value.  */
static inline long int
dl_sframe_kernel_add_batch (const struct dl_sframe_setup *setups,
			    size_t count)
{
# ifdef __NR_sframe_register_batch
  long int r = INTERNAL_SYSCALL_CALL (sframe_register_batch, setups,
				      count, sizeof (*setups));
  return INTERNAL_SYSCALL_ERROR_P (r) ? -INTERNAL_SYSCALL_ERRNO (r) : r;
# else
  /* Never called: DL_SFRAME_BATCH_MAX is 0.  */
  return -ENOSYS;
# endif
}

/* Withdraw the SFrame section that starts at SFRAME_START.  Return 0 on
   success or a positive errno value (ENOENT: not registered).  */
static inline int
dl_sframe_kernel_remove (uintptr_t sframe_start)
{
  struct dl_sframe_setup setup = { .sframe_start = sframe_start };
  long int r = INTERNAL_SYSCALL_CALL (sframe_unregister, &setup,
				      sizeof (setup));
  return INTERNAL_SYSCALL_ERROR_P (r) ? INTERNAL_SYSCALL_ERRNO (r) : 0;
}

#endif /* __NR_sframe_register */

#endif /* dl-sframe-kernel.h */
