/* A library of the stress test, compiled once per copy with
   -DSTRESS_LIB=N into libsframe-stress-N.so: a hot loop two calls deep,
   built without frame pointers and with SFrame data.  Its functions
   carry N in their names, and the middle one's frame is N words larger
   than copy 0's, so that a copy unwound with another copy's rows (stale
   data for text now mapped at the same address) gives return addresses
   from the wrong stack slots: frames outside the mapped objects or in
   another copy's functions.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define PASTE2(a, b) a##b
#define PASTE(a, b) PASTE2 (a, b)
#define LEAF PASTE (stress_leaf_, STRESS_LIB)
#define MID PASTE (stress_mid_, STRESS_LIB)

volatile unsigned long stress_sink;

__attribute__ ((noinline)) static unsigned long
LEAF (unsigned long n)
{
  unsigned long x = n;
  for (unsigned long i = 0; i < 1024; i++)
    x = x * 6364136223846793005UL + i;
  stress_sink = x;
  return x;
}

__attribute__ ((noinline)) static unsigned long
MID (unsigned long n)
{
  /* Stack space that differs from copy to copy.  */
  volatile unsigned long pad[2 * STRESS_LIB + 1];
  unsigned long s = 0;
  pad[0] = n;
  for (unsigned long i = 0; i < n; i++)
    s += LEAF (i) + pad[i % (2 * STRESS_LIB + 1)];
  /* Not a tail call: keep MID on the stack.  */
  stress_sink = s;
  return s + 1;
}

/* The entry point the test finds with dlsym.  */
unsigned long
stress_work (unsigned long n)
{
  unsigned long r = MID (n);
  stress_sink = r;
  return r + 1;
}
