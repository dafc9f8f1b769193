/* no-ptrace PROGRAM [ARG...]: run PROGRAM with ptrace, process_vm_readv
   and process_vm_writev failing with EPERM, as where Yama or a
   container forbids them, for it and everything it runs (a seccomp
   filter).  Used as glibc's test-wrapper (tests/check-glibc), to show
   that the SFrame tests need none of them.  Exits with status 127 if
   the filter cannot be installed or does not work.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __x86_64__
# define ARCH AUDIT_ARCH_X86_64
#else
# define ARCH AUDIT_ARCH_AARCH64
#endif

int
main (int argc, char **argv)
{
  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data,
						    arch)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 3, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 2, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_writev, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
  struct sock_fprog prog = { sizeof (filter) / sizeof (filter[0]), filter };
  if (argc < 2
      || prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || syscall (__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
    {
      perror ("no-ptrace: cannot install the filter");
      return 127;
    }
  /* The filter must answer before the kernel looks at the request.  */
  if (ptrace (PTRACE_TRACEME, 0, 0, 0) == 0 || errno != EPERM)
    {
      fprintf (stderr, "no-ptrace: PTRACE_TRACEME was not refused\n");
      return 127;
    }
  execvp (argv[1], argv + 1);
  perror ("no-ptrace: exec");
  return 127;
}
