/* Program that loads and unloads objects for the SFrame tests.
   Copyright The GNU Toolchain Authors.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

/* This program is run by tst-sframe-load (and tst-sframe-errors, for
   LD_DEBUG=files) on a kernel with SFrame registration.  Its
   arguments are commands, interpreted in order:

   open NAME       dlopen NAME with RTLD_NOW, which must succeed.
   mopen NAME      dlmopen NAME into a new namespace with RTLD_NOW,
		   which must succeed.
   call            Call sframe_mod_fn of the last opened object.
   close           dlclose the last opened object.
   sframe          Print the file name of each object the kernel has
		   registered (/proc/self/sframe), one "sframe: NAME"
		   line each.

   The program is linked against tst-sframe-mod1.so (with SFrame) and
   tst-sframe-nosframe.so (without SFrame).  It is built twice: as
   tst-sframe-prog, which the tests run with an explicit ld.so
   invocation, so that the dynamic linker maps it, and as
   tst-sframe-prog-kernel, which has the built ld.so as its program
   interpreter, so that the kernel maps it.  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tst-sframe-marker.h"

/* The "sframe" command.  */
static void
print_registered (void)
{
  FILE *fp = fopen ("/proc/self/sframe", "re");
  if (fp == NULL)
    {
      printf ("error: /proc/self/sframe: %m\n");
      exit (1);
    }
  char line[512];
  while (fgets (line, sizeof (line), fp) != NULL)
    {
      const char *name = strrchr (line, '/');
      printf ("sframe: %s", name != NULL ? name + 1 : line);
    }
  fclose (fp);
}

/* In tst-sframe-mod1.so.  */
extern int sframe_mod1_fn (void);
/* In tst-sframe-nosframe.so.  */
extern int sframe_nosframe_fn (void);

int
main (int argc, char **argv)
{
  printf ("tst-sframe-prog: marker 0: %ld\n",
	  (long int) sframe_marker (0, &main));

  /* Make both libraries needed.  */
  printf ("tst-sframe-prog: sframe_mod1_fn: %d\n", sframe_mod1_fn ());
  printf ("tst-sframe-prog: sframe_nosframe_fn: %d\n",
	  sframe_nosframe_fn ());

  void *handle = NULL;
  for (int i = 1; i < argc; ++i)
    {
      const char *cmd = argv[i];
      if (strcmp (cmd, "open") == 0 || strcmp (cmd, "mopen") == 0)
	{
	  if (i + 1 >= argc)
	    {
	      printf ("error: command %s needs an argument\n", cmd);
	      exit (1);
	    }
	  const char *name = argv[++i];
	  void *h;
	  if (strcmp (cmd, "mopen") == 0)
	    h = dlmopen (LM_ID_NEWLM, name, RTLD_NOW);
	  else
	    h = dlopen (name, RTLD_NOW);
	  if (h == NULL)
	    {
	      printf ("error: %s %s: %s\n", cmd, name, dlerror ());
	      exit (1);
	    }
	  printf ("tst-sframe-prog: %s %s: done\n", cmd, name);
	  handle = h;
	}
      else if (strcmp (cmd, "call") == 0)
	{
	  if (handle == NULL)
	    {
	      printf ("error: call without an open object\n");
	      exit (1);
	    }
	  int (*fn) (void) = dlsym (handle, "sframe_mod_fn");
	  if (fn == NULL)
	    {
	      printf ("error: dlsym of sframe_mod_fn: %s\n", dlerror ());
	      exit (1);
	    }
	  printf ("tst-sframe-prog: call: sframe_mod_fn returned %d\n",
		  fn ());
	}
      else if (strcmp (cmd, "sframe") == 0)
	print_registered ();
      else if (strcmp (cmd, "close") == 0)
	{
	  if (handle == NULL)
	    {
	      printf ("error: close without an open object\n");
	      exit (1);
	    }
	  if (dlclose (handle) != 0)
	    {
	      printf ("error: dlclose: %s\n", dlerror ());
	      exit (1);
	    }
	  printf ("tst-sframe-prog: close: done\n");
	  handle = NULL;
	}
      else
	{
	  printf ("error: unknown command %s\n", cmd);
	  exit (1);
	}
    }

  return 0;
}
