/* The user-space side of the kernel's SFrame reader build (shim/): the
   window of "user memory" and the per-architecture constants.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"
#include <linux/uaccess.h>

unsigned int shim_dwarf_sp, shim_dwarf_fp;
int shim_signed_ra;

static unsigned long window_base;
static const unsigned char *window_bytes;
static unsigned long window_len;
static bool access_open;
/* Reads made in the window of user access now open.  The reader bounds
   the rows it scans in one window (a few hundred, each two reads, plus
   the binary search and the decode); a window that reads more than
   this keeps user access open for a whole function's rows: a finding.  */
static unsigned long window_reads;
#define WINDOW_READS_MAX 1024

void
shim_set_arch (enum shim_arch arch)
{
  /* The DWARF numbers of the stack and frame pointers, and whether the
     architecture strips signed return addresses (as the kernel's
     asm/unwind_user.h of each says).  */
  if (arch == SHIM_AARCH64)
    {
      shim_dwarf_sp = 31;
      shim_dwarf_fp = 29;
      shim_signed_ra = 1;
    }
  else
    {
      shim_dwarf_sp = 7;
      shim_dwarf_fp = 6;
      shim_signed_ra = 0;
    }
}

void
shim_set_window (unsigned long base, const void *bytes, unsigned long len)
{
  window_base = base;
  window_bytes = bytes;
  window_len = len;
}

unsigned long
copy_from_user (void *to, const void *from, unsigned long n)
{
  unsigned long addr = (unsigned long) from;

  if (addr < window_base || addr - window_base > window_len
      || n > window_len - (addr - window_base))
    {
      fprintf (stderr, "shim: read of %lu bytes at %#lx, outside the"
	       " section [%#lx, %#lx)\n", n, addr, window_base,
	       window_base + window_len);
      abort ();
    }
  memcpy (to, window_bytes + (addr - window_base), n);
  return 0;
}

bool
user_read_access_begin (const void __user *from, unsigned long n)
{
  if ((unsigned long) from != window_base || n != window_len)
    {
      fprintf (stderr, "shim: user access opened for [%#lx, +%lu), not"
	       " the section [%#lx, +%lu)\n", (unsigned long) from, n,
	       window_base, window_len);
      abort ();
    }
  if (access_open)
    {
      fprintf (stderr, "shim: user access opened twice\n");
      abort ();
    }
  access_open = true;
  window_reads = 0;
  return true;
}

void
user_read_access_end (void)
{
  if (!access_open)
    {
      fprintf (stderr, "shim: user access closed but not open\n");
      abort ();
    }
  access_open = false;
}

int
shim_get_user (void *to, const void __user *from, unsigned long n)
{
  if (!access_open)
    {
      fprintf (stderr, "shim: unsafe_get_user at %#lx without user"
	       " access open\n", (unsigned long) from);
      abort ();
    }
  if (++window_reads > WINDOW_READS_MAX)
    {
      fprintf (stderr, "shim: more than %d reads with user access open"
	       " once\n", WINDOW_READS_MAX);
      abort ();
    }
  return copy_from_user (to, from, n) != 0;
}
