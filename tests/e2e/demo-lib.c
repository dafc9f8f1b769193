/* libdemo.so: the demo program's DT_NEEDED library.  Built without
   frame pointers and with SFrame data, like everything in the demo.
   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include "demo.h"

volatile unsigned long demo_sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Call CALLBACK until SECONDS have passed.  */
__attribute__ ((noinline)) unsigned long
demo_run (demo_callback callback, double seconds)
{
  unsigned long sum = 0;
  double end = now () + seconds;
  for (unsigned long i = 0; now () < end; i++)
    sum += callback (i);
  /* Not a tail call: keep demo_run on the stack.  */
  demo_sink = sum;
  return sum + 1;
}

/* The qsort comparator: deliberately slow, so that samples land in it
   while libc's qsort is on the stack between it and demo_sort.  */
__attribute__ ((noipa)) static int
demo_compare (const void *a, const void *b)
{
  unsigned long x = *(const unsigned long *) a;
  unsigned long y = *(const unsigned long *) b;
  unsigned long h = x ^ y;
  for (int i = 0; i < 64; i++)
    h = h * 6364136223846793005UL + i;
  demo_sink = h;
  return x < y ? -1 : x > y;
}

/* Sort arrays with libc's qsort until SECONDS have passed.  */
__attribute__ ((noinline)) unsigned long
demo_sort (double seconds)
{
  enum { n = 4096 };
  unsigned long *v = malloc (n * sizeof (*v));
  if (v == NULL)
    abort ();
  unsigned long seed = 1, rounds = 0;
  double end = now () + seconds;
  while (now () < end)
    {
      for (int i = 0; i < n; i++)
	v[i] = seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      qsort (v, n, sizeof (*v), demo_compare);
      rounds++;
    }
  demo_sink = v[0];
  free (v);
  return rounds + 1;
}

/* Called through its PLT stub: a call from this library to a function it
   exports binds at run time, since another object may interpose it.  */
__attribute__ ((noinline)) unsigned long
demo_tiny (unsigned long x)
{
  return x + 1;
}

/* Call demo_tiny through the PLT until SECONDS have passed: under
   emulation the stub's indirect jump takes many of the samples (with
   LD_BIND_NOT, every call goes through ld.so's lazy binding).  */
__attribute__ ((noinline)) unsigned long
demo_plt (double seconds)
{
  unsigned long sum = 0;
  double end = now () + seconds;
  while (now () < end)
    for (int i = 0; i < 1000; i++)
      sum = demo_tiny (sum);
  /* Not a tail call: keep demo_plt on the stack.  */
  demo_sink = sum;
  return sum + 1;
}

/* Called through .plt.got on x86-64: its address is also taken from the
   GOT, so ld gives it a GOT entry bound at load time and a stub there
   that jumps through it.  */
__attribute__ ((noinline)) unsigned long
demo_tiny_got (unsigned long x)
{
  return x + 1;
}

/* Call demo_tiny_got through its stub until SECONDS have passed.  */
__attribute__ ((noinline)) unsigned long
demo_plt_got (double seconds)
{
  unsigned long sum = 0;
  double end = now () + seconds;
  while (now () < end)
    for (int i = 0; i < 1000; i++)
      sum = demo_tiny_got (sum) + (sum == (unsigned long) &demo_tiny_got);
  /* Not a tail call: keep demo_plt_got on the stack.  */
  demo_sink = sum;
  return sum + 1;
}

/* A frame realigned to 64 bytes and with a variable size: gcc keeps its
   CFA in a register, then in a stack slot (x86-64's DRAP), or finds it
   from the frame pointer (arm64).  Calls CALLBACK from it.  */
__attribute__ ((noinline)) unsigned long
demo_realigned (demo_callback callback, unsigned long n)
{
  _Alignas (64) volatile unsigned long buf[8];
  volatile unsigned long *v = __builtin_alloca ((n % 4 + 1) * sizeof (*v));
  for (unsigned long i = 0; i < 1024; i++)
    buf[i % 8] += i ^ n;
  v[0] = callback (n) + buf[n % 8];
  return v[0];
}

