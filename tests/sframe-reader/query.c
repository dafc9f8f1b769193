/* query [--section] ELF: the kernel's SFrame reader (kernel/unwind/sframe_read.c,
   compiled unchanged against shim/) on the .sframe section of ELF, at
   that section's own address.  Reads instruction pointers (hex, one a
   line) from standard input and prints for each what the reader found:
     IP cfa=sp+16 ra=-8 fp=0     (ra 0: in the link register;
				  fp 0: unchanged)
     IP outermost
     IP error -ENOENT            (or another errno name)
   Exit status 1 if ELF has no .sframe section the reader accepts.
   With --section, writes the raw .sframe section to standard output
   instead (the fuzzer's seeds).

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

static const char *
errno_name (int e)
{
  switch (e)
    {
    case ENOENT: return "ENOENT";
    case ENOEXEC: return "ENOEXEC";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    case E2BIG: return "E2BIG";
    case EFAULT: return "EFAULT";
    }
  return "unknown";
}

static unsigned char *
slurp (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL || fseek (f, 0, SEEK_END) != 0)
    return NULL;
  long n = ftell (f);
  unsigned char *b = n > 0 ? malloc (n) : NULL;
  rewind (f);
  if (b == NULL || fread (b, 1, n, f) != (size_t) n)
    return NULL;
  fclose (f);
  *len = n;
  return b;
}

int
main (int argc, char **argv)
{
  size_t len;
  int dump = argc == 3 && strcmp (argv[1], "--section") == 0;
  unsigned char *elf = argc == 2 + dump ? slurp (argv[1 + dump], &len) : NULL;
  if (elf == NULL)
    {
      fprintf (stderr, "usage: query [--section] ELF (a readable 64-bit"
	       " ELF file)\n");
      return 2;
    }
  argv += dump;
  Elf64_Ehdr eh;
  const Elf64_Shdr *sh = NULL, *sframe = NULL;
  if (len >= sizeof eh)
    {
      memcpy (&eh, elf, sizeof eh);
      if (memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
	  && eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shoff <= len
	  && (size_t) eh.e_shnum * sizeof *sh <= len - eh.e_shoff
	  && eh.e_shstrndx < eh.e_shnum)
	sh = (const Elf64_Shdr *) (elf + eh.e_shoff);
    }
  if (sh != NULL && sh[eh.e_shstrndx].sh_offset <= len
      && sh[eh.e_shstrndx].sh_size <= len - sh[eh.e_shstrndx].sh_offset)
    {
      const char *names = (const char *) elf + sh[eh.e_shstrndx].sh_offset;
      size_t names_len = sh[eh.e_shstrndx].sh_size;
      for (int i = 0; i < eh.e_shnum; i++)
	if (sh[i].sh_name < names_len
	    && names_len - sh[i].sh_name >= sizeof ".sframe"
	    && memcmp (names + sh[i].sh_name, ".sframe",
		       sizeof ".sframe") == 0
	    && sh[i].sh_offset <= len
	    && sh[i].sh_size <= len - sh[i].sh_offset)
	  sframe = &sh[i];
    }
  if (sframe == NULL)
    {
      fprintf (stderr, "query: %s: no .sframe section in a 64-bit ELF"
	       " file\n", argv[1]);
      free (elf);
      return 1;
    }

  if (dump)
    {
      int bad = fwrite (elf + sframe->sh_offset, 1, sframe->sh_size, stdout)
		!= sframe->sh_size;
      free (elf);
      return bad;
    }

  int aarch64 = eh.e_machine == EM_AARCH64;
  shim_set_arch (aarch64 ? SHIM_AARCH64 : SHIM_X86_64);
  shim_set_window (sframe->sh_addr, elf + sframe->sh_offset,
		   sframe->sh_size);
  struct sframe_section sec;
  memset (&sec, 0, sizeof sec);
  sec.sframe_start = sframe->sh_addr;
  sec.sframe_end = sframe->sh_addr + sframe->sh_size;
  int ret = sframe_read_header (&sec, aarch64
				? SFRAME_ABI_AARCH64_ENDIAN_LITTLE
				: SFRAME_ABI_AMD64_ENDIAN_LITTLE);
  if (ret != 0)
    {
      fprintf (stderr, "query: %s: the reader refuses the section: %s\n",
	       argv[1], errno_name (-ret));
      free (elf);
      return 1;
    }

  unsigned long ip;
  while (scanf ("%lx", &ip) == 1)
    {
      struct unwind_user_frame fr;
      unsigned int rows = SFRAME_UNWIND_MAX_ROWS;
      ret = sframe_read_rule (&sec, ip, &fr, &rows);
      if (ret == 0)
	{
	  /* CFA: base register and offset, in parentheses if the CFA is
	     the word there; FP: its CFA offset, or (fp+N).  */
	  char base[16];
	  if (fr.cfa_reg)
	    snprintf (base, sizeof base, "r%d", fr.cfa_reg - 1);
	  else
	    strcpy (base, fr.use_fp ? "fp" : "sp");
	  printf ("%lx cfa=%s%s%+d%s ra=%d ", ip, fr.cfa_deref ? "(" : "",
		  base, fr.cfa_off, fr.cfa_deref ? ")" : "", fr.ra_off);
	  if (fr.fp_at_fp)
	    printf ("fp=(fp%+d)\n", fr.fp_off);
	  else
	    printf ("fp=%d\n", fr.fp_off);
	}
      else if (ret == SFRAME_OUTERMOST)
	printf ("%lx outermost\n", ip);
      else
	printf ("%lx error -%s\n", ip, errno_name (-ret));
    }
  free (elf);
  return 0;
}
