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
   so the dynamic linker registers it right after mapping it and withdraws
   it right before unmapping it.

   Whether to ask at all is decided before the first request, from the
   auxiliary vector: a kernel with the interface announces it with
   AT_SFRAME_SETUP_SIZE, the largest struct sframe_setup size it takes,
   and 0 if it cannot unwind this process with SFrame.  On a kernel that
   announces nothing no request is made, so a process that has installed
   a seccomp filter against unknown system calls or prctl options before
   loading an object is never hit by one.  The glibc.rtld.sframe tunable
   is 0 to never ask, 1 (the default) to ask when the kernel announces
   support, and 2 to also probe a kernel that announces nothing with the
   first request, for kernels that have the interface without the
   announcement.

   All of this is best effort: a failure only costs the kernel the
   ability to unwind through that one object.

   The state below is changed only with GL(dl_load_lock) held, or while
   the process is still single-threaded at startup.  */

#include <dl-sframe.h>
#include <dl-sframe-abi.h>
#include <dl-sframe-kernel.h>
#include <dl-tunables.h>
#include <errno.h>
#include <ldsodefs.h>
#include <stdbool.h>
#include <stdint.h>

/* What the kernel announced in AT_SFRAME_SETUP_SIZE, or
   DL_SFRAME_NOT_ANNOUNCED.  Set by _dl_parse_auxv.  */
static ElfW(Addr) sframe_announced = DL_SFRAME_NOT_ANNOUNCED;

void
_dl_sframe_auxv (ElfW(Addr) value)
{
  sframe_announced = value;
}

#if DL_SFRAME_KERNEL && DL_SFRAME_ABI != 0
# include <sframe.h>

enum sframe_kernel
  {
    /* Not decided yet: the tunables are read after the auxiliary
       vector, so the decision waits for the first object.  */
    sframe_kernel_undecided,
    /* The kernel announced nothing and glibc.rtld.sframe=2: the first
       request tells whether it has the interface.  */
    sframe_kernel_probe,
    /* Register every object.  An error concerns that object only.  */
    sframe_kernel_on,
    /* Ask nothing.  */
    sframe_kernel_off,
  };

static enum sframe_kernel sframe_kernel_state;

/* Decide whether to ask the kernel, from the tunable and the
   announcement, and say why under LD_DEBUG=files.  */
