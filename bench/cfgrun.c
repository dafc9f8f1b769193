/* cfgrun ROOT DIR CMD...: run CMD in DIR of the tree ROOT, with ROOT as
   its root directory, for the configure row of make bench-kernel (a
   workload run unchanged, with every file it opens in the guest's
   memory).  Linked statically, so that starting it opens nothing
   outside ROOT but itself.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#include <err.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 4)
    errx (2, "usage: cfgrun ROOT DIR CMD...");
  if (chroot (argv[1]) != 0)
    err (1, "chroot %s", argv[1]);
  if (chdir (argv[2]) != 0)
    err (1, "chdir %s", argv[2]);
  execv (argv[3], argv + 3);
  err (1, "execv %s", argv[3]);
}
