/* The SFrame section and text range of a loaded object, from its program
   headers: what a dynamic linker passes to PR_ADD_SFRAME.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#ifndef SFRAME_OBJ_H
#define SFRAME_OBJ_H

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>

#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
#endif
#ifndef PR_ADD_SFRAME
# define PR_ADD_SFRAME 82
# define PR_REMOVE_SFRAME 83
#endif

struct sframe_obj
{
  const char *name;		/* substring of the object's path; "" = main;
				   NULL: the object loaded at BASE */
  uintptr_t base;
  uintptr_t sframe_start, sframe_end, text_start, text_end;
  int found;
};

static int
sframe_obj_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  struct sframe_obj *o = data;
  if (o->found)
    return 0;
  if (o->name == NULL ? info->dlpi_addr != o->base
      : o->name[0] == '\0' ? info->dlpi_name[0] != '\0'
      : strstr (info->dlpi_name, o->name) == NULL)
    return 0;
  uintptr_t ts = UINTPTR_MAX, te = 0, ss = 0, se = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_GNU_SFRAME)
	{
	  ss = info->dlpi_addr + ph->p_vaddr;
	  se = ss + ph->p_memsz;
	}
      else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
	{
	  if (info->dlpi_addr + ph->p_vaddr < ts)
	    ts = info->dlpi_addr + ph->p_vaddr;
	  if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > te)
	    te = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
    }
  if (ss == 0 || ts >= te)
    return 0;
  o->sframe_start = ss;
  o->sframe_end = se;
  o->text_start = ts;
  o->text_end = te;
  o->found = 1;
  return 1;
}

/* Fill O for the loaded object whose path contains NAME ("" for the
   main program), or if NAME is NULL the one loaded at BASE.  Returns 0
   if there is none with a PT_GNU_SFRAME.  */
static int
sframe_obj_find (struct sframe_obj *o, const char *name, uintptr_t base)
{
  memset (o, 0, sizeof *o);
  o->name = name;
  o->base = base;
  dl_iterate_phdr (sframe_obj_cb, o);
  return o->found;
}

#endif