/* Call CALLBACK from demo_realigned until SECONDS have passed.  */
__attribute__ ((noinline)) unsigned long
demo_realign (demo_callback callback, double seconds)
{
  unsigned long sum = 0;
  double end = now () + seconds;
  for (unsigned long i = 0; now () < end; i++)
    sum += demo_realigned (callback, i);
  demo_sink = sum;
  return sum + 1;
}

/* The SIGALRM handler's work, while the interrupted code runs CALLBACK
   in the plugin.  noipa: its own frame, under this name.  */
__attribute__ ((noipa)) static unsigned long
demo_signal_work (unsigned long n)
{
  unsigned long x = n;
  for (unsigned long i = 0; i < 400000; i++)
    x = x * 6364136223846793005UL + i;
  return x;
}

static volatile sig_atomic_t demo_signals;

static void
demo_on_signal (int sig)
{
  demo_sink = demo_signal_work (sig);
  /* Not a tail call: keep the handler on the stack.  */
  demo_signals++;
}

/* Call CALLBACK until SECONDS have passed, while a SIGALRM every 2 ms
   runs demo_on_signal; the clock is read seldom, so that the signal
   interrupts CALLBACK or this loop.  Returns the number of signals.  */
__attribute__ ((noinline)) unsigned long
demo_signal (demo_callback callback, double seconds)
{
  struct sigaction sa = { .sa_handler = demo_on_signal };
  struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
  unsigned long sum = 0;
  if (sigaction (SIGALRM, &sa, NULL) != 0
      || setitimer (ITIMER_REAL, &it, NULL) != 0)
    abort ();
  double end = now () + seconds;
  for (unsigned long i = 0; now () < end; i++)
    for (int j = 0; j < 64; j++)
      sum += callback (i);
  it = (struct itimerval) { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &it, NULL);
  demo_sink = sum;
  return demo_signals + 1;
}

/* Read the coarse monotonic clock until SECONDS have passed: the vDSO
   serves it from its data page, without the clock source, so the time
   goes to the vDSO even where another clock would make the system call
   (a TCG guest's unstable TSC).  */
__attribute__ ((noinline)) unsigned long
demo_vdso (double seconds)
{
  struct timespec ts;
  unsigned long calls = 0;
  double end = now () + seconds;
  do
    for (int i = 0; i < 1000; i++, calls++)
      clock_gettime (CLOCK_MONOTONIC_COARSE, &ts);
  while (now () < end);
  /* Not a tail call: keep demo_vdso on the stack.  */
  demo_sink = ts.tv_nsec;
  return calls + 1;
}

/* Execute the program again, with ARGV, if the CLOCK_MONOTONIC time
   DEADLINE (seconds) has not passed.  Returns once it has; exits with
   status 1 if execv fails.  */
__attribute__ ((noinline)) unsigned long
demo_exec (char **argv, double deadline)
{
  if (now () < deadline)
    {
      execv ("/proc/self/exe", argv);
      perror ("demo: execv /proc/self/exe");
      exit (1);
    }
  /* Not a tail call: keep demo_exec on the stack.  */
  demo_sink = 1;
  return 1;
}

/* Call CALLBACK through libdemo-tramp.so's trampoline until SECONDS
   have passed: the chains of its samples cross code that neither SFrame
   data nor a frame pointer describes.  */
__attribute__ ((noinline)) unsigned long
demo_trampoline (demo_callback callback, double seconds)
{
  unsigned long sum = 0;
  double end = now () + seconds;
  for (unsigned long i = 0; now () < end; i++)
    sum += demo_tramp_call (callback, i);
  /* Not a tail call: keep demo_trampoline on the stack.  */
  demo_sink = sum;
  return sum + 1;
}
