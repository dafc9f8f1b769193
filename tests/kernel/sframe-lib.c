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
