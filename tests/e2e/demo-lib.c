/* libdemo.so: the demo program's DT_NEEDED library.  Built without
   frame pointers and with SFrame data, like everything in the demo.
   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#include <stdlib.h>
#include <time.h>
#include "demo.h"

volatile unsigned long demo_sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Call CALLBACK until SECONDS have passed.  */
__attribute__ ((noinline)) unsigned long
demo_run (demo_callback callback, double seconds)
{
  unsigned long sum = 0;
  double end = now () + seconds;
  for (unsigned long i = 0; now () < end; i++)
    sum += callback (i);
  /* Not a tail call: keep demo_run on the stack.  */
  demo_sink = sum;
  return sum + 1;
}

/* The qsort comparator: deliberately slow, so that samples land in it
   while libc's qsort is on the stack between it and demo_sort.  */
__attribute__ ((noipa)) static int
demo_compare (const void *a, const void *b)
{
  unsigned long x = *(const unsigned long *) a;
  unsigned long y = *(const unsigned long *) b;
  unsigned long h = x ^ y;
  for (int i = 0; i < 64; i++)
    h = h * 6364136223846793005UL + i;
  demo_sink = h;
  return x < y ? -1 : x > y;
}

/* Sort arrays with libc's qsort until SECONDS have passed.  */
__attribute__ ((noinline)) unsigned long
demo_sort (double seconds)
{
  enum { n = 4096 };
  unsigned long *v = malloc (n * sizeof (*v));
  if (v == NULL)
    abort ();
  unsigned long seed = 1, rounds = 0;
  double end = now () + seconds;
  while (now () < end)
    {
      for (int i = 0; i < n; i++)
	v[i] = seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      qsort (v, n, sizeof (*v), demo_compare);
      rounds++;
    }
  demo_sink = v[0];
  free (v);
  return rounds + 1;
}
