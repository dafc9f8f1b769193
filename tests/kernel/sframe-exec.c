/* The deferred user callchain of a sample taken in execve() after the
   new program is in place, when a tracer stops the task at the exec
   (PTRACE_O_TRACEEXEC).  sframe-exec N [untraced] forks a child that
   executes this program N times in a row (sframe-exec --run K executes
   itself with K - 1 until K is 1); unless "untraced", the parent traces
   it and continues it at each exec stop.

   Under perf record -e sched:sched_process_exec --call-graph fp,defer,
   each exec is a sample taken in the kernel after exec_mmap() (the
   tracepoint fires after the binary is loaded), whose deferred unwind
   must walk the new program: its entry point, ld.so's _start.  The
   exec stop runs task work (ptrace_notify()) while the task is still
   in execve(), before it ever returns to user space: there the unwind
   must run, though exec has not ended, or the sample gets no user
   chain.  Untraced, the task work runs on the way out.

   Exits 0 when the child made its N execs and exited 0.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static void
exec_self (int k)
{
  char count[16];
  snprintf (count, sizeof count, "%d", k);
  execl ("/proc/self/exe", "sframe-exec", "--run", count, (char *) NULL);
  perror ("sframe-exec: execl");
  _exit (1);
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--run") == 0)
    {
      int k = atoi (argv[2]);
      if (k > 1)
	exec_self (k - 1);
      return 0;
    }

  int n = argc >= 2 ? atoi (argv[1]) : 0;
  int traced = !(argc == 3 && strcmp (argv[2], "untraced") == 0);
  if (n <= 0 || argc > 3 || (argc == 3 && traced))
    {
      fprintf (stderr, "usage: sframe-exec N [untraced]\n");
      return 2;
    }

  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("sframe-exec: fork");
      return 1;
    }
  if (pid == 0)
    {
      if (traced)
	{
	  if (ptrace (PTRACE_TRACEME, 0, NULL, NULL) != 0)
	    {
	      perror ("sframe-exec: PTRACE_TRACEME");
	      _exit (1);
	    }
	  /* Wait for the parent to set the options.  */
	  raise (SIGSTOP);
	}
      exec_self (n);
    }

  int status, execs = 0;
  if (traced)
    {
      if (waitpid (pid, &status, 0) != pid || !WIFSTOPPED (status))
	{
	  fprintf (stderr, "sframe-exec: the child did not stop (%#x)\n",
		   status);
	  return 1;
	}
      if (ptrace (PTRACE_SETOPTIONS, pid, NULL,
		  (void *) (PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) != 0
	  || ptrace (PTRACE_CONT, pid, NULL, NULL) != 0)
	{
	  perror ("sframe-exec: ptrace");
	  return 1;
	}
    }
  for (;;)
    {
      if (waitpid (pid, &status, 0) != pid)
	{
	  perror ("sframe-exec: waitpid");
	  return 1;
	}
      if (WIFEXITED (status) || WIFSIGNALED (status))
	break;
      int sig = 0;
      if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
	execs++;
      else
	sig = WSTOPSIG (status);
      if (ptrace (PTRACE_CONT, pid, NULL, (void *) (long) sig) != 0)
	{
	  perror ("sframe-exec: PTRACE_CONT");
	  return 1;
	}
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      fprintf (stderr, "sframe-exec: the child ended with %#x\n", status);
      return 1;
    }
  if (traced && execs != n)
    {
      fprintf (stderr, "sframe-exec: %d exec stops, not %d\n", execs, n);
      return 1;
    }
  printf ("sframe-exec: %d execs%s\n", n,
	  traced ? ", each stopped by the tracer" : "");
  return 0;
}
