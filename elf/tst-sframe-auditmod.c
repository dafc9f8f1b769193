/* Audit module with SFrame for tst-sframe-load.
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

#include <link.h>
#include <stdio.h>
#include <string.h>
#include "tst-sframe-marker.h"

unsigned int
la_version (unsigned int v)
{
  return LAV_CURRENT;
}

/* The start of the executable text of MAP, from the program headers
   that the ELF header at its load address locates (the test modules
   map their first page at address 0).  */
static const void *
text_of (const struct link_map *map)
{
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *) map->l_addr;
  const ElfW(Phdr) *ph = (const ElfW(Phdr) *) (map->l_addr + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; ++i)
    if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X))
      return (const void *) (map->l_addr + ph[i].p_vaddr);
  return NULL;
}

/* Marker 105 tells whether tst-sframe-mod1.so is registered yet when
   auditors hear of it (la_objopen).  */
unsigned int
la_objopen (struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
  const char *base = strrchr (map->l_name, '/');
  if (strcmp (base != NULL ? base + 1 : map->l_name,
	      "tst-sframe-mod1.so") == 0)
    {
      printf ("tst-sframe-auditmod: marker 105: %ld\n",
	      (long int) sframe_marker (105, text_of (map)));
      /* This namespace's stdout is not flushed at exit.  */
      fflush (stdout);
    }
  return 0;
}

/* The dynamic linker loads audit modules before the main program and
   its dependencies, through the same code path, so this module must be
   registered by the time its constructor runs.  */
static void __attribute__ ((constructor))
init (void)
{
  printf ("tst-sframe-auditmod: marker 104: %ld\n",
	  (long int) sframe_marker (104, &la_version));
  fflush (stdout);
}
