/* regcost LIB ROUNDS LOADED: what one registration and one withdrawal
   cost the calling process, without a profiler in the kernel.  Loads
   libbench-1.so ... libbench-LOADED.so from LIB's directory (each
   registered by ld.so), then LIB, withdraws LIB's section and times
   ROUNDS rounds of sframe_register and sframe_unregister of it, each
   call between two reads of CLOCK_MONOTONIC, and ROUNDS system calls
   that the kernel refuses at once (sframe_unregister with size 0: the
   cost of entering the kernel and leaving it).  The clock reads' own
   cost, measured the same way with nothing between them, is taken
   off.  Under QEMU's icount (make bench) a nanosecond is an
   instruction, so the figures do not move with the host's load.

   Then, with the LOADED others withdrawn, times registering all of them
   with one sframe_register each and with one sframe_register_batch of
   all of them (LOADED is at most SFRAME_BATCH_MAX), as many
   registrations as ROUNDS in all, and their withdrawals between; per
   object.

   Prints, per call or per object, in nanoseconds, the median of 9
   batches and the lowest and highest batch:
     add MEDIAN MIN MAX
     remove MEDIAN MIN MAX
     entry MEDIAN MIN MAX
     each MEDIAN MIN MAX        (LOADED at least 1)
     batch MEDIAN MIN MAX       (LOADED at least 1)
   Exits 1 if a call fails (a registration refused, a withdrawal
   without its registration), 2 on bad arguments.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "load-others.h"
#include "../tests/kernel/sframe-calls.h"
#include "../tests/kernel/sframe-obj.h"

#define BATCHES 9

static inline uint64_t
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Print NAME's median, lowest and highest batch, less the clock's own
   cost CLOCK per call.  */
static void
report (const char *name, double *ns, double clock)
{
  qsort (ns, BATCHES, sizeof *ns, cmp);
  printf ("%s %.1f %.1f %.1f\n", name, ns[BATCHES / 2] - clock,
	  ns[0] - clock, ns[BATCHES - 1] - clock);
}

/* The objects load_others loaded, in their order.  */
struct others
{
  struct sframe_setup *setups;
  int n;
};

static int
others_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  struct others *o = data;
  struct sframe_obj obj;
  const char *base = strrchr (info->dlpi_name, '/');
  int i;
  if (base == NULL || sscanf (base, "/libbench-%d.so", &i) != 1 || i < 1
      || !sframe_obj_find (&obj, NULL, info->dlpi_addr))
    return 0;
  o->setups[o->n++] = (struct sframe_setup) {
    .sframe_start = obj.sframe_start,
    .sframe_size = obj.sframe_end - obj.sframe_start,
    .text_start = obj.text_start,
    .text_size = obj.text_end - obj.text_start,
  };
  return 0;
}

/* Withdraw every object of O; 0, or 1 after saying which failed.  */
static int
others_withdraw (const struct others *o)
{
  for (int i = 0; i < o->n; i++)
    {
      struct sframe_setup rm = { .sframe_start = o->setups[i].sframe_start };
      if (sframe_unregister_raw (&rm, sizeof rm) != 0)
	{
	  fprintf (stderr, "regcost: withdrawing object %d: %s\n", i,
		   strerror (errno));
	  return 1;
	}
    }
  return 0;
}

/* Time REPS rounds of registering O's objects one call each and then
   as one batch; the nanoseconds per object of each go to *EACH and
   *BATCH.  0, or 1 after saying which call failed.  */
