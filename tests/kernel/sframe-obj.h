/* The SFrame section and text range of a loaded object, from its program
   headers: what a dynamic linker passes to sframe_register.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#ifndef SFRAME_OBJ_H
#define SFRAME_OBJ_H

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
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

/* The function index of a writable copy of an SFrame v2 or v3 section
   (header fields by the format's offsets), to move its functions.  */
struct sframe_fdes
{
  unsigned char *sec;		/* the copy */
  unsigned char *first;		/* its first index entry */
  size_t size;			/* bytes per entry: 20 (v2), 16 (v3) */
  uint32_t num;
  int v2;
  int pcrel;			/* SFRAME_F_FDE_FUNC_START_PCREL: starts
				   relative to their entry, not the
				   section */
};

static inline void
sframe_fdes_of (struct sframe_fdes *f, unsigned char *sec)
{
  uint32_t fdes_off;
  memcpy (&f->num, sec + 8, 4);
  memcpy (&fdes_off, sec + 20, 4);
  f->sec = sec;
  f->v2 = sec[2] == 2;
  f->pcrel = (sec[3] & 4) != 0;
  f->size = f->v2 ? 20 : 16;
  f->first = sec + 28 + sec[7] + fdes_off;
}

/* Where entry I's start address is relative to.  */
static inline uintptr_t
sframe_fde_base (const struct sframe_fdes *f, uint32_t i)
{
  return (uintptr_t) (f->pcrel ? f->first + i * f->size : f->sec);
}

static inline int64_t
sframe_fde_start (const struct sframe_fdes *f, uint32_t i)
{
  unsigned char *e = f->first + i * f->size;
  if (f->v2)
    {
      int32_t s32;
      memcpy (&s32, e, 4);
      return s32;
    }
  int64_t s64;
  memcpy (&s64, e, 8);
  return s64;
}

/* Set entry I's start (relative to sframe_fde_base) and, unless it is
   0, its size.  False if START does not fit (v2 keeps 32 bits): then
   its low 32 bits are written.  */
static inline int
sframe_fde_set (const struct sframe_fdes *f, uint32_t i, int64_t start,
		uint32_t size)
{
  unsigned char *e = f->first + i * f->size;
  if (f->v2)
    {
      int32_t s32 = start;
      memcpy (e, &s32, 4);
    }
  else
    memcpy (e, &start, 8);
  if (size != 0)
    memcpy (e + (f->v2 ? 4 : 8), &size, 4);
  return !f->v2 || start == (int32_t) start;
}

#endif
