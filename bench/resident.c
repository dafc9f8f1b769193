/* resident FILE... -- CMD...: run CMD and, when it exits (stopped by
   ptrace before its memory goes), print for each FILE mapped in it how
   many pages of the FILE's .sframe section its page tables hold, out of
   how many the section spans: "FILE present N of M".  A page is present
   once something touched it: the kernel's unwinder reading it, or the
   kernel mapping it around a fault on a neighbour (make bench turns
   fault-around off while this runs).  A FILE that CMD did not map
   prints "FILE present 0 of M".  Exits with CMD's status, or 1 on error.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The file offset and size of FILE's .sframe section; false if it has
   none or is not a 64-bit ELF file.  */
static int
sframe_section (const char *file, uint64_t *off, uint64_t *size)
{
  int fd = open (file, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) != 0)
    return 0;
  unsigned char *m = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (m == MAP_FAILED)
    return 0;
  int found = 0;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *) m;
  if ((size_t) st.st_size >= sizeof (*eh)
      && memcmp (eh->e_ident, ELFMAG, SELFMAG) == 0
      && eh->e_ident[EI_CLASS] == ELFCLASS64
      && eh->e_shoff + (uint64_t) eh->e_shnum * sizeof (Elf64_Shdr)
	 <= (uint64_t) st.st_size
      && eh->e_shstrndx < eh->e_shnum)
    {
      const Elf64_Shdr *sh = (const Elf64_Shdr *) (m + eh->e_shoff);
      const Elf64_Shdr *names = &sh[eh->e_shstrndx];
      for (int i = 0; i < eh->e_shnum && !found; i++)
	if (names->sh_offset + names->sh_size <= (uint64_t) st.st_size
	    && names->sh_size > sizeof ".sframe"
	    && sh[i].sh_name <= names->sh_size - sizeof ".sframe"
	    && memcmp (m + names->sh_offset + sh[i].sh_name, ".sframe",
		       sizeof ".sframe") == 0)
	  {
	    *off = sh[i].sh_offset;
	    *size = sh[i].sh_size;
	    found = *size > 0;
	  }
    }
  munmap (m, st.st_size);
  return found;
}

/* The pages of [OFF, OFF + SIZE) of FILE that PID's page tables hold,
   through /proc/PID/maps and /proc/PID/pagemap.  -1 on error.  */
static long
present (pid_t pid, const char *file, uint64_t off, uint64_t size)
{
  char path[64], line[4096], real[PATH_MAX];
  if (realpath (file, real) == NULL)
    return -1;
  snprintf (path, sizeof path, "/proc/%d/maps", (int) pid);
  FILE *maps = fopen (path, "r");
  snprintf (path, sizeof path, "/proc/%d/pagemap", (int) pid);
  int pm = open (path, O_RDONLY);
  if (maps == NULL || pm < 0)
    return -1;
  long page = sysconf (_SC_PAGESIZE), n = 0;
  uint64_t first = off / page, last = (off + size - 1) / page;
  /* A page of the file may be mapped twice (a small object's segments
     share pages): count it once.  */
  char *seen = calloc (last - first + 1, 1);
  if (seen == NULL)
    return -1;
  while (fgets (line, sizeof line, maps) != NULL)
    {
      unsigned long start, end, moff;
      int name = 0;
      if (sscanf (line, "%lx-%lx %*s %lx %*s %*s %n", &start, &end, &moff,
		  &name) < 3 || name == 0)
	continue;
      line[strcspn (line, "\n")] = '\0';
      if (strcmp (line + name, real) != 0)
	continue;
      /* Each page of the section this mapping holds.  */
      for (uint64_t p = first; p <= last; p++)
	{
	  uint64_t fo = p * page;
	  if (fo < moff || fo - moff >= end - start)
	    continue;
	  uint64_t entry;
	  uint64_t va = start + (fo - moff);
	  if (pread (pm, &entry, sizeof entry, va / page * sizeof entry)
	      != sizeof entry)
	    return -1;
	  if ((entry >> 63) & 1 && !seen[p - first])
	    {
	      seen[p - first] = 1;
	      n++;
	    }
	}
    }
  free (seen);
  fclose (maps);
  close (pm);
  return n;
}

int
main (int argc, char **argv)
{
  int sep = 1;
  while (sep < argc && strcmp (argv[sep], "--") != 0)
    sep++;
  if (sep < 2 || sep + 1 >= argc)
    {
      fprintf (stderr, "usage: resident FILE... -- CMD...\n");
      return 1;
    }
  uint64_t off[sep], size[sep];
  for (int i = 1; i < sep; i++)
    if (!sframe_section (argv[i], &off[i], &size[i]))
      {
	fprintf (stderr, "resident: %s has no .sframe section\n", argv[i]);
	return 1;
      }

  pid_t pid = fork ();
  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      /* Wait for the parent to attach.  */
      raise (SIGSTOP);
      execvp (argv[sep + 1], argv + sep + 1);
      _exit (127);
    }
  int status;
  if (waitpid (pid, &status, WSTOPPED) != pid
      || ptrace (PTRACE_SEIZE, pid, 0, PTRACE_O_TRACEEXIT) != 0
      || kill (pid, SIGCONT) != 0)
    {
      perror ("resident: cannot trace the command");
      return 1;
    }
  int code = 1;
  for (;;)
    {
      if (waitpid (pid, &status, 0) != pid)
	{
	  perror ("resident: waitpid");
	  return 1;
	}
      if (WIFEXITED (status))
	{
	  code = WEXITSTATUS (status);
	  break;
	}
      if (WIFSIGNALED (status))
	break;
      int sig = 0;
      if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8)))
	for (int i = 1; i < sep; i++)
	  {
	    long n = present (pid, argv[i], off[i], size[i]);
	    if (n < 0)
	      {
		fprintf (stderr, "resident: cannot read %d's pages\n",
			 (int) pid);
		return 1;
	      }
	    long page = sysconf (_SC_PAGESIZE);
	    printf ("%s present %ld of %lu\n", argv[i], n,
		    (unsigned long) ((off[i] + size[i] - 1) / page
				     - off[i] / page + 1));
	  }
      else if (WIFSTOPPED (status) && WSTOPSIG (status) != SIGTRAP
	       && status >> 16 == 0)
	/* A signal for the command: deliver it.  */
	sig = WSTOPSIG (status);
      ptrace (PTRACE_CONT, pid, 0, sig);
    }
  fflush (stdout);
  return code;
}
