/* Registration of SFrame stack trace data with the kernel.
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

/* The kernel can unwind a user stack without frame pointers if it knows
   where each object's SFrame data (PT_GNU_SFRAME) and text are.  The
   kernel finds those of the executable and of the program interpreter
   itself when it maps them at execve; every other object is mapped here,
   so the dynamic linker registers it after mapping it, before any of its
   code runs, and withdraws it right before unmapping it.

   A kernel that takes batches (it announces AT_SFRAME_BATCH_MAX, the
   most objects one sframe_register_batch call registers) registers all
   the objects of one start-up or one dlopen in one system call, or in
   as few as that bound allows.  Each object is then only marked
   pending when it is mapped, and dl_main and dl_open_worker_begin have
   the batch built and sent once every object of the load is mapped,
   before the first is relocated: relocation is where code of the new
   objects can first run (IFUNC resolvers).  Auditors (la_objopen) and
   the debugger hear of the objects before that.  The batch is built
   from the namespaces' lists of link maps, so an object unmapped before
   that (a failed dlopen) is simply not in it.  Other kernels get one
   call per object, right after it is mapped, before auditors and the
   debugger hear of it.

   Whether to ask at all is decided before the first request, from the
   auxiliary vector: a kernel with the interface announces it with
   AT_SFRAME_SETUP_SIZE, the largest struct sframe_setup size it takes,
   and 0 if it cannot unwind this process with SFrame (_dl_parse_auxv
   keeps it in GLRO(dl_sframe_setup_size)).  On a kernel that announces
   nothing no request is made: the system call numbers are provisional,
   and on a kernel without the interface they may belong to another
   call, so the dynamic linker never probes.  A process that has
   installed a seccomp filter against unknown system calls is not hit by
   one either.  The glibc.rtld.sframe tunable is 0 to never ask and 1
   (the default) to ask when the kernel announces support.

   All of this is best effort: a failure only costs the kernel the
   ability to unwind through that one object.

   The state below is changed only with GL(dl_load_lock) held, or while
   the process is still single-threaded at startup.  */

#include <dl-sframe.h>
#include <dl-sframe-kernel.h>
#include <dl-tunables.h>
#include <errno.h>
#include <ldsodefs.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/param.h>

#if DL_SFRAME_KERNEL

enum sframe_kernel
  {
    /* Not decided yet: the tunables are read after the auxiliary
       vector, so the decision waits for the first object.  */
    sframe_kernel_undecided,
    /* Register every object.  An error concerns that object only.  */
    sframe_kernel_on,
    /* Ask nothing.  */
    sframe_kernel_off,
  };

static enum sframe_kernel sframe_kernel_state;

/* The most objects one sframe_register_batch call registers, or 0 if
   each object gets a sframe_register call of its own (sframe_kernel_on
   only).  A load of more objects is sent in several batches.  */
static size_t sframe_batch_max;

/* The number of objects mapped whose batch is not sent yet: those with
   l_sframe_pending set.  */
static unsigned int sframe_pending;

/* A batch of at most this many objects (that of most dlopen calls) is
   built on the stack, without a malloc and a free.  */
#define SFRAME_BATCH_ON_STACK 8

/* Decide whether to ask the kernel, from the tunable and the
   announcement, and say why under LD_DEBUG=files.  */
static void
sframe_decide (void)
{
  int32_t tunable = TUNABLE_GET (glibc, rtld, sframe, int32_t, NULL);
  size_t sframe_announced = GLRO(dl_sframe_setup_size);
  const char *why;
  if (tunable == 0)
    {
      sframe_kernel_state = sframe_kernel_off;
      why = "glibc.rtld.sframe=0";
    }
  else if (sframe_announced == DL_SFRAME_NOT_ANNOUNCED)
    {
      sframe_kernel_state = sframe_kernel_off;
      why = "kernel does not announce it (no AT_SFRAME_SETUP_SIZE)";
    }
  else if (sframe_announced == 0)
    {
      sframe_kernel_state = sframe_kernel_off;
      why = "kernel announces it unavailable to this process";
    }
  else if (sframe_announced < sizeof (struct dl_sframe_setup))
    {
      sframe_kernel_state = sframe_kernel_off;
      why = "kernel announces an older struct sframe_setup";
    }
  else
    {
      sframe_kernel_state = sframe_kernel_on;
      why = "kernel announces it";
      sframe_batch_max = MIN (GLRO(dl_sframe_batch_max),
			      DL_SFRAME_BATCH_MAX);
    }

  if (__glibc_unlikely (GLRO(dl_debug_mask) & DL_DEBUG_FILES))
    {
      if (sframe_announced == DL_SFRAME_NOT_ANNOUNCED)
	_dl_debug_printf ("sframe: registration off: %s\n", why);
      else if (sframe_batch_max == 0)
	_dl_debug_printf ("sframe: registration %s: %s"
			  " (AT_SFRAME_SETUP_SIZE %lu)\n",
			  sframe_kernel_state == sframe_kernel_off
			  ? "off" : "on", why,
			  (unsigned long int) sframe_announced);
      else
	_dl_debug_printf ("sframe: registration on: %s"
			  " (AT_SFRAME_SETUP_SIZE %lu);  batches of up to"
			  " %lu\n", why, (unsigned long int) sframe_announced,
			  (unsigned long int) sframe_batch_max);
    }
}

