/* load_others: what dlloop and regcost load before what they measure.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#ifndef LOAD_OTHERS_H
#define LOAD_OTHERS_H

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* Load libbench-1.so ... libbench-LOADED.so from LIB's directory and
   keep them (each registered by ld.so).  Returns 0, or 1 after saying
   on standard error, prefixed with PROG, which one failed.  */
static int
load_others (const char *prog, const char *lib, int loaded)
{
  const char *slash = strrchr (lib, '/');
  int dirlen = slash ? (int) (slash - lib) : 1;
  for (int i = 1; i <= loaded; i++)
    {
      char path[4096];
      snprintf (path, sizeof path, "%.*s/libbench-%d.so", dirlen,
		slash ? lib : ".", i);
      if (dlopen (path, RTLD_NOW | RTLD_LOCAL) == NULL)
	{
	  fprintf (stderr, "%s: %s\n", prog, dlerror ());
	  return 1;
	}
    }
  return 0;
}

#endif
