/* The demo workload profiled by the end-to-end tests and `make run':
   main -> libdemo.so (DT_NEEDED) -> a callback in libdemo-plugin.so
   (loaded at run time) -> its hot leaf, or main -> libdemo.so -> libc's
   qsort -> a comparator in libdemo.so.  Everything, libc included, is
   built without frame pointers and with SFrame data.

   demo chain SECONDS     dlopen the plugin, run its callback.
   demo qsort SECONDS     sort with libc's qsort.
   demo dlmopen SECONDS   the plugin in a new namespace (dlmopen).
   demo reopen SECONDS    run the plugin for half the time, dlclose it,
			  keep its old address range reserved, dlopen it
			  again (so at another address), run it again.
			  Prints the two ranges and the CLOCK_MONOTONIC
			  time of the second dlopen.
   demo plt SECONDS       call a tiny function through its PLT stub.
   demo plt-got SECONDS   the same through a stub in .plt.got (x86-64).
   demo realign SECONDS   run the plugin's callback from a realigned
			  frame.
   demo signal SECONDS    run the plugin's callback while a SIGALRM
			  handler does most of the work.
   demo vdso SECONDS      read a clock the vDSO serves.
   demo trampoline SECONDS  run the plugin's callback through a
			  trampoline (libdemo-tramp.so) with neither
			  SFrame data nor frame pointers, as libffi's.
   demo exec SECONDS      execute itself again and again, with long
			  arguments (so that execve spends its time
			  copying them before its point of no return),
			  until SECONDS have passed since the first.
			  Only when the kernel starts it: /proc/self/exe
			  must be the demo, not ld.so.  The arguments
			  (768 KiB) need a stack limit of 3 MiB or more.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "demo.h"

#define PLUGIN "libdemo-plugin.so"

static void *
open_plugin (Lmid_t lmid, demo_callback *callback)
{
  void *h = lmid == LM_ID_BASE ? dlopen (PLUGIN, RTLD_NOW)
			       : dlmopen (lmid, PLUGIN, RTLD_NOW);
  if (h == NULL)
    {
      fprintf (stderr, "demo: cannot load %s: %s\n", PLUGIN, dlerror ());
      exit (1);
    }
  *callback = (demo_callback) dlsym (h, "plugin_callback");
  if (*callback == NULL)
    {
      fprintf (stderr, "demo: %s\n", dlerror ());
      exit (1);
    }
  return h;
}

/* The address range of the object that contains ADDR: the hull of its
   PT_LOAD segments.  */
struct range
{
  const void *addr;
  uintptr_t lo, hi;
};

static int
find_range (struct dl_phdr_info *info, size_t size, void *closure)
{
  struct range *r = closure;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD)
      {
	const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
	uintptr_t start = info->dlpi_addr + ph->p_vaddr;
	if (start < lo)
	  lo = start;
	if (start + ph->p_memsz > hi)
	  hi = start + ph->p_memsz;
      }
  if ((uintptr_t) r->addr < lo || (uintptr_t) r->addr >= hi)
    return 0;
  long page = sysconf (_SC_PAGESIZE);
  r->lo = lo & -page;
  r->hi = (hi + page - 1) & -page;
  return 1;
}

static struct range
range_of (const void *addr)
{
  struct range r = { addr, 0, 0 };
  if (dl_iterate_phdr (find_range, &r) == 0)
    {
      fprintf (stderr, "demo: no object contains %p\n", addr);
      exit (1);
    }
  return r;
}

