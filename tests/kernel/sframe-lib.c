/* The shared library of the kernel tests: a hot loop two calls deep,
   built without frame pointers and with SFrame data.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

volatile unsigned long sframe_lib_sink;

__attribute__ ((noinline)) static unsigned long
lib_leaf (unsigned long n)
{
  unsigned long x = n;
  for (unsigned long i = 0; i < 4096; i++)
    x = x * 6364136223846793005UL + i;
  sframe_lib_sink = x;
  return x;
}

__attribute__ ((noinline)) unsigned long
sframe_lib_mid (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += lib_leaf (i);
  /* Not a tail call: keep sframe_lib_mid on the stack.  */
  sframe_lib_sink = s;
  return s + 1;
}

/* A frame realigned to 64 bytes and with a variable size: on x86-64 gcc
   keeps its CFA in %r10, then in a stack slot (DRAP), which SFrame v3
   describes with flexible rules.  Not called by the tests: the reader's
   differential check reads its rows.  */
__attribute__ ((noinline)) unsigned long
sframe_lib_realigned (unsigned long n)
{
  _Alignas (64) volatile unsigned long buf[8];
  volatile unsigned long *v = __builtin_alloca ((n % 4 + 1) * sizeof (*v));
  buf[n % 8] = n;
  v[0] = buf[n % 8];
  return v[0] + sframe_lib_mid (n);
}
