/* What /proc/PID/sframe says of a section's header is what the
   unwinder found in that section, never in another registered at the
   same place while the header was being read.

   The unwinder reads a registered section's header when it first
   unwinds through its text, where the read may fault, and notes what it
   found in the registry (v2, v3 or refused).  If the section is
   withdrawn meanwhile and another registered with the same start, the
   note must not go to the new one: its header may not be one the
   unwinder reads, and the view would still say v2 or v3.

   The program forces that interleaving with userfaultfd.  It registers
   the text of libsframe-cb.so with a copy of the library's own section
   (section A) in a page that is not there yet, userfaultfd's to fill,
   and runs a thread in that text under perf record --call-graph
   fp,defer.  The first sample's deferred unwind reads A's header and
   faults; while it waits, the main thread withdraws A, registers
   section B at the same start with the same text but 32 bytes long (a
   header, no room for its tables: the unwinder refuses it), has perf
   stop sampling (perf record's control FIFOs), and only then fills the
   page.  The unwind finds A's header good, for A's length.  Once the
   thread is gone, B's line in /proc/self/sframe must say "-": nothing
   has read B's header (no sample came after the fill, which a read of
   B would have noted "refused" over a wrong note).

   Run as perf record --control fifo:CTL,ACK ... sframe-note SECONDS
   CTL ACK.  Needs CONFIG_USERFAULTFD and root (a kernel-mode fault);
   exits 0 if the note is right, 1 if not or if the interleaving could
   not be made, 2 on a usage error.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sframe-calls.h"
#include "sframe-obj.h"

void sframe_sf_call (void (*fn) (void));

static _Atomic int stop;
static _Atomic pid_t note_tid;

/* Spins, called by sframe_sf_call: its return address is in the
   registered text.  */
__attribute__ ((noipa)) static void
note_spin (void)
{
  while (!atomic_load (&stop))
    ;
}

static void *
note_thread (void *arg)
{
  atomic_store (&note_tid, gettid ());
  sframe_sf_call (note_spin);
  return arg;
}

static void __attribute__ ((noreturn))
fail (const char *what, int err)
{
  fprintf (stderr, "sframe-note: %s: %s\n", what,
	   err ? strerrorname_np (err) : "failed");
  exit (1);
}

/* The header column of the line of /proc/self/sframe whose section
   starts at START, or "" if there is none; in BUF.  */
static const char *
view_header (uintptr_t start, char *buf, size_t size)
{
  FILE *f = fopen ("/proc/self/sframe", "r");
  if (f == NULL)
    fail ("/proc/self/sframe", errno);
  char line[512];
  buf[0] = '\0';
  while (fgets (line, sizeof line, f) != NULL)
    {
      unsigned long ts, te, ss, se;
      char header[32];
      if (sscanf (line, "%lx-%lx %lx-%lx %31s", &ts, &te, &ss, &se,
		  header) == 5 && ss == start)
	{
	  snprintf (buf, size, "%s", header);
	  fputs (line, stdout);
	}
    }
  fclose (f);
  return buf;
}