/* Not inlined into main: a frame of its own in the chain.  */
__attribute__ ((noinline)) static void
reopen (double seconds)
{
  demo_callback callback;
  void *h = open_plugin (LM_ID_BASE, &callback);
  struct range old = range_of ((const void *) callback);
  demo_run (callback, seconds / 2);
  if (dlclose (h) != 0)
    {
      fprintf (stderr, "demo: dlclose: %s\n", dlerror ());
      exit (1);
    }
  /* Keep the old range from being reused: the plugin must come back
     elsewhere, and nothing can execute in the old range.  */
  if (mmap ((void *) old.lo, old.hi - old.lo, PROT_NONE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0)
      != (void *) old.lo)
    {
      fprintf (stderr, "demo: the plugin's old range is still mapped: %m\n");
      exit (1);
    }
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  h = open_plugin (LM_ID_BASE, &callback);
  struct range new = range_of ((const void *) callback);
  printf ("reopen: old %#lx-%#lx new %#lx-%#lx at %ld.%09ld\n",
	  (unsigned long) old.lo, (unsigned long) old.hi,
	  (unsigned long) new.lo, (unsigned long) new.hi,
	  (long) ts.tv_sec, ts.tv_nsec);
  fflush (stdout);
  if (new.lo < old.hi && old.lo < new.hi)
    {
      fprintf (stderr, "demo: the plugin came back in its old range\n");
      exit (1);
    }
  demo_run (callback, seconds / 2);
  /* Not a tail call: keep reopen on the stack.  */
  if (dlclose (h) != 0)
    exit (1);
}

/* demo exec SECONDS: the first run passes its deadline on as the third
   argument, followed by EXEC_ARGS arguments of EXEC_ARG_SIZE bytes;
   the later ones pass their arguments on.  */
#define EXEC_ARGS 192
#define EXEC_ARG_SIZE 4096

static void
run_exec (int argc, char **argv, double seconds)
{
  if (argc > 3)
    {
      demo_exec (argv, atof (argv[3]));
      return;
    }
  static char *args[4 + EXEC_ARGS + 1];
  static char deadline[32];
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  snprintf (deadline, sizeof deadline, "%.6f",
	    ts.tv_sec + ts.tv_nsec / 1e9 + seconds);
  args[0] = argv[0];
  args[1] = argv[1];
  args[2] = argv[2];
  args[3] = deadline;
  for (int i = 0; i < EXEC_ARGS; i++)
    {
      args[4 + i] = malloc (EXEC_ARG_SIZE);
      if (args[4 + i] == NULL)
	exit (1);
      memset (args[4 + i], 'a' + i % 26, EXEC_ARG_SIZE - 1);
      args[4 + i][EXEC_ARG_SIZE - 1] = '\0';
    }
  demo_exec (args, atof (deadline));
}

int
main (int argc, char **argv)
{
  if (argc != 3 && !(argc > 3 && strcmp (argv[1], "exec") == 0))
    {
      fprintf (stderr, "usage: demo chain|qsort|dlmopen|reopen|plt|plt-got|realign"
	       "|signal|vdso|trampoline|exec SECONDS\n");
      return 2;
    }
  const char *mode = argv[1];
  double seconds = atof (argv[2]);
  demo_callback callback;
  if (strcmp (mode, "chain") == 0)
    {
      void *h = open_plugin (LM_ID_BASE, &callback);
      demo_run (callback, seconds);
      dlclose (h);
    }
  else if (strcmp (mode, "dlmopen") == 0)
    {
      void *h = open_plugin (LM_ID_NEWLM, &callback);
      demo_run (callback, seconds);
      dlclose (h);
    }
  else if (strcmp (mode, "qsort") == 0)
    demo_sort (seconds);
  else if (strcmp (mode, "plt") == 0)
    demo_plt (seconds);
  else if (strcmp (mode, "plt-got") == 0)
    demo_plt_got (seconds);
  else if (strcmp (mode, "vdso") == 0)
    demo_vdso (seconds);
  else if (strcmp (mode, "realign") == 0 || strcmp (mode, "signal") == 0
	   || strcmp (mode, "trampoline") == 0)
    {
      void *h = open_plugin (LM_ID_BASE, &callback);
      if (mode[0] == 'r')
	demo_realign (callback, seconds);
      else if (mode[0] == 's')
	demo_signal (callback, seconds);
      else
	demo_trampoline (callback, seconds);
      dlclose (h);
    }
  else if (strcmp (mode, "reopen") == 0)
    reopen (seconds);
  else if (strcmp (mode, "exec") == 0)
    run_exec (argc, argv, seconds);
  else
    {
      fprintf (stderr, "demo: unknown mode %s\n", mode);
      return 2;
    }
  /* Not a tail call: keep main on the stack in every chain.  */
  return 0;
}
