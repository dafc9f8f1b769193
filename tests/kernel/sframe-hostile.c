/* sframe-hostile SECONDS: attack the SFrame registry for SECONDS while
   perf samples this process (run it under perf record --call-graph
   fp,defer) on the debug kernel (KASAN, lockdep, kmemleak).

   Every registration goes through one of the registry's two entries in
   turn, sframe_register and sframe_register_batch, and every withdrawal
   through sframe_unregister; some calls are malformed (a structure size
   the kernel does not know, an unreadable structure, a non-zero field
   that must be 0).

   Text regions are anonymous executable pages holding a copy of a
   two-instruction spin loop.  The registrar thread registers, for fresh
   regions, copies of a real SFrame section (libsframe-test.so's, loaded
   with dlopen) broken in one of several ways, and checks every answer
   against Documentation/userspace-api/sframe.rst: the exact errno where
   the input determines it, one of the documented ones where it does
   not.  Accepted registrations are withdrawn again (answer 0), or
   their text is unmapped under them by the unmapper thread first
   (answer ENOENT: unmapping dropped them); the unmapper also races its
   munmap against registrations in flight.  Two spinner threads run the
   spin loop inside regions registered with copies whose functions are
   moved there and whose rows are scrambled, so that the samples'
   deferred unwinds read rows that may say anything.

   Prints the tally of answers and one PASS or FAIL line; exits 1 on an
   undocumented answer.  The caller checks the kernel log.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sframe-calls.h"
#include "sframe-obj.h"

/* The spin loop: count down the first argument, return.  */
#if defined __x86_64__
static const unsigned char spin_code[] =
  { 0x48, 0xff, 0xcf,		/* dec %rdi */
    0x75, 0xfb,			/* jnz .-3 */
    0xc3 };			/* ret */
#elif defined __aarch64__
static const unsigned int spin_code[] =
  { 0xf1000400,			/* subs x0, x0, #1 */
    0x54ffffe1,			/* b.ne .-4 */
    0xd65f03c0 };		/* ret */
#else
# error "no spin loop for this architecture"
#endif

enum kind
{
  k_valid,		/* the section as it is: 0 */
  k_body,		/* bytes after the header flipped: 0 */
  k_header,		/* a header byte flipped: 0 (registration reads
			   nothing of the section) */
  k_truncated,		/* cut short: ENOEXEC if shorter than a header,
			   else 0 */
  k_unmapped,		/* the section's pages unmapped: 0, and withdrawn
			   at once (0): the next one may get the same
			   address */
  k_huge,		/* sframe_end 1 GiB past the copy: 0, or EFAULT
			   where that is past user space (a copy near
			   its top, with address space randomisation
			   off) */
  k_overlap,		/* text overlapping a live registration: EEXIST,
			   or, if that text went meanwhile, ENXIO (or
			   EACCES: something else mapped there) */
  k_no_text,		/* text not executable: EACCES */
  k_race,		/* text unmapped while registering: 0, ENXIO or
			   EACCES */
  k_size,		/* sframe_register with a structure size it does
			   not know: EINVAL */
  k_setup,		/* sframe_register with an unreadable structure:
			   EFAULT */
  k_shape,		/* a withdrawal with a non-zero field or argument
			   that must be 0: EINVAL */
  k_aimed,		/* rows scrambled, functions moved to the spinner's
			   text: 0 */
  k_remove,		/* withdrawal of a slot: 0, or ENOENT once its
			   text was unmapped */
  k_count
};

static const char *const kind_names[k_count] =
  { "valid", "body", "header", "truncated", "unmapped", "huge", "overlap",
    "no-text", "race", "size", "setup", "shape", "aimed", "remove" };

#define SLOTS 64

struct slot
{
  _Atomic uintptr_t text;	/* 0: free, or taken by the unmapper */
  atomic_int gone;		/* the unmapper has unmapped the text */
  uintptr_t sframe;		/* the registered section, if any */
  unsigned char *copy;
};

static struct slot slots[SLOTS];
static long page;
/* A page the kernel may not read from, mapped for the whole run: an
   address unmapped for the call could be mapped again by another thread
   before the call reads it.  */
static void *unreadable;
static const unsigned char *section;
static size_t section_len;
static atomic_bool stop;
static _Atomic uintptr_t race_text;
/* The documented answers (Documentation/userspace-api/sframe.rst), and
   a last column for any other.  */
static const int errnos[] =
  { 0, EINVAL, EFAULT, ENOEXEC, ENXIO, EACCES, EEXIST, ENOSPC, ENOMEM,
    ENOENT, -1 };
#define NERRNOS (sizeof errnos / sizeof errnos[0])