/* What the kernel is told about one object.  */
struct sframe_ranges
{
  uintptr_t sframe_start;
  uintptr_t sframe_end;
  uintptr_t text_start;
  uintptr_t text_end;
};

/* Return the PT_GNU_SFRAME program header of L, or NULL.  */
static const ElfW(Phdr) *
find_sframe_phdr (const struct link_map *l)
{
  for (const ElfW(Phdr) *ph = l->l_phdr; ph < &l->l_phdr[l->l_phnum]; ++ph)
    if (ph->p_type == PT_GNU_SFRAME)
      return ph;
  return NULL;
}

/* Work out what to tell the kernel about L, whose PT_GNU_SFRAME is SF:
   the segment as its program header gives it, and the hull of L's
   executable PT_LOAD segments as its text.  Return NULL and fill in *R,
   or return why there is nothing to send (no executable segment).

   The program headers are not judged any further, and the SFrame data
   not at all: rtld reads none of it (that would fault its pages into
   every process, for data only a profiler reads).  The kernel checks
   the section's range when it registers it (EINVAL, EFAULT, ENOEXEC)
   and its data when an unwind reads it: a broken segment costs one
   request.  */
static const char *
sframe_ranges_of (const struct link_map *l, const ElfW(Phdr) *sf,
		  struct sframe_ranges *r)
{
  ElfW(Addr) text_start = -1;
  ElfW(Addr) text_end = 0;
  for (const ElfW(Phdr) *ph = l->l_phdr; ph < &l->l_phdr[l->l_phnum]; ++ph)
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
      {
	if (ph->p_vaddr < text_start)
	  text_start = ph->p_vaddr;
	if (ph->p_vaddr + ph->p_memsz > text_end)
	  text_end = ph->p_vaddr + ph->p_memsz;
      }
  if (text_start >= text_end)
    return "no executable segment";

  r->sframe_start = l->l_addr + sf->p_vaddr;
  r->sframe_end = r->sframe_start + sf->p_memsz;
  r->text_start = l->l_addr + text_start;
  r->text_end = l->l_addr + text_end;
  return NULL;
}

/* Take the kernel's answer about L, whose ranges are R: 0, an errno
   value, or -1 for an object of a batch the kernel refused without
   saying why.  */
static void
sframe_answer (struct link_map *l, const struct sframe_ranges *r, int err)
{
  if (err == 0)
    l->l_sframe_registered = 1;

  /* The kernel announced the interface, which never answers ENOSYS or
     EPERM: those come from a policy, a seccomp filter that fails the
     calls with an errno, as a container's does.  That holds for the
     whole process, so nothing more is asked.  Every other error
     concerns only the object it was asked about; EEXIST means that the
     text overlaps a registration already there (the kernel's own of a
     text it mapped, say), so there is nothing to undo.  */
  if (err == ENOSYS || err == EPERM)
    sframe_kernel_state = sframe_kernel_off;

  if (__glibc_unlikely (GLRO(dl_debug_mask) & DL_DEBUG_FILES))
    {
      const char *name = DSO_FILENAME (l->l_name);
      unsigned long int ns = l->l_ns;
      if (err == 0)
	_dl_debug_printf ("sframe: file=%s [%lu];  registered"
			  " sframe=0x%lx-0x%lx text=0x%lx-0x%lx\n", name, ns,
			  (unsigned long int) r->sframe_start,
			  (unsigned long int) r->sframe_end,
			  (unsigned long int) r->text_start,
			  (unsigned long int) r->text_end);
      else if (err < 0)
	_dl_debug_printf ("sframe: file=%s [%lu];  not registered:"
			  " refused by the kernel in a batch\n", name, ns);
      else if (sframe_kernel_state == sframe_kernel_off)
	_dl_debug_printf ("sframe: file=%s [%lu];  not registered:"
			  " no SFrame registration for this process"
			  " (error %d), not asking again\n",
			  name, ns, err);
      else
	_dl_debug_printf ("sframe: file=%s [%lu];  not registered:"
			  " kernel error %d\n", name, ns, err);
    }
}

