/* kcost MODE LIB LOADED ROUNDS COUNT: what the kernel costs a process
   on the paths every process takes, for the rows that compare the
   kernel series with the same kernel without it.  First loads
   libbench-1.so ... libbench-LOADED.so from LIB's directory and keeps
   them (each registered by ld.so where the kernel takes it), then runs
   ROUNDS rounds of COUNT operations and prints every round's time per
   operation and their median, in microseconds:

     fork   fork, the child's _exit and the parent's waitpid;
     anon   mmap and munmap of one page of anonymous memory;
     text   mmap of LIB's first page, readable and executable, as
	    ld.so maps text, and munmap.

   Output: "rounds_us A,B,..." and "median_us M".

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "load-others.h"

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* One operation of MODE; FD is LIB's, for text.  Returns 0, or 1 after
   saying what failed.  */
static int
op (const char *mode, int fd)
{
  long page = sysconf (_SC_PAGESIZE);
  if (strcmp (mode, "fork") == 0)
    {
      pid_t pid = fork ();
      if (pid < 0)
	{
	  perror ("kcost: fork");
	  return 1;
	}
      if (pid == 0)
	_exit (0);
      int status;
      if (waitpid (pid, &status, 0) != pid || status != 0)
	{
	  fprintf (stderr, "kcost: the child did not exit with 0\n");
	  return 1;
	}
      return 0;
    }
  void *p = strcmp (mode, "anon") == 0
    ? mmap (NULL, page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    : mmap (NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED || munmap (p, page) != 0)
    {
      perror ("kcost: mmap or munmap");
      return 1;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 6
      || (strcmp (argv[1], "fork") != 0 && strcmp (argv[1], "anon") != 0
	  && strcmp (argv[1], "text") != 0))
    {
      fprintf (stderr,
	       "usage: kcost fork|anon|text LIB LOADED ROUNDS COUNT\n");
      return 2;
    }
  const char *mode = argv[1];
  int rounds = atoi (argv[4]);
  long count = atol (argv[5]);
  if (rounds < 1 || rounds > 1000 || count < 1)
    {
      fprintf (stderr, "kcost: ROUNDS must be 1-1000, COUNT positive\n");
      return 2;
    }
  if (load_others ("kcost", argv[2], atoi (argv[3])) != 0)
    return 1;
  int fd = open (argv[2], O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      perror (argv[2]);
      return 1;
    }

  /* One round first that is not counted: the page tables, the slab
     caches and the child's first faults settle.  */
  for (long i = 0; i < count; i++)
    if (op (mode, fd) != 0)
      return 1;
  double us[1000];
  printf ("rounds_us");
  for (int r = 0; r < rounds; r++)
    {
      double a = now_us ();
      for (long i = 0; i < count; i++)
	if (op (mode, fd) != 0)
	  return 1;
      us[r] = (now_us () - a) / count;
      printf ("%c%.4f", r == 0 ? ' ' : ',', us[r]);
    }
  qsort (us, rounds, sizeof us[0], cmp);
  printf ("\nmedian_us %.4f\n", us[rounds / 2]);
  return 0;
}
