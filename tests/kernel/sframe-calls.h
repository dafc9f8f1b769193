/* The entries into the kernel's SFrame registry, for the tests: the
   system calls sframe_register and sframe_unregister (struct
   sframe_setup, sizes) and sframe_register_batch (an array of them).
   All take a registration as [start, end) ranges here and return 0 or
   the errno.

   The toolchain root's kernel headers predate the interface: the
   definitions below stand in for <linux/sframe.h>, the system call
   numbers, AT_SFRAME_SETUP_SIZE and AT_SFRAME_BATCH_MAX where they
   lack them.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#ifndef SFRAME_CALLS_H
#define SFRAME_CALLS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined __has_include
# if __has_include (<linux/sframe.h>)
#  include <linux/sframe.h>
# endif
#endif
#ifndef SFRAME_SETUP_SIZE_VER0
struct sframe_setup
{
  uint64_t sframe_start;
  uint64_t sframe_size;
  uint64_t text_start;
  uint64_t text_size;
};
# define SFRAME_SETUP_SIZE_VER0 32
#endif
_Static_assert (sizeof (struct sframe_setup) == SFRAME_SETUP_SIZE_VER0,
		"struct sframe_setup is 32 bytes");

#ifndef SFRAME_BATCH_MAX
# define SFRAME_BATCH_MAX 1024
#endif

/* Provisional numbers, the same in the x86-64 and the generic table.  */
#ifndef __NR_sframe_register
# define __NR_sframe_register 472
# define __NR_sframe_unregister 473
#endif
#ifndef __NR_sframe_register_batch
# define __NR_sframe_register_batch 474
#endif
#ifndef AT_SFRAME_SETUP_SIZE
# define AT_SFRAME_SETUP_SIZE 52
#endif
#ifndef AT_SFRAME_BATCH_MAX
# define AT_SFRAME_BATCH_MAX 53
#endif

/* The system call with one structure, and the batch.  */
enum sframe_entry { SFRAME_SYSCALL, SFRAME_BATCH, SFRAME_ENTRIES };

/* The system calls with any structure and size: 0 or the errno.  */
static inline int
sframe_register_raw (const void *setup, size_t size)
{
  return syscall (__NR_sframe_register, setup, size) == 0 ? 0 : errno;
}

static inline int
sframe_unregister_raw (const void *setup, size_t size)
{
  return syscall (__NR_sframe_unregister, setup, size) == 0 ? 0 : errno;
}

/* sframe_register_batch of SETUPS[0, N): the number registered (N if
   all were), or the negated errno of the first.  */
static inline long int
sframe_register_batch (const struct sframe_setup *setups, unsigned int n)
{
  long int r = syscall (__NR_sframe_register_batch, setups, n,
			SFRAME_SETUP_SIZE_VER0);
  return r < 0 ? -errno : r;
}

/* Register section [SS, SE) for text [TS, TE) through ENTRY.  The system
   call gets the sizes SE - SS and TE - TS: an inverted range becomes one
   that wraps, which it refuses.
   SFRAME_BATCH passes a batch of the registration and the same again,
   which the kernel must refuse (EEXIST) after registering the first:
   the answer is the first's, and an answer a batch of two cannot give
   (both registered) is ENOTRECOVERABLE.  */
static inline int
sframe_add_via (enum sframe_entry entry, uintptr_t ss, uintptr_t se,
		uintptr_t ts, uintptr_t te)
{
  struct sframe_setup s = { ss, se - ss, ts, te - ts };
  if (entry == SFRAME_SYSCALL)
    return sframe_register_raw (&s, sizeof s);
  struct sframe_setup twice[2] = { s, s };
  long int r = sframe_register_batch (twice, 2);
  return r == 1 ? 0 : r < 0 ? (int) -r : ENOTRECOVERABLE;
}

/* Withdraw the section registered at SS: one system call, whatever
   registered it.  */
static inline int
sframe_remove (uintptr_t ss)
{
  struct sframe_setup s = { .sframe_start = ss };
  return sframe_unregister_raw (&s, sizeof s);
}

#endif