/* Return true if the process is not to ask the kernel at all.  */
static bool
sframe_off (void)
{
  if (sframe_kernel_state == sframe_kernel_undecided)
    sframe_decide ();
  return sframe_kernel_state == sframe_kernel_off;
}

/* Register L, whose ranges are R, with a call of its own.  */
static void
sframe_register_one (struct link_map *l, const struct sframe_ranges *r)
{
  sframe_answer (l, r, dl_sframe_kernel_add (r->sframe_start, r->sframe_end,
					     r->text_start, r->text_end));
}

/* The object that made sframe_pending 1, and its ranges, while it is
   pending (else NULL).  Most loads map one object: its batch is then
   built from these, with no walk of the namespaces and no second look
   at its program headers.  */
static struct link_map *sframe_first;
static struct sframe_ranges sframe_first_ranges;

void
_dl_sframe_register (struct link_map *l)
{
  if (sframe_off ())
    return;
  const ElfW(Phdr) *sf = find_sframe_phdr (l);
  if (sf == NULL)
    return;

  struct sframe_ranges r;
  const char *rejected = sframe_ranges_of (l, sf, &r);
  if (rejected != NULL)
    {
      if (__glibc_unlikely (GLRO(dl_debug_mask) & DL_DEBUG_FILES))
	_dl_debug_printf ("sframe: file=%s [%lu];  not registered: %s\n",
			  DSO_FILENAME (l->l_name),
			  (unsigned long int) l->l_ns, rejected);
      return;
    }

  if (sframe_batch_max > 0)
    {
      /* _dl_sframe_register_pending sends it.  */
      l->l_sframe_pending = 1;
      if (sframe_pending++ == 0)
	{
	  sframe_first = l;
	  sframe_first_ranges = r;
	}
      return;
    }

  sframe_register_one (l, &r);
}

/* The ranges SETUP asks for.  */
static struct sframe_ranges
sframe_setup_ranges (const struct dl_sframe_setup *setup)
{
  return (struct sframe_ranges)
    {
      .sframe_start = setup->sframe_start,
      .sframe_end = setup->sframe_start + setup->sframe_size,
      .text_start = setup->text_start,
      .text_end = setup->text_start + setup->text_size,
    };
}

/* The structure that asks for the ranges R.  */
static struct dl_sframe_setup
sframe_setup_of (const struct sframe_ranges *r)
{
  return (struct dl_sframe_setup)
    {
      .sframe_start = r->sframe_start,
      .sframe_size = r->sframe_end - r->sframe_start,
      .text_start = r->text_start,
      .text_size = r->text_end - r->text_start,
    };
}

/* Take the kernel's answer ERR (see sframe_answer) for L, which was
   asked for with SETUP.  */
static void
sframe_setup_answer (struct link_map *l, const struct dl_sframe_setup *setup,
		     int err)
{
  struct sframe_ranges r = sframe_setup_ranges (setup);
  sframe_answer (l, &r, err);
}

/* Register the N objects MAPS, asked for with SETUPS, in order, with as
   few calls as the kernel's answers allow.  */
static void
sframe_send (const struct dl_sframe_setup *setups, struct link_map **maps,
	     size_t n)
{
  size_t i = 0;
  while (i < n && sframe_kernel_state == sframe_kernel_on)
    {
      if (sframe_batch_max == 0)
	{
	  /* Batches were refused (below): one call each.  */
	  struct sframe_ranges r = sframe_setup_ranges (&setups[i]);
	  sframe_register_one (maps[i], &r);
	  ++i;
	  continue;
	}
      /* The kernel registers the batch in order up to the first object
	 it refuses.  Its errno is given only when that is the first; a
	 call from it would give it otherwise, and is not worth making:
	 an object the kernel refuses in the middle of a batch is
	 refused for itself, and any errno then concerns that object
	 only.  */
      long int done = dl_sframe_kernel_add_batch (&setups[i], n - i);
      if (done == -ENOSYS || done == -EPERM)
	{
	  /* No object is refused with these: a policy refuses the call
	     itself (a seccomp filter older than it that fails it with an
	     errno).  Ask one object a call from now on; if the policy
	     refuses that call too, sframe_answer stops all requests.  */
	  sframe_batch_max = 0;
	  if (__glibc_unlikely (GLRO(dl_debug_mask) & DL_DEBUG_FILES))
	    _dl_debug_printf ("sframe: batches refused (error %d);"
			      "  one call per object from now on\n",
			      (int) -done);
	}
      else if (done < 0)
	{
	  /* The first, refused with the errno -DONE.  */
	  sframe_setup_answer (maps[i], &setups[i], -done);
	  ++i;
	}
      else
	{
	  /* The first DONE, then one refused without its errno, if
	     any.  */
	  for (size_t end = i + MIN ((size_t) done, n - i); i < end; ++i)
	    sframe_setup_answer (maps[i], &setups[i], 0);
	  if (i < n)
	    {
	      sframe_setup_answer (maps[i], &setups[i], -1);
	      ++i;
	    }
	}
    }
}

