/* sframe-stress SECONDS THREADS: THREADS threads dlopen and dlclose the
   libraries libsframe-stress-0.so ... -7.so (each built without frame
   pointers and with SFrame data) in a loop for SECONDS, calling into
   each one they hold open, while the main thread reads
   /proc/self/sframe over and over.  Run it under perf record
   --call-graph fp,defer at a high rate on a glibc that registers
   SFrame sections.

   It checks what the process itself can see:
   - every dlopen, dlsym and dlclose succeeds;
   - before the first dlopen, the view lists this program, its
     interpreter and libc (registered at exec and by rtld);
   - every line of every view names one of those or a stress library,
     each object at most once: a section whose text was unmapped must
     be gone;
   - every stress library is seen registered at least once;
   - after the threads are joined, the view is exactly what it was
     before the first dlopen: no registration left behind.

   Prints the counts and one PASS or FAIL line; exits 1 on a failure.
   The caller checks perf's chains and the kernel log.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#define NLIBS 8
#define MAX_THREADS 64
#define VIEW_SIZE (64 * 1024)

static char lib_dir[PATH_MAX];
static char exe_path[PATH_MAX];
static char interp_path[PATH_MAX];
static char libc_path[PATH_MAX];
static atomic_bool stop;
static atomic_int failures;

static void
fail (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs ("sframe-stress: ", stderr);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
  atomic_fetch_add (&failures, 1);
}

struct worker
{
  pthread_t thread;
  unsigned int seed;
  unsigned long rounds;
};

/* Each round holds one library open while it calls into it, so the
   library cannot be unmapped under this thread's frames.  */
__attribute__ ((noinline)) static void *
stress_thread (void *arg)
{
  struct worker *w = arg;

  while (!atomic_load (&stop))
    {
      char path[PATH_MAX + 32];
      int n = rand_r (&w->seed) % NLIBS;
      snprintf (path, sizeof path, "%s/libsframe-stress-%d.so", lib_dir, n);
      void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);
      if (h == NULL)
	{
	  fail ("dlopen %s: %s", path, dlerror ());
	  break;
	}
      unsigned long (*work) (unsigned long) = dlsym (h, "stress_work");
      if (work == NULL)
	fail ("dlsym stress_work in %s: %s", path, dlerror ());
      else
	work (512);
      if (dlclose (h) != 0)
	{
	  fail ("dlclose %s: %s", path, dlerror ());
	  break;
	}
      w->rounds++;
    }
  return NULL;
}

/* Read /proc/self/sframe into BUF (NUL-terminated).  */
static bool
read_view (char *buf, size_t size)
{
  int fd = open ("/proc/self/sframe", O_RDONLY | O_CLOEXEC);
  size_t len = 0;

  if (fd < 0)
    {
      fail ("open /proc/self/sframe: %m");
      return false;
    }
  for (;;)
    {
      ssize_t r = read (fd, buf + len, size - 1 - len);
      if (r < 0 && errno == EINTR)
	continue;
      if (r < 0)
	{
	  fail ("read /proc/self/sframe: %m");
	  close (fd);
	  return false;
	}
      if (r == 0)
	break;
      len += r;
      if (len == size - 1)
	{
	  fail ("/proc/self/sframe is larger than %zu bytes", size - 1);
	  close (fd);
	  return false;
	}
    }
  close (fd);
  buf[len] = '\0';
  return true;
}

/* Check one view: every line well-formed, naming this program, its
   interpreter, libc, the vDSO or a stress library, each at most once.  Sets
   bit N of *SEEN for each stress library N in it; counts the base
   objects in *BASE.  */
static void
check_view (const char *view, unsigned int *seen, int *base)
{
  unsigned int here = 0;
  int exe = 0, interp = 0, libc = 0, vdso = 0;

  for (const char *line = view; *line != '\0';)
    {
      const char *eol = strchrnul (line, '\n');
      char path[PATH_MAX], one[PATH_MAX + 64], header[16];
      unsigned long ts, te, ss, se;
      int n;

      /* One line at a time: a line without a path must not take the
	 next line's.  The header column is what the unwinder found the
	 section's header to be, which the samples' unwinds change.  */
      snprintf (one, sizeof one, "%.*s", (int) (eol - line), line);
      path[0] = '\0';
      if (sscanf (one, "%lx-%lx %lx-%lx %15s %4095[^\n]", &ts, &te, &ss,
		  &se, header, path) < 5
	  || ts >= te || ss >= se
	  || (strcmp (header, "-") != 0 && strcmp (header, "v2") != 0
	      && strcmp (header, "v3") != 0))
	fail ("malformed line in /proc/self/sframe: %.*s",
	      (int) (eol - line), line);
      else if (strcmp (path, exe_path) == 0)
	exe++;
      else if (strcmp (path, interp_path) == 0)
	interp++;
      else if (strcmp (path, libc_path) == 0)
	libc++;
      else if (strcmp (path, "[vdso]") == 0)
	vdso++;
      else if (sscanf (basename (path), "libsframe-stress-%d.so", &n) == 1
	       && n >= 0 && n < NLIBS)
	{
	  if (here & (1u << n))
	    fail ("%s registered twice", path);
	  here |= 1u << n;
	}
      else
	fail ("a section for text not in this process's objects: %.*s",
	      (int) (eol - line), line);
      line = *eol != '\0' ? eol + 1 : eol;
    }
  if (exe > 1 || interp > 1 || libc > 1 || vdso > 1)
    fail ("a base object registered twice:\n%s", view);
  *seen |= here;
  *base = exe + interp + libc + vdso;
}

