/* Tasks that exit without returning to user space after a sample asked
   for their deferred user callchain.  Each of N children spins in
   spin_here until the parent stops it with SIGSTOP and then kills it
   with SIGKILL.  Under perf record -e context-switches -c 1 --call-graph
   fp,defer, the child's switch away as it stops is a sample taken in
   the kernel, which requests the deferred unwind; the child never
   returns to user space, so the kernel must run that unwind as the
   child exits, while perf can still write its record.  Otherwise perf
   has no user callchain for that sample.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* Not inlined, cloned or known not to return: main stays its caller,
   with the return address inside main.  Says it runs through
   *STARTED, then spins until it is stopped and killed.  */
__attribute__ ((noipa)) static unsigned long
spin_here (volatile int *started)
{
  volatile unsigned long x = 1;
  *started = 1;
  for (;;)
    x = x * 6364136223846793005UL + 1442695040888963407UL;
  return x;
}

int
main (int argc, char **argv)
{
  int n = argc == 2 ? atoi (argv[1]) : 0;
  if (n <= 0)
    {
      fprintf (stderr, "usage: %s CHILDREN\n", argv[0]);
      return 2;
    }
  volatile int *started = mmap (NULL, sizeof (int), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (started == MAP_FAILED)
    {
      perror ("mmap");
      return 1;
    }
  for (int i = 0; i < n; i++)
    {
      *started = 0;
      pid_t pid = fork ();
      if (pid < 0)
	{
	  perror ("fork");
	  return 1;
	}
      if (pid == 0)
	return spin_here (started) != 0;
      /* Stop the child only once it runs in spin_here.  */
      while (!*started)
	sched_yield ();
      int status;
      if (kill (pid, SIGSTOP) != 0
	  || waitpid (pid, &status, WUNTRACED) != pid || !WIFSTOPPED (status))
	{
	  fprintf (stderr, "child %d did not stop\n", i);
	  return 1;
	}
      if (kill (pid, SIGKILL) != 0
	  || waitpid (pid, &status, 0) != pid || !WIFSIGNALED (status)
	  || WTERMSIG (status) != SIGKILL)
	{
	  fprintf (stderr, "child %d was not killed\n", i);
	  return 1;
	}
    }
  printf ("%d children stopped and killed\n", n);
  return 0;
}
