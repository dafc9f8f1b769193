/* The demo's library interface.
   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

typedef unsigned long (*demo_callback) (unsigned long);

unsigned long demo_run (demo_callback callback, double seconds);
unsigned long demo_sort (double seconds);
unsigned long demo_plt (double seconds);
unsigned long demo_plt_got (double seconds);
unsigned long demo_realign (demo_callback callback, double seconds);
unsigned long demo_signal (demo_callback callback, double seconds);
unsigned long demo_vdso (double seconds);
unsigned long demo_exec (char **argv, double deadline);
unsigned long demo_trampoline (demo_callback callback, double seconds);

/* libdemo-tramp.so: FN (ARG) through a trampoline with neither SFrame
   data nor frame pointers.  */
unsigned long demo_tramp_call (demo_callback fn, unsigned long arg);