/* The interpreter named by this program's PT_INTERP, as a real path.  */
static void
find_interp (void)
{
  const ElfW(Phdr) *phdr = (const void *) getauxval (AT_PHDR);
  unsigned long phnum = getauxval (AT_PHNUM);
  uintptr_t bias = 0;
  const char *interp = NULL;

  for (unsigned long i = 0; i < phnum; i++)
    if (phdr[i].p_type == PT_PHDR)
      bias = (uintptr_t) phdr - phdr[i].p_vaddr;
  for (unsigned long i = 0; i < phnum; i++)
    if (phdr[i].p_type == PT_INTERP)
      interp = (const char *) (bias + phdr[i].p_vaddr);
  if (interp == NULL || realpath (interp, interp_path) == NULL)
    {
      fprintf (stderr, "sframe-stress: no interpreter path: %m\n");
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  static char before[VIEW_SIZE], view[VIEW_SIZE], after[VIEW_SIZE];
  static struct worker workers[MAX_THREADS];
  unsigned int seen = 0;
  unsigned long views = 0, rounds = 0;
  int nthreads, base;

  if (argc != 3 || (nthreads = atoi (argv[2])) < 1 || nthreads > MAX_THREADS)
    {
      fprintf (stderr, "usage: sframe-stress SECONDS THREADS (1-%d)\n",
	       MAX_THREADS);
      return 2;
    }
  double secs = atof (argv[1]);
  if (realpath ("/proc/self/exe", exe_path) == NULL)
    {
      perror ("sframe-stress: /proc/self/exe");
      return 1;
    }
  strcpy (lib_dir, exe_path);
  *strrchr (lib_dir, '/') = '\0';
  find_interp ();
  Dl_info info;
  if (dladdr ((void *) dlopen, &info) == 0
      || realpath (info.dli_fname, libc_path) == NULL)
    {
      fprintf (stderr, "sframe-stress: no path for libc: %m\n");
      return 1;
    }

  if (!read_view (before, sizeof before))
    return 1;
  check_view (before, &seen, &base);
  if (base != 4 || seen != 0)
    fail ("before the first dlopen, expected exactly this program (%s), "
	  "its interpreter (%s), libc (%s) and the vDSO registered, got:\n%s",
	  exe_path, interp_path, libc_path, before);

  for (int i = 0; i < nthreads; i++)
    {
      workers[i].seed = 0x5f3759df + i;
      int err = pthread_create (&workers[i].thread, NULL, stress_thread,
				&workers[i]);
      if (err != 0)
	{
	  errno = err;
	  perror ("sframe-stress: pthread_create");
	  return 1;
	}
    }

  struct timespec now, end;
  clock_gettime (CLOCK_MONOTONIC, &end);
  end.tv_sec += (time_t) secs;
  end.tv_nsec += (long) ((secs - (time_t) secs) * 1e9);
  if (end.tv_nsec >= 1000000000L)
    {
      end.tv_sec++;
      end.tv_nsec -= 1000000000L;
    }
  do
    {
      if (read_view (view, sizeof view))
	{
	  check_view (view, &seen, &base);
	  views++;
	}
      nanosleep (&(struct timespec) { .tv_nsec = 5 * 1000 * 1000 }, NULL);
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while (atomic_load (&failures) < 20
	 && (now.tv_sec < end.tv_sec
	     || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec)));
  atomic_store (&stop, true);
  for (int i = 0; i < nthreads; i++)
    {
      pthread_join (workers[i].thread, NULL);
      printf ("thread %d: %lu dlopen/call/dlclose rounds\n", i,
	      workers[i].rounds);
      rounds += workers[i].rounds;
    }

  if (read_view (after, sizeof after) && strcmp (before, after) != 0)
    fail ("registrations left behind: before the first dlopen:\n%s"
	  "after the last dlclose:\n%s", before, after);
  if (seen != (1u << NLIBS) - 1)
    fail ("not every stress library was seen registered (mask %#x)", seen);

  printf ("%d threads, %.1f s: %lu rounds, %lu views of /proc/self/sframe, "
	  "stress libraries seen registered: %d of %d\n", nthreads, secs,
	  rounds, views, __builtin_popcount (seen), NLIBS);
  printf ("before and after:\n%s", before);
  if (rounds == 0)
    fail ("no round completed");
  int n = atomic_load (&failures);
  printf ("%s: stress: %d failures\n", n ? "FAIL" : "PASS", n);
  return n != 0;
}