static int
others_time (const struct others *o, long reps, double *each,
	     double *batch)
{
  uint64_t t_each = 0, t_batch = 0;
  for (long r = 0; r < reps; r++)
    {
      uint64_t t0 = now ();
      for (int i = 0; i < o->n; i++)
	if (sframe_register_raw (&o->setups[i], SFRAME_SETUP_SIZE_VER0) != 0)
	  {
	    fprintf (stderr, "regcost: registering object %d: %m\n", i);
	    return 1;
	  }
      t_each += now () - t0;
      if (others_withdraw (o))
	return 1;
      t0 = now ();
      long int c = sframe_register_batch (o->setups, o->n);
      t_batch += now () - t0;
      if (c != o->n)
	{
	  fprintf (stderr, "regcost: the batch: %s\n",
		   c < 0 ? strerror (-c) : "refused part way");
	  return 1;
	}
      if (others_withdraw (o))
	return 1;
    }
  *each = (double) t_each / (reps * o->n);
  *batch = (double) t_batch / (reps * o->n);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: regcost LIB ROUNDS LOADED\n");
      return 2;
    }
  long rounds = atol (argv[2]);
  int loaded = atoi (argv[3]);
  if (rounds < BATCHES || loaded < 0)
    {
      fprintf (stderr, "regcost: ROUNDS must be at least %d (a multiple"
	       " of it: the rest is not run), LOADED at least 0\n", BATCHES);
      return 2;
    }
  if (load_others ("regcost", argv[1], loaded) != 0)
    return 1;
  void *h = dlopen (argv[1], RTLD_NOW | RTLD_LOCAL);
  struct link_map *map;
  struct sframe_obj o;
  if (h == NULL || dlinfo (h, RTLD_DI_LINKMAP, &map) != 0)
    {
      fprintf (stderr, "regcost: %s\n", dlerror ());
      return 1;
    }
  if (!sframe_obj_find (&o, NULL, map->l_addr))
    {
      fprintf (stderr, "regcost: %s has no SFrame section or no text\n",
	       argv[1]);
      return 1;
    }
  struct sframe_setup lib =
    {
      .sframe_start = o.sframe_start,
      .sframe_size = o.sframe_end - o.sframe_start,
      .text_start = o.text_start,
      .text_size = o.text_end - o.text_start,
    };
  struct sframe_setup rm = { .sframe_start = lib.sframe_start };
  /* ld.so registered it.  */
  if (syscall (__NR_sframe_unregister, &rm, sizeof rm) != 0)
    {
      fprintf (stderr, "regcost: withdrawing %s's section: %m%s\n",
	       argv[1], errno == ENOENT
	       ? " (ld.so did not register it: is registration on?)" : "");
      return 1;
    }

  long per = rounds / BATCHES;
  double clock_ns[BATCHES], add_ns[BATCHES], remove_ns[BATCHES],
    entry_ns[BATCHES];
  for (int b = 0; b < BATCHES; b++)
    {
      uint64_t c = 0, add = 0, remove = 0, entry = 0;
      for (long i = 0; i < per; i++)
	{
	  uint64_t t0 = now ();
	  uint64_t t1 = now ();
	  c += t1 - t0;
	}
      for (long i = 0; i < per; i++)
	{
	  uint64_t t0 = now ();
	  if (syscall (__NR_sframe_register, &lib, sizeof lib) != 0)
	    {
	      fprintf (stderr, "regcost: round %ld: sframe_register: %m\n",
		       i);
	      return 1;
	    }
	  uint64_t t1 = now ();
	  if (syscall (__NR_sframe_unregister, &rm, sizeof rm) != 0)
	    {
	      fprintf (stderr, "regcost: round %ld: sframe_unregister: %m\n",
		       i);
	      return 1;
	    }
	  uint64_t t2 = now ();
	  add += t1 - t0;
	  remove += t2 - t1;
	}
      for (long i = 0; i < per; i++)
	{
	  uint64_t t0 = now ();
	  long r = syscall (__NR_sframe_unregister, &rm, 0);
	  uint64_t t1 = now ();
	  if (r != -1 || errno != EINVAL)
	    {
	      fprintf (stderr, "regcost: size 0: %s\n",
		       r == 0 ? "taken" : strerror (errno));
	      return 1;
	    }
	  entry += t1 - t0;
	}
      clock_ns[b] = (double) c / per;
      add_ns[b] = (double) add / per;
      remove_ns[b] = (double) remove / per;
      entry_ns[b] = (double) entry / per;
    }
  qsort (clock_ns, BATCHES, sizeof *clock_ns, cmp);
  double clock = clock_ns[BATCHES / 2];
  report ("add", add_ns, clock);
  report ("remove", remove_ns, clock);
  report ("entry", entry_ns, clock);
  if (loaded == 0)
    return 0;

  /* The others, as registrations one at a time and as one batch.  */
  if (loaded > SFRAME_BATCH_MAX)
    {
      fprintf (stderr, "regcost: more than %d others\n", SFRAME_BATCH_MAX);
      return 2;
    }
  struct others others = { calloc (loaded, sizeof *others.setups), 0 };
  if (others.setups == NULL)
    {
      fprintf (stderr, "regcost: out of memory\n");
      return 1;
    }
  dl_iterate_phdr (others_cb, &others);
  if (others.n != loaded)
    {
      fprintf (stderr, "regcost: %d of the %d others have SFrame data\n",
	       others.n, loaded);
      return 1;
    }
  if (others_withdraw (&others))
    return 1;
  long reps = per / loaded > 0 ? per / loaded : 1;
  double each_ns[BATCHES], batch_ns[BATCHES];
  for (int b = 0; b < BATCHES; b++)
    if (others_time (&others, reps, &each_ns[b], &batch_ns[b]))
      return 1;
  /* Each object's time was taken with one clock read pair, not one
     per object: the clock's cost is spread over them.  */
  report ("each", each_ns, clock / loaded);
  report ("batch", batch_ns, clock / loaded);
  free (others.setups);
  return 0;
}
