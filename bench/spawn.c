/* spawn ROUNDS CMD-A -- CMD-B [-- CMD-C...]: run the commands ROUNDS
   times each after one round that is not counted, interleaved (A B C
   A B C ...), so that drift in a noisy machine hits them alike, and
   print for each every round's wall time and then its median and
   minimum, in microseconds, and the median of its minor page faults.
   A command may begin with NAME=VALUE words that set its environment,
   as with env(1), so that no other program runs (nor is opened) inside
   what is timed.  The commands' output goes to /dev/null.  A command
   that fails stops the run.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: spawn ROUNDS CMD [-- CMD]...\n");
      return 2;
    }
  int rounds = atoi (argv[1]);
  char **cmds[16];
  int n = 0;
  cmds[n++] = &argv[2];
  for (int i = 2; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
	argv[i] = NULL;
	if (n == 16)
	  return 2;
	cmds[n++] = &argv[i + 1];
      }
  /* Each command's leading NAME=VALUE words, as env(1) takes them:
     its environment is those, then ours without the names they set.  */
  char **envs[16];
  size_t nenv = 0;
  while (environ[nenv] != NULL)
    nenv++;
  for (int c = 0; c < n; c++)
    {
      char **e = calloc (nenv + argc + 1, sizeof *e);
      size_t k = 0;
      if (e == NULL)
	return 1;
      for (; *cmds[c] != NULL && strchr (*cmds[c], '=') != NULL; cmds[c]++)
	e[k++] = *cmds[c];
      size_t set = k;
      for (size_t i = 0; i < nenv; i++)
	{
	  size_t len = strcspn (environ[i], "=");
	  bool taken = false;
	  for (size_t j = 0; j < set && !taken; j++)
	    taken = strncmp (e[j], environ[i], len + 1) == 0;
	  if (!taken)
	    e[k++] = environ[i];
	}
      envs[c] = e;
      if (*cmds[c] == NULL)
	{
	  fprintf (stderr, "spawn: command %d is empty\n", c);
	  return 2;
	}
    }
  double *t = calloc ((size_t) rounds * n, sizeof *t);
  double *flt = calloc ((size_t) rounds * n, sizeof *flt);
  posix_spawn_file_actions_t fa;
  if (t == NULL || flt == NULL || posix_spawn_file_actions_init (&fa) != 0
      || posix_spawn_file_actions_addopen (&fa, STDOUT_FILENO, "/dev/null",
					   O_WRONLY, 0) != 0)
    {
      perror ("spawn");
      return 1;
    }
  /* Round -1 warms up (the page cache, the first exec of each file)
     and is not counted.  */
  for (int r = -1; r < rounds; r++)
    for (int c = 0; c < n; c++)
      {
	struct timespec a, b;
	pid_t pid;
	int status;
	struct rusage ru;
	clock_gettime (CLOCK_MONOTONIC, &a);
	if (posix_spawn (&pid, cmds[c][0], &fa, NULL, cmds[c], envs[c]) != 0
	    || wait4 (pid, &status, 0, &ru) != pid
	    || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
	  {
	    fprintf (stderr, "spawn: %s failed\n", cmds[c][0]);
	    return 1;
	  }
	clock_gettime (CLOCK_MONOTONIC, &b);
	if (r < 0)
	  continue;
	t[c * rounds + r] = (b.tv_sec - a.tv_sec) * 1e6
			    + (b.tv_nsec - a.tv_nsec) / 1e3;
	flt[c * rounds + r] = ru.ru_minflt;
      }
  /* Each round's times first, in the order they were taken: the
     commands of one round ran side by side, so their ratio in that
     round is one sample of the ratio, and its spread over the rounds
     is the measure's.  */
  for (int c = 0; c < n; c++)
    {
      printf ("%d rounds_us", c);
      for (int r = 0; r < rounds; r++)
	printf ("%c%.1f", r == 0 ? ' ' : ',', t[c * rounds + r]);
      putchar ('\n');
    }
  for (int c = 0; c < n; c++)
    {
      double *v = t + c * rounds;
      qsort (v, rounds, sizeof *v, cmp);
      printf ("%d median_us %.1f min_us %.1f\n", c, v[rounds / 2], v[0]);
      v = flt + c * rounds;
      qsort (v, rounds, sizeof *v, cmp);
      printf ("%d median_minflt %.0f\n", c, v[rounds / 2]);
    }
  return 0;
}