int
main (int argc, char **argv)
{
  long secs = argc == 4 ? atol (argv[1]) : 0;
  if (secs <= 0)
    {
      fprintf (stderr, "usage: sframe-note SECONDS-TO-WAIT-FOR-A-SAMPLE "
	       "PERF-CONTROL-FIFO PERF-ACK-FIFO\n");
      return 2;
    }
  /* perf record opens its ends first: the workload starts after.  */
  int ctl = open (argv[2], O_WRONLY | O_CLOEXEC);
  int ack = open (argv[3], O_RDONLY | O_CLOEXEC);
  if (ctl < 0 || ack < 0)
    fail ("perf's control FIFOs", errno);
  struct sframe_obj lib;
  if (!sframe_obj_find (&lib, "/libsframe-cb.so", 0))
    fail ("libsframe-cb.so has no PT_GNU_SFRAME", 0);
  long page = sysconf (_SC_PAGESIZE);
  size_t len = lib.sframe_end - lib.sframe_start;
  if (len <= 32 || len > (size_t) page)
    fail ("libsframe-cb.so's section is not between 33 bytes and a page",
	  0);

  /* The page of sections A and B, userfaultfd's to fill.  */
  int uffd = syscall (__NR_userfaultfd, O_CLOEXEC);
  if (uffd < 0)
    fail ("userfaultfd", errno);
  struct uffdio_api api = { .api = UFFD_API,
			    .features = UFFD_FEATURE_THREAD_ID };
  if (ioctl (uffd, UFFDIO_API, &api) != 0)
    fail ("UFFDIO_API", errno);
  void *sec = mmap (NULL, page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (sec == MAP_FAILED)
    fail ("mmap", errno);
  struct uffdio_register reg = {
    .range = { (uintptr_t) sec, page },
    .mode = UFFDIO_REGISTER_MODE_MISSING,
  };
  if (ioctl (uffd, UFFDIO_REGISTER, &reg) != 0)
    fail ("UFFDIO_REGISTER", errno);
  void *fill = aligned_alloc (page, page);
  if (fill == NULL)
    fail ("aligned_alloc", ENOMEM);
  memset (fill, 0, page);
  memcpy (fill, (void *) lib.sframe_start, len);

  /* A dynamic linker may have registered the library: withdraw it.  */
  int err = sframe_remove (lib.sframe_start);
  if (err != 0 && err != ENOENT)
    fail ("sframe_unregister of the library", err);
  uintptr_t start = (uintptr_t) sec;
  err = sframe_add_via (SFRAME_SYSCALL, start, start + len, lib.text_start,
			lib.text_end);
  if (err != 0)
    fail ("sframe_register of section A", err);

  pthread_t t;
  if (pthread_create (&t, NULL, note_thread, NULL) != 0)
    fail ("pthread_create", 0);

  /* The thread's first deferred unwind faults on A's header.  */
  struct pollfd pfd = { .fd = uffd, .events = POLLIN };
  int n = poll (&pfd, 1, secs * 1000);
  if (n <= 0)
    fail (n == 0 ? "no unwind read the header (no sample?)" : "poll",
	  n == 0 ? 0 : errno);
  struct uffd_msg msg;
  if (read (uffd, &msg, sizeof msg) != sizeof msg)
    fail ("read of the userfaultfd", errno);
  if (msg.event != UFFD_EVENT_PAGEFAULT
      || msg.arg.pagefault.address - start >= (uint64_t) page
      || msg.arg.pagefault.feat.ptid != (uint32_t) atomic_load (&note_tid))
    fail ("not the thread's fault on the section's page", 0);

  /* While it waits: A withdrawn, B at its place, the thread told to
     leave; then the page is filled.  */
  err = sframe_remove (start);
  if (err != 0)
    fail ("sframe_unregister of section A", err);
  err = sframe_add_via (SFRAME_SYSCALL, start, start + 32, lib.text_start,
			lib.text_end);
  if (err != 0)
    fail ("sframe_register of section B", err);
  atomic_store (&stop, 1);
  /* No sample after the fill: none may read B's header.  */
  char reply[8] = "";
  if (write (ctl, "disable\n", 8) != 8
      || read (ack, reply, sizeof reply - 1) <= 0
      || strncmp (reply, "ack", 3) != 0)
    fail ("perf did not stop sampling", errno);
  struct uffdio_copy copy = {
    .dst = start, .src = (uintptr_t) fill, .len = page,
  };
  if (ioctl (uffd, UFFDIO_COPY, &copy) != 0)
    fail ("UFFDIO_COPY", errno);
  /* Joined, the thread is back in user space: the unwind has noted
     what it found.  */
  pthread_join (t, NULL);

  char header[32];
  view_header (start, header, sizeof header);
  printf ("sframe-note: section B at %#" PRIxPTR ": header %s\n", start,
	  header[0] ? header : "(no line)");
  if (strcmp (header, "-") != 0)
    {
      printf ("sframe-note: FAIL: B's line has what the unwinder found in "
	      "A\n");
      return 1;
    }
  return 0;
}