void
_dl_sframe_register_pending (void)
{
  if (sframe_pending == 0)
    return;

  /* The batch, built now: nothing of it lives in the link maps.  The
     kernel reads the structures, an array; the link map of each is in a
     parallel one.  If there is no memory for them, each object gets a
     call of its own.  */
  struct dl_sframe_setup setups_on_stack[SFRAME_BATCH_ON_STACK];
  struct link_map *maps_on_stack[SFRAME_BATCH_ON_STACK];
  /* Objects are pending only while batches are taken; a batch refused
     by a policy in this call leaves the rest to one call each.  */
  size_t max = MIN (sframe_pending, MAX (sframe_batch_max, 1));
  struct dl_sframe_setup *setups = setups_on_stack;
  struct link_map **maps = maps_on_stack;
  if (max > SFRAME_BATCH_ON_STACK)
    {
      /* One block for both arrays.  */
      setups = malloc (max * (sizeof (*setups) + sizeof (*maps)));
      if (setups != NULL)
	maps = (struct link_map **) (setups + max);
    }
  size_t n = 0;
  if (sframe_pending == 1 && sframe_first != NULL)
    {
      /* The one object of the load.  */
      sframe_first->l_sframe_pending = 0;
      sframe_pending = 0;
      setups[0] = sframe_setup_of (&sframe_first_ranges);
      maps[n++] = sframe_first;
    }
  sframe_first = NULL;
  for (size_t ns = 0; ns < GL(dl_nns) && sframe_pending > 0; ++ns)
    for (struct link_map *l = GL(dl_ns)[ns]._ns_loaded;
	 l != NULL && sframe_pending > 0; l = l->l_next)
      if (l->l_sframe_pending)
	{
	  l->l_sframe_pending = 0;
	  --sframe_pending;
	  struct sframe_ranges r;
	  /* A policy's errno for an earlier batch turned requests off:
	     then L is never registered.  The ranges were worked out at
	     _dl_sframe_register and are the same now.  */
	  if (sframe_kernel_state != sframe_kernel_on
	      || sframe_ranges_of (l, find_sframe_phdr (l), &r) != NULL)
	    continue;
	  if (setups == NULL)
	    {
	      sframe_register_one (l, &r);
	      continue;
	    }
	  setups[n] = sframe_setup_of (&r);
	  maps[n++] = l;
	  if (n == max)
	    {
	      sframe_send (setups, maps, n);
	      n = 0;
	    }
	}
  if (n > 0)
    sframe_send (setups, maps, n);
  if (setups != setups_on_stack)
    free (setups);
}

void
_dl_sframe_unregister (struct link_map *l)
{
  if (l->l_sframe_pending)
    {
      /* Unmapped before its load was registered (a failed dlopen): it
	 leaves the namespace's list, so it is in no batch.  */
      l->l_sframe_pending = 0;
      --sframe_pending;
      if (l == sframe_first)
	sframe_first = NULL;
      if (__glibc_unlikely (GLRO(dl_debug_mask) & DL_DEBUG_FILES))
	_dl_debug_printf ("sframe: file=%s [%lu];  not registered: unmapped"
			  " before its load was registered\n",
			  DSO_FILENAME (l->l_name),
			  (unsigned long int) l->l_ns);
    }
  if (!l->l_sframe_registered)
    return;
  l->l_sframe_registered = 0;

  const ElfW(Phdr) *sf = find_sframe_phdr (l);
  int err = dl_sframe_kernel_remove (l->l_addr + sf->p_vaddr);
  if (__glibc_unlikely (GLRO(dl_debug_mask) & DL_DEBUG_FILES))
    _dl_debug_printf ("sframe: file=%s [%lu];  %s (error %d)\n",
		      DSO_FILENAME (l->l_name), (unsigned long int) l->l_ns,
		      (err == 0 ? "withdrawn"
		       : err == ENOENT ? "already dropped by the kernel"
		       : "withdrawal failed"), err);
}

#else /* !DL_SFRAME_KERNEL */

/* No kernel interface for this architecture.  */

void
_dl_sframe_register (struct link_map *l)
{
}

void
_dl_sframe_register_pending (void)
{
}

void
_dl_sframe_unregister (struct link_map *l)
{
}

#endif
