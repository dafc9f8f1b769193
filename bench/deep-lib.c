/* One of the three objects of make bench's deep workload (main is
   tests/kernel/sframe-unwind.c built with SFRAME_DEEP): DEEP_SELF
   calls DEEP_NEXT in the next object, round robin, until the depth is
   used up, and the last object's deep_leaf does the work.  Built with
   -DDEEP_SELF=deep_a -DDEEP_NEXT=deep_b and so on.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

unsigned long DEEP_NEXT (unsigned long n);
unsigned long deep_leaf (void);

volatile unsigned long deep_sink;

#ifdef DEEP_LEAF
__attribute__ ((noinline)) unsigned long
deep_leaf (void)
{
  unsigned long x = deep_sink;
  for (unsigned long i = 0; i < 4096; i++)
    x = x * 6364136223846793005UL + i;
  deep_sink = x;
  return x;
}
#endif

__attribute__ ((noinline)) unsigned long
DEEP_SELF (unsigned long n)
{
  /* Not tail calls: every level stays on the stack.  */
  unsigned long r = n ? DEEP_NEXT (n - 1) : deep_leaf ();
  deep_sink = r;
  return r + 1;
}
