/* A return address in memory that is no longer executable ends the
   chain, however recently the unwinder found that memory executable,
   and whether or not the memory is registered SFrame text.

   The deferred unwinder remembers the executable mappings it found
   across unwinds, for as long as the mm's mmap lock is not taken for
   writing.  A thread spins under sframe_fp_call (libsframe-fp.so:
   frame pointers, no SFrame data), so that its chains have a return
   address in that library's text: first with the text executable
   (phase 1, leaf text_spin_a), then with it made read-only by mprotect
   (phase 2, leaf text_spin_b), then executable again before the thread
   returns into it.  Run under perf record --call-graph fp,defer: the
   chains of text_spin_a go on through sframe_fp_call, those of
   text_spin_b end at text_spin (its return address is in memory that
   is not executable), and none of them has a sframe_fp_call frame.
   With "sframe", the thread calls through sframe_sf_call instead
   (libsframe-cb.so: the same code with SFrame data and no frame
   pointers), which the program registers with sframe_register itself:
   the same holds of its registered text, which mprotect leaves
   registered.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "sframe-calls.h"
#include "sframe-obj.h"

void sframe_fp_call (void (*fn) (void));
void sframe_sf_call (void (*fn) (void));

/* sframe_fp_call, or with "sframe" sframe_sf_call.  */
static void (*text_call) (void (*fn) (void)) = sframe_fp_call;

static _Atomic int phase = 1;
static _Atomic int left_b;

/* Leaves: spin while the phase is theirs.  */
__attribute__ ((noipa)) static void
text_spin_a (void)
{
  while (atomic_load (&phase) == 1)
    ;
}

__attribute__ ((noipa)) static void
text_spin_b (void)
{
  while (atomic_load (&phase) == 2)
    ;
}

/* Called by sframe_fp_call: its return address is in libsframe-fp.so.
   Returns only in phase 4, once that text is executable again.  */
__attribute__ ((noipa)) static void
text_spin (void)
{
  text_spin_a ();
  text_spin_b ();
  atomic_store (&left_b, 1);
  while (atomic_load (&phase) != 4)
    ;
}

__attribute__ ((noipa)) static void *
text_thread (void *arg)
{
  text_call (text_spin);
  return arg;
}

/* The executable segment of the object whose name ends in NAME.  */
struct segment
{
  const char *name;
  uintptr_t start, end;
};

static int
find_text (struct dl_phdr_info *info, size_t size, void *data)
{
  struct segment *seg = data;
  size_t len = strlen (info->dlpi_name), want = strlen (seg->name);
  if (len < want || strcmp (info->dlpi_name + len - want, seg->name) != 0)
    return 0;
  uintptr_t page = sysconf (_SC_PAGESIZE);
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
	{
	  seg->start = (info->dlpi_addr + ph->p_vaddr) & -page;
	  seg->end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz
		      + page - 1) & -page;
	  return 1;
	}
    }
  return 0;
}

static void
wait_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
  while (nanosleep (&ts, &ts) != 0)
    ;
}

static void
text_protect (const struct segment *seg, int prot)
{
  if (mprotect ((void *) seg->start, seg->end - seg->start, prot) != 0)
    {
      perror ("sframe-text: mprotect");
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  long ms = argc == 2 || argc == 3 ? atol (argv[1]) : 0;
  int sframe = argc == 3 && strcmp (argv[2], "sframe") == 0;
  if (ms <= 0 || (argc == 3 && !sframe))
    {
      fprintf (stderr, "usage: sframe-text MILLISECONDS-A-PHASE [sframe]\n");
      return 2;
    }
  struct segment seg = { .name = sframe ? "/libsframe-cb.so"
				       : "/libsframe-fp.so" };
  if (!dl_iterate_phdr (find_text, &seg))
    {
      fprintf (stderr, "sframe-text: no text of %s\n", seg.name + 1);
      return 1;
    }
  if (sframe)
    {
      struct sframe_obj lib;
      if (!sframe_obj_find (&lib, seg.name, 0))
	{
	  fprintf (stderr, "sframe-text: libsframe-cb.so has no "
		   "PT_GNU_SFRAME\n");
	  return 1;
	}
      /* EEXIST: a dynamic linker registered it already.  */
      int err = sframe_add_via (SFRAME_SYSCALL, lib.sframe_start,
				lib.sframe_end, lib.text_start, lib.text_end);
      if (err != 0 && err != EEXIST)
	{
	  fprintf (stderr, "sframe-text: sframe_register: %s\n",
		   strerrorname_np (err));
	  return 1;
	}
      text_call = sframe_sf_call;
    }

  pthread_t t;
  if (pthread_create (&t, NULL, text_thread, NULL) != 0)
    {
      fprintf (stderr, "sframe-text: pthread_create failed\n");
      return 1;
    }
  wait_ms (ms);
  /* The thread enters text_spin_b only after the text is read-only.  */
  text_protect (&seg, PROT_READ);
  atomic_store (&phase, 2);
  wait_ms (ms);
  /* And returns into it only after it is executable again.  */
  atomic_store (&phase, 3);
  while (!atomic_load (&left_b))
    ;
  text_protect (&seg, PROT_READ | PROT_EXEC);
  atomic_store (&phase, 4);
  pthread_join (t, NULL);
  printf ("sframe-text: text %#lx-%#lx read-only for %ld ms\n",
	  (unsigned long) seg.start, (unsigned long) seg.end, ms);
  return 0;
}
