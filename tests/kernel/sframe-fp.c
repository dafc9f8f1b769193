/* A library of the kernel tests built with frame pointers and without
   SFrame data, called between SFrame-described frames: main ->
   sframe_fp_mid (here) -> sframe_lib_mid -> lib_leaf.  The unwinder
   steps over sframe_fp_mid with its frame record; where that record is
   not at the top of the frame (arm64), the stack pointer it gives is too
   low, and an SFrame rule based on it would read this function's locals
   as main's saved return address.  They all hold DECOY, so such a
   misread shows up as a frame in the decoy function.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

unsigned long sframe_lib_mid (unsigned long n);

__attribute__ ((noinline)) unsigned long
sframe_fp_mid (unsigned long n, unsigned long decoy)
{
  volatile unsigned long pad[32];
  for (int i = 0; i < 32; i++)
    pad[i] = decoy;
  unsigned long r = sframe_lib_mid (n);
  return r + pad[n % 32];
}