static atomic_long answers[k_count][NERRNOS];
static atomic_long undocumented;
static atomic_long calls[SFRAME_ENTRIES];
static atomic_long withdrawals;

/* The entry for this thread's next registration: each in turn.  */
static enum sframe_entry
pick (void)
{
  static _Thread_local unsigned int n;
  enum sframe_entry e = n++ % SFRAME_ENTRIES;
  atomic_fetch_add (&calls[e], 1);
  return e;
}

static int
add (uintptr_t ss, uintptr_t se, uintptr_t ts, uintptr_t te)
{
  return sframe_add_via (pick (), ss, se, ts, te);
}

static int
rm (uintptr_t ss)
{
  atomic_fetch_add (&withdrawals, 1);
  return sframe_remove (ss);
}

static uintptr_t
map_text (int prot)
{
  void *p = mmap (NULL, page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return 0;
  memcpy (p, spin_code, sizeof spin_code);
  __builtin___clear_cache (p, (char *) p + sizeof spin_code);
  if (mprotect (p, page, prot) != 0)
    {
      munmap (p, page);
      return 0;
    }
  return (uintptr_t) p;
}

/* Record ERR for KIND; return whether it is one of ALLOWED (a list
   ending in -1).  */
static void
record (enum kind kind, int err, const int *allowed)
{
  int i;
  for (i = 0; errnos[i] != -1 && errnos[i] != err; i++)
    ;
  atomic_fetch_add (&answers[kind][i], 1);
  for (; *allowed != -1; allowed++)
    if (*allowed == err)
      return;
  atomic_fetch_add (&undocumented, 1);
  printf ("FAIL: %s: answered %s\n", kind_names[kind],
	  err ? strerrorname_np (err) : "success");
}

static uint64_t rng = 88172645463325252ull;

static uint64_t
next (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* A call malformed for its entry, for a registration that would
   otherwise be valid: KIND k_size, a structure size sframe_register
   does not know; k_setup, a structure it cannot read; k_shape, a
   withdrawal with a non-zero field that must be 0.  */
static int
malformed_call (enum kind kind, uintptr_t ss, uintptr_t se, uintptr_t ts,
		uintptr_t te)
{
  union
  {
    struct sframe_setup s;
    unsigned char bytes[4 * SFRAME_SETUP_SIZE_VER0];
  } buf;
  memset (&buf, 0, sizeof buf);
  buf.s = (struct sframe_setup) { ss, se - ss, ts, te - ts };
  switch (kind)
    {
    case k_size:
      {
	size_t size;
	do
	  size = next () % sizeof buf;
	while (size == SFRAME_SETUP_SIZE_VER0);
	atomic_fetch_add (&calls[SFRAME_SYSCALL], 1);
	return sframe_register_raw (&buf, size);
      }
    case k_setup:
      /* A page without access, or a kernel address.  */
      atomic_fetch_add (&calls[SFRAME_SYSCALL], 1);
      return sframe_register_raw (next () & 1 ? unreadable : (void *) -4096l,
				  SFRAME_SETUP_SIZE_VER0);
    default:
      {
	int field = 1 + next () % 3;
	atomic_fetch_add (&withdrawals, 1);
	buf.s.sframe_size = field == 1 ? se - ss : 0;
	buf.s.text_start = field == 2 ? ts : 0;
	buf.s.text_size = field == 3 ? te - ts : 0;
	return sframe_unregister_raw (&buf, SFRAME_SETUP_SIZE_VER0);
      }
    }
}

/* Register a broken copy of the section, as KIND says, for a fresh text
   region in a free slot.  */
static void
attack (enum kind kind)
{
  static const int ok[] = { 0, -1 }, noexec[] = { ENOEXEC, -1 },
    fault[] = { EFAULT, -1 }, huge[] = { 0, EFAULT, -1 },
    inval[] = { EINVAL, -1 },
    noexec_text[] = { EACCES, -1 }, race[] = { 0, ENXIO, EACCES, -1 };
  struct slot *s = &slots[next () % SLOTS];
  if (s->copy != NULL)
    {
      /* Withdraw what is there: the registration must still be there
	 (0), unless the unmapper took its text, which drops it
	 (ENOENT).  */
      static const int live[] = { 0, -1 }, dropped[] = { ENOENT, -1 };
      uintptr_t t = atomic_exchange (&s->text, 0);
      /* Taken by the unmapper: wait until its munmap is done.  */
      while (t == 0 && !atomic_load (&s->gone))
	sched_yield ();
      int err = rm (s->sframe);
      record (k_remove, err, t != 0 ? live : dropped);
      if (t != 0)
	munmap ((void *) t, page);
      free (s->copy);
      s->copy = NULL;
      s->sframe = 0;
      return;
    }
  uintptr_t text = map_text (kind == k_no_text ? PROT_READ : PROT_READ
			     | PROT_EXEC);
  if (text == 0)
    return;
  unsigned char *copy = malloc (section_len);
  memcpy (copy, section, section_len);
  uintptr_t ss = (uintptr_t) copy, se = ss + section_len;
  uintptr_t ts = text, te = text + page;
  const int *allowed = ok;
  void *gone = NULL;
  switch (kind)
    {
    case k_body:
      for (int i = 0; i < 8; i++)
	copy[28 + next () % (section_len - 28)] ^= 1 << (next () % 8);
      break;
    case k_header:
      copy[next () % 28] ^= 1 << (next () % 8);
      break;
    case k_truncated:
      se = ss + next () % section_len + 1;
      if (se - ss < 28)
	allowed = noexec;
      break;
    case k_unmapped:
      gone = mmap (NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0);
      munmap (gone, page);
      ss = (uintptr_t) gone;
      se = ss + section_len;
      break;
    case k_huge:
      /* Inside the address space, far past the copy.  */
      se = ss + (1ul << 30);
      allowed = huge;
      break;
    case k_overlap:
      {
	struct slot *o = &slots[next () % SLOTS];
	uintptr_t t = atomic_load (&o->text);
	if (t == 0 || o->sframe == 0)
	  {
	    /* Nothing live to overlap: a plain registration.  */
	    kind = k_valid;
	    break;
	  }
	/* The other slot's text may be unmapped meanwhile: then the
	   answer is ENXIO (not mapped), not EEXIST, or EACCES if a
	   mapping that is not executable (a thread's malloc arena) took
	   its place.  */
	static const int exist[] = { EEXIST, ENXIO, EACCES, -1 };
	munmap ((void *) text, page);
	text = 0;
	ts = t;
	te = t + page;
	allowed = exist;
	break;
      }
    case k_no_text:
      allowed = noexec_text;
      break;
    case k_race:
      atomic_store (&race_text, text);
      allowed = race;
      break;
    default:
      break;
    }
  int err;
  if (kind == k_size || kind == k_setup || kind == k_shape)
    {
      err = malformed_call (kind, ss, se, ts, te);
      record (kind, err, kind == k_setup ? fault : inval);
      munmap ((void *) text, page);
      free (copy);
      return;
    }
  err = add (ss, se, ts, te);
  record (kind, err, allowed);
  if (kind == k_race)
    {
      /* The unmapper may have taken it.  */
      if (atomic_exchange (&race_text, 0) == 0)
	text = 0;
    }
  if (text == 0 || kind == k_overlap || kind == k_unmapped)
    {
      if (err == 0 && kind == k_unmapped)
	record (k_remove, rm (ss), ok);
      else if (err == 0 && kind != k_overlap)
	rm (ss);
      if (text != 0)
	munmap ((void *) text, page);
      free (copy);
      return;
    }
  if (err != 0)
    {
      munmap ((void *) text, page);
      free (copy);
      return;
    }
  s->copy = copy;
  s->sframe = ss;
  atomic_store (&s->gone, 0);
  atomic_store (&s->text, text);
}

static void *
registrar (void *arg)
{
  while (!atomic_load (&stop))
    attack (next () % k_aimed);
  return NULL;
}

/* Unmap registered text under its registration, and race the
   registrar's k_race mappings.  */
static void *
unmapper (void *arg)
{
  uint64_t r = 1234567;
  while (!atomic_load (&stop))
    {
      uintptr_t t = atomic_exchange (&race_text, 0);
      if (t != 0)
	munmap ((void *) t, page);
      r = r * 6364136223846793005ull + 1442695040888963407ull;
      struct slot *s = &slots[(r >> 33) % SLOTS];
      /* Only the text: the registrar still owns the copy, and finds
	 the slot free.  */
      if ((r >> 20) % 8 == 0)
	{
	  t = atomic_exchange (&s->text, 0);
	  if (t != 0)
	    {
	      munmap ((void *) t, page);
	      atomic_store (&s->gone, 1);
	    }
	}
      usleep (200);
    }
  return NULL;
}

/* A copy of the section whose functions all start in TEXT, so that a
   sample in TEXT is unwound with the copy's rows, and whose rows (the
   FRE sub-section) are then scrambled with SEED; in one copy of four, a
   bit of its header too, which registration does not read and the
   unwinder must check.  */
static unsigned char *
aimed_copy (uintptr_t text, uint64_t seed)
{
  unsigned char *c = malloc (section_len);
  memcpy (c, section, section_len);
  uint32_t fres_off, fre_len;
  memcpy (&fre_len, c + 16, 4);
  memcpy (&fres_off, c + 24, 4);
  size_t fres = 28 + c[7] + fres_off;
  struct sframe_fdes fd;
  sframe_fdes_of (&fd, c);
  /* A v2 start that does not fit is written truncated: the samples'
     unwinds read whatever it says.  */
  for (uint32_t i = 0; i < fd.num; i++)
    sframe_fde_set (&fd, i,
		    (int64_t) (text + 2 * i - sframe_fde_base (&fd, i)),
		    page - 2 * i);
  for (size_t i = fres; i < fres + fre_len; i++)
    {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      if ((seed >> 60) < 4)
	c[i] ^= seed >> 40;
    }
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  if ((seed >> 62) == 0)
    c[(seed >> 40) % 28] ^= 1 << ((seed >> 32) % 8);
  return c;
}

/* A spinner's text region, mapped before any other thread starts: an
   address the unmapper or a failed registration gives back is never a
   spinner's, so no registration of the registrar's (k_race, k_overlap)
   can land on a spinner's text.  Mapped later, a spinner could get the
   page the unmapper had just taken from under the registrar, and its
   first registration could meet the registrar's (EEXIST).  */
struct spinner
{
  uintptr_t text;
  uint64_t seed;
};

/* Spin in a text region of its own (the unmapper never touches it),
   registered each round with a differently scrambled copy of the
   section aimed at it: every deferred unwind of a sample there reads
   rows that may say anything.  Nothing else registers or unmaps that
   text, and the unwinder drops no section, so each registration and
   each withdrawal must answer 0.  */
static void *
spinner (void *arg)
{
  const struct spinner *sp = arg;
  uintptr_t text = sp->text;
  void (*spin) (unsigned long) = (void (*) (unsigned long)) text;
  static const int ok[] = { 0, -1 };
  for (uint64_t round = sp->seed; !atomic_load (&stop); round += 2)
    {
      unsigned char *copy = aimed_copy (text, round);
      uintptr_t ss = (uintptr_t) copy;
      record (k_aimed, add (ss, ss + section_len, text, text + page), ok);
      for (int i = 0; i < 20 && !atomic_load (&stop); i++)
	spin (100000);
      record (k_remove, rm (ss), ok);
      free (copy);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  int seconds = argc > 1 ? atoi (argv[1]) : 10;
  page = sysconf (_SC_PAGESIZE);
  unreadable = mmap (NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
  if (unreadable == MAP_FAILED)
    {
      perror ("mmap");
      return 1;
    }
  struct sframe_obj lib;
  if (dlopen ("libsframe-test.so", RTLD_NOW) == NULL
      || !sframe_obj_find (&lib, "libsframe-test.so", 0))
    {
      printf ("FAIL: hostile: libsframe-test.so or its SFrame data not"
	      " found\n");
      return 1;
    }
  section = (const void *) lib.sframe_start;
  section_len = lib.sframe_end - lib.sframe_start;

  struct spinner spinners[2] =
    { { map_text (PROT_READ | PROT_EXEC), 0 },
      { map_text (PROT_READ | PROT_EXEC), 3 } };
  if (spinners[0].text == 0 || spinners[1].text == 0)
    {
      printf ("FAIL: hostile: no text for the spinners: %m\n");
      return 1;
    }
  pthread_t th[4];
  pthread_create (&th[0], NULL, spinner, &spinners[0]);
  pthread_create (&th[1], NULL, spinner, &spinners[1]);
  pthread_create (&th[2], NULL, registrar, NULL);
  pthread_create (&th[3], NULL, unmapper, NULL);
  sleep (seconds);
  atomic_store (&stop, 1);
  for (int i = 0; i < 4; i++)
    pthread_join (th[i], NULL);

  long total = 0;
  for (int k = 0; k < k_count; k++)
    {
      printf ("%-10s", kind_names[k]);
      for (size_t i = 0; i < NERRNOS; i++)
	{
	  long n = atomic_load (&answers[k][i]);
	  total += n;
	  if (n)
	    printf (" %s %ld", errnos[i] == -1 ? "other"
		    : errnos[i] ? strerrorname_np (errnos[i]) : "0", n);
	}
      printf ("\n");
    }
  long bad = atomic_load (&undocumented);
  long sys = atomic_load (&calls[SFRAME_SYSCALL]);
  long bat = atomic_load (&calls[SFRAME_BATCH]);
  long wd = atomic_load (&withdrawals);
  /* Every entry must have been attacked.  */
  int fail = bad != 0 || sys == 0 || bat == 0 || wd == 0;
  printf ("%s: hostile: %ld calls in %d s (%ld sframe_register, %ld batches,"
	  " %ld sframe_unregister), %ld undocumented answers\n",
	  fail ? "FAIL" : "PASS", total, seconds, sys, bat, wd, bad);
  return fail;
}