static void
sframe_decide (void)
{
  int32_t tunable = TUNABLE_GET (glibc, rtld, sframe, int32_t, NULL);
  const char *why;
  if (tunable == 0)
    {
      sframe_kernel_state = sframe_kernel_off;
      why = "glibc.rtld.sframe=0";
    }
  else if (sframe_announced == DL_SFRAME_NOT_ANNOUNCED)
    {
      if (tunable == 2)
	{
	  sframe_kernel_state = sframe_kernel_probe;
	  why = "kernel announces nothing, glibc.rtld.sframe=2 probes";
	}
      else
	{
	  sframe_kernel_state = sframe_kernel_off;
	  why = "kernel does not announce it (no AT_SFRAME_SETUP_SIZE)";
	}
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
    }

  if (__glibc_unlikely (GLRO(dl_debug_mask) & DL_DEBUG_FILES))
    {
      if (sframe_announced == DL_SFRAME_NOT_ANNOUNCED)
	_dl_debug_printf ("sframe: registration %s: %s;  transport %s\n",
			  sframe_kernel_state == sframe_kernel_off
			  ? "off" : "probing", why, DL_SFRAME_TRANSPORT);
      else
	_dl_debug_printf ("sframe: registration %s: %s"
			  " (AT_SFRAME_SETUP_SIZE %lu);  transport %s\n",
			  sframe_kernel_state == sframe_kernel_off
			  ? "off" : "on", why,
			  (unsigned long int) sframe_announced,
			  DL_SFRAME_TRANSPORT);
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

/* Return true if the segment PH covers [VADDR, VADDR + SIZE).  */
static bool
segment_covers (const ElfW(Phdr) *ph, ElfW(Addr) vaddr, ElfW(Xword) size)
{
  return (vaddr >= ph->p_vaddr
	  && vaddr - ph->p_vaddr <= ph->p_memsz
	  && size <= ph->p_memsz - (vaddr - ph->p_vaddr));
}

/* Return the PT_GNU_SFRAME program header of L, or NULL.  */
static const ElfW(Phdr) *
find_sframe_phdr (const struct link_map *l)
{
  for (const ElfW(Phdr) *ph = l->l_phdr; ph < &l->l_phdr[l->l_phnum]; ++ph)
    if (ph->p_type == PT_GNU_SFRAME)
      return ph;
  return NULL;
}

/* Work out what to tell the kernel about L, whose PT_GNU_SFRAME is SF,
   and reject what no kernel would accept, so that no system call is
   spent on it.  Return NULL and fill in *R, or return why L is
   rejected.  */
static const char *
sframe_ranges_of (const struct link_map *l, const ElfW(Phdr) *sf,
		  struct sframe_ranges *r)
{
  if (sf->p_memsz < sizeof (sframe_header))
    return "segment too small for an SFrame header";

  /* The section must lie in readable mapped memory of the object: that
     is where the kernel reads it, and where the header is read below.  */
  const ElfW(Phdr) *holder = NULL;
  ElfW(Addr) text_start = -1;
  ElfW(Addr) text_end = 0;
  for (const ElfW(Phdr) *ph = l->l_phdr; ph < &l->l_phdr[l->l_phnum]; ++ph)
    if (ph->p_type == PT_LOAD)
      {
	if (holder == NULL && (ph->p_flags & PF_R)
	    && segment_covers (ph, sf->p_vaddr, sf->p_memsz))
	  holder = ph;
	if (ph->p_flags & PF_X)
	  {
	    if (ph->p_vaddr < text_start)
	      text_start = ph->p_vaddr;
	    if (ph->p_vaddr + ph->p_memsz > text_end)
	      text_end = ph->p_vaddr + ph->p_memsz;
	  }
      }
  if (holder == NULL)
    return "segment outside the readable segments";
  if (text_start >= text_end)
    return "no executable segment";

  /* Pages of a file mapping wholly past the end of the file fault
     (SIGBUS) when touched, so the part of the section mapped from the
     file must be in it.  The size is known for every object mapped from
     a file rtld looked at (not the program of an explicit loader
     invocation, which rtld does not stat).  */
  ElfW(Xword) off_in_load = sf->p_vaddr - holder->p_vaddr;
  uint64_t file_size = l->l_file_id.size;
  if (file_size != 0 && off_in_load < holder->p_filesz)
    {
      ElfW(Xword) from_file = holder->p_filesz - off_in_load;
      if (from_file > sf->p_memsz)
	from_file = sf->p_memsz;
      if (holder->p_offset > file_size
	  || off_in_load + from_file > file_size - holder->p_offset)
	return "segment extends past the end of the file";
    }

  const sframe_header *h = (const void *) (l->l_addr + sf->p_vaddr);
  if (h->sfh_preamble.sfp_magic != SFRAME_MAGIC)
    return "bad magic (or foreign byte order)";
  if (h->sfh_preamble.sfp_version < SFRAME_VERSION_2)
    return "SFrame version 1 is not supported";
  if (h->sfh_abi_arch != DL_SFRAME_ABI)
    return "SFrame ABI of another architecture";
  /* In versions 2 and 3 the FDE and FRE sub-sections follow the header
     and must lie within the segment; later versions are for the kernel
     to judge.  The 32-bit fields cannot overflow in 64-bit
     arithmetic.  */
  uint64_t hdr_size = sizeof (sframe_header) + h->sfh_auxhdr_len;
  if (h->sfh_preamble.sfp_version <= 3
      && (hdr_size + h->sfh_fdeoff > sf->p_memsz
	  || hdr_size + h->sfh_freoff + h->sfh_fre_len > sf->p_memsz))
    return "header offsets exceed the segment";

  r->sframe_start = l->l_addr + sf->p_vaddr;
  r->sframe_end = r->sframe_start + sf->p_memsz;
  r->text_start = l->l_addr + text_start;
  r->text_end = l->l_addr + text_end;
  return NULL;
}

/* Return true if the process is not to ask the kernel at all.  */
static bool
sframe_off (void)
{
  if (sframe_kernel_state == sframe_kernel_undecided)
    sframe_decide ();
  return sframe_kernel_state == sframe_kernel_off;
}

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

  int err = dl_sframe_kernel_add (r.sframe_start, r.sframe_end,
				  r.text_start, r.text_end);
  if (err == 0)
    l->l_sframe_registered = 1;

  /* The first answer to a probe tells whether the kernel has the
     interface: ENOSYS (no system call), EINVAL (no prctl option) and
     EPERM (a policy) say it has not, and then nothing more is asked.
     Every other answer is one only the interface gives.  A kernel that
     announced the interface is never written off: an error then
     concerns only the object it was asked about.  EEXIST means that
     the kernel registered this text itself (the executable and the
     interpreter it mapped at execve), so there is nothing to undo.  */
  if (sframe_kernel_state == sframe_kernel_probe)
    sframe_kernel_state = (err == ENOSYS || err == EINVAL || err == EPERM
			   ? sframe_kernel_off : sframe_kernel_on);

  if (__glibc_unlikely (GLRO(dl_debug_mask) & DL_DEBUG_FILES))
    {
      const char *name = DSO_FILENAME (l->l_name);
      unsigned long int ns = l->l_ns;
      if (err == 0)
	_dl_debug_printf ("sframe: file=%s [%lu];  registered"
			  " sframe=0x%lx-0x%lx text=0x%lx-0x%lx\n", name, ns,
			  (unsigned long int) r.sframe_start,
			  (unsigned long int) r.sframe_end,
			  (unsigned long int) r.text_start,
			  (unsigned long int) r.text_end);
      else if (sframe_kernel_state == sframe_kernel_off)
	_dl_debug_printf ("sframe: file=%s [%lu];  not registered:"
			  " the probe says the kernel has no SFrame"
			  " registration (error %d), not asking again\n",
			  name, ns, err);
      else
	_dl_debug_printf ("sframe: file=%s [%lu];  not registered:"
			  " kernel error %d\n", name, ns, err);
    }
}

void
_dl_sframe_unregister (struct link_map *l)
{
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

#else /* !DL_SFRAME_KERNEL || DL_SFRAME_ABI == 0 */

/* No kernel interface, or SFrame defines no ABI for this architecture.  */

void
_dl_sframe_register (struct link_map *l)
{
}

void
_dl_sframe_unregister (struct link_map *l)
{
}

#endif
