/* The profiled workload of the kernel tests: main calls into a shared
   library built without frame pointers, whose hot loop is two calls deep
   (main -> sframe_lib_mid -> lib_leaf).  With "register" it registers the
   library's SFrame data with the sframe_register system call itself (as
   a patched dynamic linker would); with "none" it does not.  With
   "copy" it registers, for the library's text, a copy of its section
   elsewhere in memory (function starts rebased to the copy), which
   must unwind as the original does; with "badheader" the same copy
   with a wrong magic number, which the kernel takes (it reads nothing
   of a section when registering it) and must not unwind with.  With
   "late" it runs half the time without registering, then registers
   the library and calls it through late_phase: the unwinds of the
   first half found no section for the library, and those of the second
   must not go on believing it.  Runs for the given seconds.
   Built with SFRAME_FP_MID, main calls the library through sframe_fp_mid
   (sframe-fp.c), a frame with frame pointers and no SFrame data.  Built
   with SFRAME_DEEP=N (make bench's deep workload), main calls deep_a (N)
   instead (bench/deep-lib.c: N calls through three objects).

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sframe-calls.h"
#include "sframe-obj.h"

unsigned long sframe_lib_mid (unsigned long n);
unsigned long sframe_fp_mid (unsigned long n);
unsigned long deep_a (unsigned long n);

#if !defined SFRAME_FP_MID && !defined SFRAME_DEEP
/* With "late": the second half's caller of the library, which the
   chains of its samples show.  */
unsigned long late_phase (unsigned long n);

__attribute__ ((noinline)) unsigned long
late_phase (unsigned long n)
{
  unsigned long r = sframe_lib_mid (n);
  __asm__ volatile ("" ::: "memory");
  return r;
}
#endif

/* Copy LEN bytes of the SFrame section at ORIG to COPY, and rebase its
   function start addresses, which are relative to the section or to
   each function's index entry, so that the copy describes the same
   text.  False if a start does not fit (SFrame v2 keeps 32 bits).  */
static bool
copy_section (unsigned char *copy, const unsigned char *orig, size_t len)
{
  memcpy (copy, orig, len);
  struct sframe_fdes fd;
  sframe_fdes_of (&fd, copy);
  /* Relative to the section or to its own entry: the same distance.  */
  intptr_t delta = (intptr_t) orig - (intptr_t) copy;
  for (uint32_t i = 0; i < fd.num; i++)
    if (!sframe_fde_set (&fd, i, sframe_fde_start (&fd, i) + delta, 0))
      return false;
  return true;
}

/* With SFRAME_EXPECT_HEADER set (to -, v2, v3 or refused), the header
   column /proc/self/sframe shows for the library's section must be that:
   what the kernel's unwinder found its header to be, once a profiler's
   samples made it unwind through the library.  */
static int
check_header (const struct sframe_obj *lib)
{
  const char *want = getenv ("SFRAME_EXPECT_HEADER");
  if (want == NULL || want[0] == '\0' || lib->text_start == 0)
    return 0;
  FILE *f = fopen ("/proc/self/sframe", "r");
  if (f == NULL)
    {
      perror ("/proc/self/sframe");
      return 1;
    }
  char line[4096], header[16] = "";
  unsigned long ts, te, ss, se;
  while (fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "%lx-%lx %lx-%lx %15s", &ts, &te, &ss, &se,
		header) == 5
	&& ts == lib->text_start && ss == lib->sframe_start)
      break;
    else
      header[0] = '\0';
  fclose (f);
  printf ("header %s\n", header[0] != '\0' ? header : "(no line)");
  if (strcmp (header, want) != 0)
    {
      fprintf (stderr, "/proc/self/sframe: the library's section shows"
	       " header '%s', not '%s'\n", header, want);
      return 1;
    }
  return 0;
}

/* Register LIB's section, or with COPIED a copy of it (with BAD, one
   with a wrong magic number).  Returns 0, or 1 after saying why not.  */
static int
register_lib (struct sframe_obj *lib, int copied, int bad)
{
  if (copied)
    {
      size_t len = lib->sframe_end - lib->sframe_start;
      unsigned char *copy = mmap (NULL, len, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (copy == MAP_FAILED)
	{
	  perror ("mmap");
	  return 1;
	}
      if (!copy_section (copy, (const unsigned char *) lib->sframe_start,
			 len))
	{
	  fprintf (stderr, "%s: the copy is too far for SFrame v2\n",
		   lib->name);
	  return 1;
	}
      if (bad)
	copy[0] ^= 0xff;
      lib->sframe_start = (uintptr_t) copy;
      lib->sframe_end = (uintptr_t) copy + len;
    }
  int err = sframe_add_via (SFRAME_SYSCALL, lib->sframe_start,
			    lib->sframe_end, lib->text_start, lib->text_end);
  if (err != 0)
    {
      fprintf (stderr, "sframe_register: %s\n", strerrorname_np (err));
      return 1;
    }
  return 0;
}

/* The work: calls into the library for SECS seconds.  Returns how many.
   Inlined: the chains go from the library to main.  */
static inline __attribute__ ((always_inline)) long
work (double secs, int late)
{
  struct timespec start, now;
  long rounds = 0;
  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    {
      rounds++;
#ifdef SFRAME_FP_MID
      sframe_fp_mid (64);
#elif defined SFRAME_DEEP
      deep_a (SFRAME_DEEP);
#else
      if (late)
	late_phase (64);
      else
	sframe_lib_mid (64);
#endif
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while (now.tv_sec - start.tv_sec
	 + (now.tv_nsec - start.tv_nsec) / 1e9 < secs);
  return rounds;
}

int
main (int argc, char **argv)
{
  int bad = argc == 4 && strcmp (argv[1], "badheader") == 0;
  int copied = bad || (argc == 4 && strcmp (argv[1], "copy") == 0);
  int late = argc == 4 && strcmp (argv[1], "late") == 0;
  if (argc != 4 || (strcmp (argv[1], "register") != 0
		    && strcmp (argv[1], "none") != 0 && !copied && !late))
    {
      fprintf (stderr, "usage: %s register|none|copy|badheader|late "
	       "LIBNAME SECONDS\n", argv[0]);
      return 2;
    }
  struct sframe_obj lib = { 0 };
  if (strcmp (argv[1], "none") != 0 && !sframe_obj_find (&lib, argv[2], 0))
    {
      fprintf (stderr, "%s: no PT_GNU_SFRAME\n", argv[2]);
      return 1;
    }
  double secs = atof (argv[3]);
  long rounds = 0;
  if (late)
    {
      rounds = work (secs / 2, 0);
      secs /= 2;
    }
  if (strcmp (argv[1], "none") != 0 && register_lib (&lib, copied, bad) != 0)
    return 1;
  rounds += work (secs, late);
  /* The work done: make bench compares it with and without profiling.  */
  printf ("rounds %ld\n", rounds);
  return check_header (&lib);
}
