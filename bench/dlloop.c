/* dlloop LIB COUNT: dlopen and dlclose LIB COUNT times (each time it is
   mapped, registered, withdrawn and unmapped), calling its function once
   per round; prints the wall time per round in microseconds.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: dlloop LIB COUNT\n");
      return 2;
    }
  long count = atol (argv[2]);
  struct timespec a, b;
  clock_gettime (CLOCK_MONOTONIC, &a);
  for (long i = 0; i < count; i++)
    {
      void *h = dlopen (argv[1], RTLD_NOW | RTLD_LOCAL);
      if (h == NULL)
	{
	  fprintf (stderr, "dlloop: %s\n", dlerror ());
	  return 1;
	}
      int (*fn) (int) = (int (*) (int)) dlsym (h, "bench_fn0");
      if (fn == NULL || fn (1) != 2 || dlclose (h) != 0)
	{
	  fprintf (stderr, "dlloop: round %ld failed\n", i);
	  return 1;
	}
    }
  clock_gettime (CLOCK_MONOTONIC, &b);
  printf ("per_round_us %.3f\n", ((b.tv_sec - a.tv_sec) * 1e6
				  + (b.tv_nsec - a.tv_nsec) / 1e3) / count);
  return 0;
}
