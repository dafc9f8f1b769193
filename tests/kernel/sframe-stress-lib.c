/* A library of the stress test, compiled once per copy with
   -DSTRESS_LIB=N into libsframe-stress-N.so: a hot loop two calls deep,
   built without frame pointers and with SFrame data.  Its functions
   carry N in their names, so that a frame symbolized in copy N but
   named after another copy shows a chain unwound with stale data.

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
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += LEAF (i);
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
