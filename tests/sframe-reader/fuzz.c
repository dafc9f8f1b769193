/* libFuzzer target: the kernel's SFrame reader (kernel/unwind/sframe_read.c,
   compiled unchanged against shim/) on arbitrary bytes registered as a
   section.  Input: byte 0 picks the architecture (bit 0: AArch64) and
   whether the section claims the other one (bit 1); bytes 1-8 are an
   instruction pointer; the rest is the section, placed at SECTION_BASE.
   For a section whose header the reader accepts, it looks up that
   instruction pointer and, for up to MAX_FDES functions, the first
   bytes of the function, its last byte, its end and a point inside it
   taken from the instruction pointer.  A crash, a sanitizer report, a
   read outside the section (the shim aborts) or a hang is a finding.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

#define SECTION_BASE 0x10000000UL
#define MAX_FDES 64

static int
valid_result (int ret)
{
  return ret == 0 || ret == SFRAME_OUTERMOST || ret == -ENOENT
	 || ret == -ENOEXEC || ret == -EOPNOTSUPP;
}

static void
probe (const struct sframe_section *sec, unsigned long ip)
{
  struct unwind_user_frame frame = { 0 }, again = { 0 };
  unsigned int rows = SFRAME_UNWIND_MAX_ROWS;
  int ret = sframe_read_rule (sec, ip, &frame, &rows);
  /* Only these: never -EFAULT (the whole section is readable), never
     -E2BIG (one function has fewer rows than a whole unwind may scan),
     never anything undocumented.  */
  if (!valid_result (ret))
    abort ();

  /* With a budget of one row: the same answer, or -E2BIG, and never
     more rows taken than given.  */
  rows = 1;
  int ret1 = sframe_read_rule (sec, ip, &again, &rows);
  if (ret1 == -E2BIG)
    {
      if (rows != 0)
	abort ();
    }
  else if (ret1 != ret || rows > 1
	   || (ret == 0 && (frame.cfa_off != again.cfa_off
			    || frame.ra_off != again.ra_off
			    || frame.fp_off != again.fp_off
			    || frame.use_fp != again.use_fp
			    || frame.sp_unknown != again.sp_unknown)))
    abort ();
}

/* The start and size of FDE I, read as the format says (independently
   of the reader).  */
static void
fde (const struct sframe_section *sec, const unsigned char *bytes, uint32_t i,
     unsigned long *start, uint32_t *size)
{
  unsigned long at = sec->fdes_start - sec->sframe_start;
  if (sec->version == SFRAME_VERSION_2)
    {
      struct sframe_fde_v2 f;
      memcpy (&f, bytes + at + i * sizeof f, sizeof f);
      *start = (sec->flags & SFRAME_F_FDE_FUNC_START_PCREL
		? sec->fdes_start + i * sizeof f : sec->sframe_start) + f.start;
      *size = f.size;
    }
  else
    {
      struct sframe_fde_v3 f;
      memcpy (&f, bytes + at + i * sizeof f, sizeof f);
      *start = (sec->flags & SFRAME_F_FDE_FUNC_START_PCREL
		? sec->fdes_start + i * sizeof f : sec->sframe_start) + f.start;
      *size = f.size;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 9)
    return 0;
  int aarch64 = data[0] & 1, other = data[0] & 2;
  unsigned long ip;
  memcpy (&ip, data + 1, sizeof ip);
  data += 9;
  size -= 9;

  /* A copy of exactly the section's size, so that the sanitizer sees
     any read past it that the shim's check would miss.  */
  unsigned char *bytes = malloc (size ? size : 1);
  if (bytes == NULL)
    abort ();
  memcpy (bytes, data, size);
  shim_set_arch (aarch64 ? SHIM_AARCH64 : SHIM_X86_64);
  shim_set_window (SECTION_BASE, bytes, size);

  struct sframe_section sec;
  memset (&sec, 0, sizeof sec);
  sec.sframe_start = SECTION_BASE;
  sec.sframe_end = SECTION_BASE + size;
  int abi = aarch64 ? SFRAME_ABI_AARCH64_ENDIAN_LITTLE
		    : SFRAME_ABI_AMD64_ENDIAN_LITTLE;
  if (other)
    abi = aarch64 ? SFRAME_ABI_AMD64_ENDIAN_LITTLE
		  : SFRAME_ABI_AARCH64_ENDIAN_LITTLE;
  int ret = sframe_read_header (&sec, abi);
  if (ret != 0 && ret != -ENOEXEC)
    abort ();
  if (ret == 0)
    {
      /* What the reader accepted must lie inside the section.  */
      if (sec.fdes_start < sec.sframe_start || sec.fres_start > sec.fres_end
	  || sec.fres_end > sec.sframe_end)
	abort ();
      probe (&sec, ip);
      for (uint32_t i = 0; i < sec.num_fdes && i < MAX_FDES; i++)
	{
	  unsigned long start;
	  uint32_t fsize;
	  fde (&sec, bytes, i, &start, &fsize);
	  probe (&sec, start);
	  probe (&sec, start + 1);
	  probe (&sec, start + fsize - 1);
	  probe (&sec, start + fsize);
	  if (fsize)
	    probe (&sec, start + ip % fsize);
	}
    }
  free (bytes);
  return 0;
}
