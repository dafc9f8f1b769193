/* A library of the kernel tests built with frame pointers and without
   SFrame data, called between SFrame-described frames: main ->
   sframe_fp_mid (here) -> sframe_lib_mid -> lib_leaf.  The unwinder
   steps over sframe_fp_mid with its frame record.  Its locals make the
   frame larger than the record: where the record sits at the bottom of
   the frame (arm64), the stack pointer it implies is too low, and an
   SFrame rule for main based on it would read a slot of this frame as
   main's return address.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

unsigned long sframe_lib_mid (unsigned long n);

__attribute__ ((noinline)) unsigned long
sframe_fp_mid (unsigned long n)
{
  volatile unsigned long pad[32];
  for (int i = 0; i < 32; i++)
    pad[i] = n + i;
  unsigned long r = sframe_lib_mid (n);
  return r + pad[n % 32];
}

/* Call FN from a frame-pointer frame in this library (sframe-text):
   FN's return address is in this library's text.  */
__attribute__ ((noinline)) void
sframe_fp_call (void (*fn) (void))
{
  fn ();
  __asm__ volatile ("" ::: "memory");
}
