/* dlloop LIB COUNT [LOADED]: dlopen and dlclose LIB COUNT times (each
   time it is mapped, registered, withdrawn and unmapped), calling its
   function once per round; prints the wall time per round in
   microseconds.  With LOADED, first loads libbench-1.so ... libbench-
   LOADED.so from LIB's directory and keeps them, says "loaded" and
   waits for a line on its standard input: the rounds then register and
   withdraw with that many more objects registered, and what measures
   them can start after the loads.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "load-others.h"

int
main (int argc, char **argv)
{
  if (argc != 3 && argc != 4)
    {
      fprintf (stderr, "usage: dlloop LIB COUNT [LOADED]\n");
      return 2;
    }
  long count = atol (argv[2]);
  int loaded = argc == 4 ? atoi (argv[3]) : 0;
  if (load_others ("dlloop", argv[1], loaded) != 0)
    return 1;
  if (argc == 4)
    {
      char line[16];
      puts ("loaded");
      fflush (stdout);
      if (fgets (line, sizeof line, stdin) == NULL)
	{
	  fprintf (stderr, "dlloop: no go-ahead on standard input\n");
	  return 1;
	}
    }
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
