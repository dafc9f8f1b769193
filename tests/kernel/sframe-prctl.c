/* Kernel-side tests of the SFrame registry's two entries, the system
   calls sframe_register and sframe_unregister and the prctls
   PR_ADD_SFRAME and PR_REMOVE_SFRAME: every documented outcome of
   Documentation/userspace-api/sframe.rst, each case run through both
   entries (the lines say which: "[syscall]", "[prctl]"), the shape
   checks that belong to each entry, the lifetime of registrations across
   munmap, fork and exec, what /proc/self/sframe shows of them, the
   vDSO's registration by the kernel (at exec, across fork and mremap),
   and the kernel's announcement AT_SFRAME_SETUP_SIZE.  Run in the guest on the
   matching kernel; prints one PASS or FAIL line per check and exits with
   the number of failures.

   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: GPL-2.0  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sframe-calls.h"
#include "sframe-obj.h"

static int failures;
static long page;

/* The entry the checks go through, named in every line.  */
static enum sframe_entry entry;

static int
add (uintptr_t ss, uintptr_t se, uintptr_t ts, uintptr_t te)
{
  return sframe_add_via (entry, ss, se, ts, te);
}

static int
rm (uintptr_t ss)
{
  return sframe_remove_via (entry, ss);
}

static const char *
ename (int e)
{
  return e == 0 ? "success" : strerrorname_np (e);
}

static void
expect (const char *what, int got, int want)
{
  if (got == want)
    printf ("PASS: [%s] %s: %s\n", sframe_entry_name[entry], what,
	    ename (got));
  else
    {
      printf ("FAIL: [%s] %s: got %s, want %s\n", sframe_entry_name[entry],
	      what, ename (got), ename (want));
      failures++;
    }
}

/* Anonymous executable memory standing in for an object's text.  */
static uintptr_t
map_text (size_t pages)
{
  void *p = mmap (NULL, pages * page, PROT_READ | PROT_EXEC,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    {
      perror ("mmap");
      exit (100);
    }
  return (uintptr_t) p;
}

/* A copy of a valid SFrame section on the heap: the section need not be
   inside the object, so copies can be registered for any text.  */
static unsigned char *
copy_section (const struct sframe_obj *o)
{
  size_t len = o->sframe_end - o->sframe_start;
  unsigned char *c = malloc (len);
  memcpy (c, (void *) o->sframe_start, len);
  return c;
}

/* Header fields (struct sframe_header in the kernel's sframe_format.h).  */
enum { H_VERSION = 2, H_FLAGS = 3, H_ABI = 4, H_NUM_FDES = 8,
       H_FRE_LEN = 16, H_SIZE = 28 };

/* SFrame ABI codes: this architecture's, and another one's, which the
   kernel must refuse.  */
#if defined __x86_64__
enum { ABI_NATIVE = 3, ABI_OTHER = 2 };		/* AMD64; AArch64 LE */
# define ABI_OTHER_NAME "AArch64 ABI"
#elif defined __aarch64__ && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum { ABI_NATIVE = 2, ABI_OTHER = 3 };		/* AArch64 LE; AMD64 */
# define ABI_OTHER_NAME "AMD64 ABI"
#else
# error "no SFrame ABI for this architecture"
#endif

/* What exec and the dynamic linker registered, checked once, before
   anything is withdrawn: the library is left unregistered.  */
static void
test_loaded (const struct sframe_obj *lib, int rtld_registers)
{
  /* The dlopened library: registered by a patched dynamic linker only.  */
  expect ("library: registered by the dynamic linker iff it registers",
	  rm (lib->sframe_start), rtld_registers ? 0 : ENOENT);
}

static void
test_objects (const struct sframe_obj *exe, const struct sframe_obj *lib,
	      int rtld_registers)
{
  /* binfmt_elf registered the executable at exec.  */
  expect ("executable registered by exec (add again)",
	  add (exe->sframe_start, exe->sframe_end, exe->text_start,
	       exe->text_end), EEXIST);
  expect ("executable: remove", rm (exe->sframe_start), 0);
  expect ("executable: add back",
	  add (exe->sframe_start, exe->sframe_end, exe->text_start,
	       exe->text_end), 0);

  /* The patched glibc's ld.so is built with SFrame data; Debian's is
     not.  */
  struct sframe_obj interp;
  if (sframe_obj_find (&interp, NULL, getauxval (AT_BASE)))
    expect ("interpreter registered by exec (add again)",
	    add (interp.sframe_start, interp.sframe_end, interp.text_start,
		 interp.text_end), EEXIST);
  else if (rtld_registers)
    {
      printf ("FAIL: interpreter registered by exec: the patched ld.so"
	      " has no PT_GNU_SFRAME\n");
      failures++;
    }
  else
    printf ("SKIP: interpreter registered by exec: this ld.so has no"
	    " PT_GNU_SFRAME\n");

  expect ("library: add", add (lib->sframe_start, lib->sframe_end,
			       lib->text_start, lib->text_end), 0);
  expect ("library: add twice", add (lib->sframe_start, lib->sframe_end,
				     lib->text_start, lib->text_end), EEXIST);
  unsigned char *c = copy_section (lib);
  size_t len = lib->sframe_end - lib->sframe_start;
  expect ("overlapping text",
	  add ((uintptr_t) c, (uintptr_t) c + len, lib->text_start + 1,
	       lib->text_start + 2), EEXIST);
  /* Withdrawal is keyed by the section's start: one start cannot
     stand for two registrations.  */
  uintptr_t t = map_text (1);
  expect ("section start registered for other text",
	  add (lib->sframe_start, lib->sframe_end, t, t + page), EEXIST);
  munmap ((void *) t, page);
  expect ("library: remove", rm (lib->sframe_start), 0);
  expect ("library: remove twice", rm (lib->sframe_start), ENOENT);
  expect ("remove unknown", rm ((uintptr_t) c), ENOENT);
  free (c);
}

static void
test_bad_arguments (const struct sframe_obj *lib)
{
  uintptr_t ss = lib->sframe_start, se = lib->sframe_end;
  uintptr_t ts = lib->text_start, te = lib->text_end;
  static int data_word;

  expect ("empty section", add (ss, ss, ts, te), EINVAL);
  expect ("inverted section", add (se, ss, ts, te), EINVAL);
  expect ("empty text", add (ss, se, ts, ts), EINVAL);
  expect ("inverted text", add (ss, se, te, ts), EINVAL);
  expect ("text not executable (data)",
	  add (ss, se, (uintptr_t) &data_word, (uintptr_t) &data_word + 4),
	  EACCES);
  uintptr_t t = map_text (1);
  munmap ((void *) t, page);
  expect ("text not mapped", add (ss, se, t, t + page), ENXIO);
  t = map_text (3);
  munmap ((void *) (t + page), page);
  expect ("text with a hole", add (ss, se, t, t + 3 * page), ENXIO);
  expect ("text running past its mapping", add (ss, se, t, t + 2 * page),
	  ENXIO);
  munmap ((void *) t, 3 * page);

  /* Mapped without holes, but not executable at one end.  */
  t = map_text (3);
  mprotect ((void *) t, page, PROT_READ);
  expect ("text not executable at its start", add (ss, se, t, t + 3 * page),
	  EACCES);
  mprotect ((void *) t, page, PROT_READ | PROT_EXEC);
  mprotect ((void *) (t + 2 * page), page, PROT_READ);
  expect ("text not executable at its end", add (ss, se, t, t + 3 * page),
	  EACCES);
  /* A hole and no execute permission: the hole is what is reported.  */
  munmap ((void *) (t + page), page);
  expect ("text with a hole, not executable at its end",
	  add (ss, se, t, t + 3 * page), ENXIO);
  munmap ((void *) t, 3 * page);

  void *none = mmap (NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
  expect ("section unreadable",
	  add ((uintptr_t) none, (uintptr_t) none + page, ts, te), EFAULT);
  munmap (none, page);
  expect ("section in kernel space",
	  add (UINTPTR_MAX - 2 * page, UINTPTR_MAX - page, ts, te), EFAULT);
}

/* Each corruption of a valid copy must be refused as malformed.  */
static void
test_malformed (const struct sframe_obj *lib)
{
  size_t len = lib->sframe_end - lib->sframe_start;
  static const struct { const char *what; int off, size; uint32_t val; }
  bad[] = {
    { "bad magic", 0, 2, 0xe2de },
    { "version 1", H_VERSION, 1, 1 },
    { "version 4", H_VERSION, 1, 4 },
    { "unknown flag", H_FLAGS, 1, 0x81 },
    { "unsorted", H_FLAGS, 1, 0x4 },
    { ABI_OTHER_NAME, H_ABI, 1, ABI_OTHER },
    { "FDEs past the end", H_NUM_FDES, 4, 0x10000000 },
    { "FREs past the end", H_FRE_LEN, 4, 0x10000000 },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      unsigned char *c = copy_section (lib);
      memcpy (c + bad[i].off, &bad[i].val, bad[i].size);
      expect (bad[i].what, add ((uintptr_t) c, (uintptr_t) c + len,
				lib->text_start, lib->text_end), ENOEXEC);
      free (c);
    }
  unsigned char *c = copy_section (lib);
  uintptr_t t = map_text (1);
  munmap ((void *) t, page);
  c[0] ^= 0xff;
  expect ("bad magic, text not mapped: the section is checked first",
	  add ((uintptr_t) c, (uintptr_t) c + len, t, t + page), ENOEXEC);
  c[0] ^= 0xff;
  expect ("truncated header", add ((uintptr_t) c, (uintptr_t) c + H_SIZE - 1,
				   lib->text_start, lib->text_end), ENOEXEC);
  expect ("truncated tables", add ((uintptr_t) c, (uintptr_t) c + H_SIZE,
				   lib->text_start, lib->text_end), ENOEXEC);
  expect ("valid copy", add ((uintptr_t) c, (uintptr_t) c + len,
			     lib->text_start, lib->text_end), 0);
  expect ("valid copy: remove", rm ((uintptr_t) c), 0);
  free (c);
}

static void
test_unmap (const struct sframe_obj *lib)
{
  size_t len = lib->sframe_end - lib->sframe_start;
  unsigned char *c = copy_section (lib);
  uintptr_t t = map_text (3);

  expect ("anonymous text: add", add ((uintptr_t) c, (uintptr_t) c + len,
				      t, t + 3 * page), 0);
  munmap ((void *) (t + page), page);
  expect ("text partly unmapped: dropped", rm ((uintptr_t) c), ENOENT);
  munmap ((void *) t, 3 * page);

  t = map_text (2);
  expect ("mapped over: add", add ((uintptr_t) c, (uintptr_t) c + len,
				   t, t + 2 * page), 0);
  mmap ((void *) t, 2 * page, PROT_READ | PROT_EXEC,
	MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  expect ("text mapped over (MAP_FIXED): dropped", rm ((uintptr_t) c),
	  ENOENT);

  expect ("mprotect: add", add ((uintptr_t) c, (uintptr_t) c + len,
				t, t + 2 * page), 0);
  mprotect ((void *) t, 2 * page, PROT_READ);
  expect ("text mprotected, still mapped: kept", rm ((uintptr_t) c), 0);
  munmap ((void *) t, 2 * page);
  free (c);
}

static void
expect_lines (const char *what, int got, int want)
{
  if (got == want)
    printf ("PASS: [%s] %s: %d matching lines\n", sframe_entry_name[entry],
	    what, got);
  else
    {
      printf ("FAIL: [%s] %s: %d matching lines, want %d\n",
	      sframe_entry_name[entry], what, got, want);
      failures++;
    }
}

/* How many lines of /proc/self/sframe are the line for text [TS, TE)
   and section [SS, SE) of SFrame version VERSION, naming PATH (NULL:
   anonymous text, no path).  */
static int
view_has (uintptr_t ts, uintptr_t te, uintptr_t ss, uintptr_t se,
	  unsigned int version, const char *path)
{
  char want[PATH_MAX + 128], *line = NULL;
  size_t size = 0;
  int found = 0;
  FILE *f = fopen ("/proc/self/sframe", "r");

  if (f == NULL)
    {
      printf ("FAIL: open /proc/self/sframe: %m\n");
      failures++;
      return -1;
    }
  snprintf (want, sizeof want, "%08" PRIxPTR "-%08" PRIxPTR " %08" PRIxPTR
	    "-%08" PRIxPTR " v%u%s%s\n", ts, te, ss, se, version,
	    path ? " " : "", path ? path : "");
  while (getline (&line, &size, f) > 0)
    found += strcmp (line, want) == 0;
  free (line);
  fclose (f);
  return found;
}

/* The view of the registrations: what exec, PR_ADD_SFRAME,
   PR_REMOVE_SFRAME and munmap did, as /proc/self/sframe shows it.  */
static void
test_view (const struct sframe_obj *exe, const struct sframe_obj *lib)
{
  char path[PATH_MAX];
  if (realpath ("/proc/self/exe", path) == NULL)
    {
      printf ("FAIL: realpath /proc/self/exe: %m\n");
      failures++;
      return;
    }
  unsigned int version = ((unsigned char *) exe->sframe_start)[H_VERSION];
  expect_lines ("view: the executable, with its path",
		view_has (exe->text_start, exe->text_end, exe->sframe_start,
			  exe->sframe_end, version, path), 1);

  size_t len = lib->sframe_end - lib->sframe_start;
  unsigned char *c = copy_section (lib);
  uintptr_t ss = (uintptr_t) c, se = ss + len, t = map_text (2);
  version = c[H_VERSION];
  expect ("view: add", add (ss, se, t, t + 2 * page), 0);
  expect_lines ("view: anonymous text, no path",
		view_has (t, t + 2 * page, ss, se, version, NULL), 1);
  expect ("view: remove", rm (ss), 0);
  expect_lines ("view: removed section gone",
		view_has (t, t + 2 * page, ss, se, version, NULL), 0);
  expect ("view: add again", add (ss, se, t, t + 2 * page), 0);
  munmap ((void *) t, page);
  expect_lines ("view: section with unmapped text gone",
		view_has (t, t + 2 * page, ss, se, version, NULL), 0);
  munmap ((void *) t, 2 * page);
  free (c);
}

/* Many sections, read back in reads much smaller than the view: each
   shown once, in text order, across the seq_file's refills.  */
enum { VIEW_MANY = 300 };

static void
test_view_many (const struct sframe_obj *lib)
{
  size_t len = lib->sframe_end - lib->sframe_start;
  unsigned char *c[VIEW_MANY];
  uintptr_t t = map_text (VIEW_MANY);
  int added = 0;

  /* One section per page, each a copy of the library's.  */
  for (int i = 0; i < VIEW_MANY; i++)
    {
      c[i] = copy_section (lib);
      added += add ((uintptr_t) c[i], (uintptr_t) c[i] + len,
		    t + i * page, t + (i + 1) * page) == 0;
    }
  expect_lines ("view: many sections added", added, VIEW_MANY);

  char *text = NULL;
  size_t size = 0, used = 0;
  int fd = open ("/proc/self/sframe", O_RDONLY);
  if (fd < 0)
    {
      printf ("FAIL: open /proc/self/sframe: %m\n");
      failures++;
    }
  else
    {
      ssize_t n;
      do
	{
	  if (used + 64 + 1 > size)
	    text = realloc (text, size = 2 * size + 4096);
	  n = read (fd, text + used, 64);
	  if (n > 0)
	    used += n;
	}
      while (n > 0);
      close (fd);
      text[used] = '\0';
    }
  int in_order = 0;
  const char *at = text ? text : "";
  for (int i = 0; i < VIEW_MANY; i++)
    {
      char want[128];
      snprintf (want, sizeof want, "%08" PRIxPTR "-%08" PRIxPTR " %08"
		PRIxPTR "-%08" PRIxPTR " ", t + i * page, t + (i + 1) * page,
		(uintptr_t) c[i], (uintptr_t) c[i] + len);
      const char *found = strstr (at, want);
      if (found == NULL || strstr (found + 1, want) != NULL)
	break;
      in_order++;
      at = found + 1;
    }
  expect_lines ("view: many sections, each once, in text order", in_order,
		VIEW_MANY);
  free (text);
  for (int i = 0; i < VIEW_MANY; i++)
    {
      rm ((uintptr_t) c[i]);
      free (c[i]);
    }
  munmap ((void *) t, VIEW_MANY * page);
}

/* The range of the mapping /proc/self/maps names NAME: true if found.  */
static int
maps_range (const char *name, uintptr_t *lo, uintptr_t *hi)
{
  char *line = NULL;
  size_t size = 0;
  int found = 0;
  FILE *f = fopen ("/proc/self/maps", "r");

  if (f == NULL)
    return 0;
  while (!found && getline (&line, &size, f) > 0)
    {
      size_t n = strlen (line), k = strlen (name);
      found = (n > k + 1 && line[n - 1] == '\n'
	       && strncmp (line + n - 1 - k, name, k) == 0
	       && sscanf (line, "%" SCNxPTR "-%" SCNxPTR, lo, hi) == 2);
    }
  free (line);
  fclose (f);
  return found;
}

/* Run FN in a child and return its exit status, or -1.  */
static int
in_child (int (*fn) (uintptr_t, uintptr_t, uintptr_t, uintptr_t,
		     unsigned int),
	  uintptr_t ts, uintptr_t te, uintptr_t ss, uintptr_t se,
	  unsigned int version)
{
  int status;
  pid_t pid = fork ();

  if (pid == 0)
    _exit (fn (ts, te, ss, se, version));
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return -1;
  return WEXITSTATUS (status);
}

/* In a forked child: 0 if the vDSO's section is there.  */
static int
vdso_forked (uintptr_t ts, uintptr_t te, uintptr_t ss, uintptr_t se,
	     unsigned int version)
{
  return view_has (ts, te, ss, se, version, "[vdso]") == 1 ? 0 : 1;
}

/* In a forked child, which never calls into the vDSO again: move it
   with mremap; 0 if the section moved with it, 2 if the vDSO cannot be
   moved (sealed system mappings).  */
static int
vdso_moved (uintptr_t ts, uintptr_t te, uintptr_t ss, uintptr_t se,
	    unsigned int version)
{
  void *to = mmap (NULL, te - ts, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
  if (to == MAP_FAILED)
    return 3;
  void *at = mremap ((void *) ts, te - ts, te - ts,
		     MREMAP_MAYMOVE | MREMAP_FIXED, to);
  if (at == MAP_FAILED)
    return errno == EPERM ? 2 : 3;
  uintptr_t d = (uintptr_t) at - ts;
  return (view_has (ts, te, ss, se, version, "[vdso]") == 0
	  && view_has (ts + d, te + d, ss + d, se + d, version,
		       "[vdso]") == 1) ? 0 : 1;
}

/* The vDSO, which the kernel registers when it maps it: its section,
   named [vdso], for the whole mapping, in this process (registered at
   exec), in a forked child, and at the new address after mremap.  */
static void
test_vdso (void)
{
  struct sframe_obj vdso;
  uintptr_t lo, hi;

  if (!sframe_obj_find (&vdso, "linux-vdso", 0) || !vdso.sframe_start)
    {
      printf ("FAIL: the vDSO has no PT_GNU_SFRAME\n");
      failures++;
      return;
    }
  if (!maps_range ("[vdso]", &lo, &hi))
    {
      printf ("FAIL: no [vdso] in /proc/self/maps\n");
      failures++;
      return;
    }
  /* The version is the byte after the magic.  */
  unsigned int version = ((const unsigned char *) vdso.sframe_start)[2];
  expect_lines ("vdso: registered at exec",
		view_has (lo, hi, vdso.sframe_start, vdso.sframe_end,
			  version, "[vdso]"), 1);
  int rc = in_child (vdso_forked, lo, hi, vdso.sframe_start,
		     vdso.sframe_end, version);
  expect_lines ("vdso: in a forked child", rc == 0, 1);
  rc = in_child (vdso_moved, lo, hi, vdso.sframe_start, vdso.sframe_end,
		 version);
  if (rc == 2)
    printf ("SKIP: vdso: mremap: the vDSO is sealed\n");
  else
    expect_lines ("vdso: moved by mremap, only at its new address",
		  rc == 0, 1);
}

static void
test_fork (const struct sframe_obj *lib)
{
  size_t len = lib->sframe_end - lib->sframe_start;
  unsigned char *c = copy_section (lib);
  unsigned char *d = copy_section (lib);
  unsigned char *e = copy_section (lib);
  uintptr_t t = map_text (1), u = map_text (1), v = map_text (3);

  expect ("fork: add", add ((uintptr_t) c, (uintptr_t) c + len,
			    t, t + page), 0);
  expect ("fork: add dontfork text",
	  add ((uintptr_t) d, (uintptr_t) d + len, u, u + page), 0);
  madvise ((void *) u, page, MADV_DONTFORK);
  /* Only the middle page is left out: the child's text has a hole that
     a later mapping could fill.  */
  expect ("fork: add text with a dontfork page",
	  add ((uintptr_t) e, (uintptr_t) e + len, v, v + 3 * page), 0);
  madvise ((void *) (v + page), page, MADV_DONTFORK);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      failures = 0;
      expect ("fork: child has the registration", rm ((uintptr_t) c), 0);
      expect ("fork: child lacks the text it did not inherit",
	      rm ((uintptr_t) d), ENOENT);
      expect ("fork: child lacks the text it inherited in part",
	      rm ((uintptr_t) e), ENOENT);
      fflush (stdout);
      _exit (failures);
    }
  int status;
  waitpid (pid, &status, 0);
  if (!WIFEXITED (status))
    {
      printf ("FAIL: fork: child did not exit\n");
      failures++;
    }
  else
    failures += WEXITSTATUS (status);
  expect ("fork: parent keeps its own", rm ((uintptr_t) c), 0);
  expect ("fork: parent keeps dontfork text", rm ((uintptr_t) d), 0);
  expect ("fork: parent keeps text with a dontfork page",
	  rm ((uintptr_t) e), 0);
  munmap ((void *) t, page);
  munmap ((void *) u, page);
  munmap ((void *) v, 3 * page);
  free (c);
  free (d);
  free (e);
}

static void
test_exec (const struct sframe_obj *lib, const char *self)
{
  size_t len = lib->sframe_end - lib->sframe_start;
  unsigned char *c = copy_section (lib);
  uintptr_t t = map_text (1);
  char arg[32];

  expect ("exec: add", add ((uintptr_t) c, (uintptr_t) c + len,
			    t, t + page), 0);
  snprintf (arg, sizeof arg, "%d:%" PRIxPTR, (int) entry, (uintptr_t) c);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      execl (self, self, "--after-exec", arg, (char *) NULL);
      _exit (101);
    }
  int status;
  waitpid (pid, &status, 0);
  if (!WIFEXITED (status) || WEXITSTATUS (status) > 100)
    {
      printf ("FAIL: exec: child did not run\n");
      failures++;
    }
  else
    failures += WEXITSTATUS (status);
  rm ((uintptr_t) c);
  munmap ((void *) t, page);
  free (c);
}

/* Run in the new image: nothing of the old one is left.  */
static int
after_exec (const char *arg)
{
  struct sframe_obj exe;
  char *end;
  entry = strtoul (arg, &end, 10) == SFRAME_PRCTL ? SFRAME_PRCTL
	  : SFRAME_SYSCALL;
  uintptr_t old = strtoull (end + 1, NULL, 16);

  expect ("exec: the old registration is gone", rm (old), ENOENT);
  if (sframe_obj_find (&exe, "", 0))
    expect ("exec: the new executable is registered",
	    add (exe.sframe_start, exe.sframe_end, exe.text_start,
		 exe.text_end), EEXIST);
  return failures;
}

/* A minimal valid section: a header with no entries.  */
static void
test_limit (void)
{
  enum { N = 16384 + 64 };
  unsigned char hdr[H_SIZE] = { 0xe2, 0xde, 3, 0x5, ABI_NATIVE };
  unsigned char *secs = malloc ((size_t) N * H_SIZE);
  uintptr_t t = map_text (N);
  int ok = 0, err = 0, i;

  for (i = 0; i < N; i++)
    {
      memcpy (secs + (size_t) i * H_SIZE, hdr, H_SIZE);
      err = add ((uintptr_t) secs + (size_t) i * H_SIZE,
		 (uintptr_t) secs + (size_t) (i + 1) * H_SIZE,
		 t + (size_t) i * page, t + (size_t) (i + 1) * page);
      if (err)
	break;
      ok++;
    }
  int pass = ok > 16384 - 16 && ok <= 16384 && err == ENOSPC;
  printf ("%s: [%s] limit: %d sections registered before %s\n",
	  pass ? "PASS" : "FAIL", sframe_entry_name[entry], ok, ename (err));
  failures += !pass;
  expect ("limit: one more", add ((uintptr_t) secs + (size_t) i * H_SIZE,
				  (uintptr_t) secs + (size_t) (i + 1) * H_SIZE,
				  t + (size_t) i * page,
				  t + (size_t) (i + 1) * page), ENOSPC);
  munmap ((void *) t, (size_t) N * page);
  expect ("limit: all dropped by munmap", rm ((uintptr_t) secs), ENOENT);
  t = map_text (1);
  expect ("limit: room again", add ((uintptr_t) secs,
				    (uintptr_t) secs + H_SIZE, t, t + page), 0);
  munmap ((void *) t, page);
  free (secs);
}

/* The shape checks of the system calls: the structure's size, the
   fields that must be 0, empty and wrapping ranges, an unreadable
   structure.  Each must be EINVAL or EFAULT whatever else is wrong or
   right with the registration.  */
static void
test_syscall_shape (const struct sframe_obj *lib)
{
  size_t len = lib->sframe_end - lib->sframe_start;
  unsigned char *c = copy_section (lib);
  uintptr_t t = map_text (1);
  /* A valid registration in the first 32 bytes, zeros after it: a size
     other than 32 is refused for its own sake, not for the bytes.  */
  union
  {
    struct sframe_setup s;
    unsigned char bytes[2 * SFRAME_SETUP_SIZE_VER0];
  } buf;
  static const size_t sizes[] = { 0, 1, 8, 24, 31, 33, 40, 48, 64, 4096,
				  SIZE_MAX };
  char what[96];

  memset (&buf, 0, sizeof buf);
  buf.s = (struct sframe_setup) { (uintptr_t) c, len, t, page };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      snprintf (what, sizeof what, "register: structure size %zu",
		sizes[i]);
      expect (what, sframe_register_raw (&buf, sizes[i]), EINVAL);
    }
  expect ("register: unreadable structure, size 31",
	  sframe_register_raw (NULL, 31), EINVAL);
  expect ("register: structure size 32", sframe_register_raw (&buf, 32), 0);

  /* Unregister: sframe_start only.  */
  struct sframe_setup u = { .sframe_start = (uintptr_t) c };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      snprintf (what, sizeof what, "unregister: structure size %zu",
		sizes[i]);
      memset (&buf, 0, sizeof buf);
      buf.s = u;
      expect (what, sframe_unregister_raw (&buf, sizes[i]), EINVAL);
    }
  static const struct { const char *what; size_t off; } must_be_0[] = {
    { "unregister: nonzero sframe_size",
      offsetof (struct sframe_setup, sframe_size) },
    { "unregister: nonzero text_start",
      offsetof (struct sframe_setup, text_start) },
    { "unregister: nonzero text_size",
      offsetof (struct sframe_setup, text_size) },
  };
  for (size_t i = 0; i < sizeof must_be_0 / sizeof must_be_0[0]; i++)
    {
      struct sframe_setup v = u;
      uint64_t one = 1;
      memcpy ((unsigned char *) &v + must_be_0[i].off, &one, sizeof one);
      expect (must_be_0[i].what, sframe_unregister_raw (&v, sizeof v),
	      EINVAL);
    }
  expect ("unregister: structure size 32", sframe_unregister_raw (&u, 32),
	  0);
  expect ("unregister: again", sframe_unregister_raw (&u, 32), ENOENT);

  /* Empty and wrapping ranges.  */
  struct sframe_setup w = { (uintptr_t) c, len, t, page };
  w.sframe_size = 0;
  expect ("register: sframe_size 0", sframe_register_raw (&w, 32), EINVAL);
  w.sframe_size = len;
  w.text_size = 0;
  expect ("register: text_size 0", sframe_register_raw (&w, 32), EINVAL);
  w.text_size = UINT64_MAX - t + 1;
  expect ("register: text wraps to 0", sframe_register_raw (&w, 32),
	  EINVAL);
  w.text_size = UINT64_MAX;
  expect ("register: text wraps", sframe_register_raw (&w, 32), EINVAL);
  w.text_size = page;
  w.sframe_size = UINT64_MAX - (uintptr_t) c + 2;
  expect ("register: section wraps", sframe_register_raw (&w, 32), EINVAL);
  w.sframe_size = len;
  expect ("register: the same, unwrapped", sframe_register_raw (&w, 32), 0);
  expect ("unregister: the same", sframe_unregister_raw (&u, 32), 0);

  /* The structure cannot be read.  */
  void *none = mmap (NULL, 2 * page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  mprotect ((char *) none + page, page, PROT_NONE);
  struct sframe_setup *straddle
    = (void *) ((char *) none + page - SFRAME_SETUP_SIZE_VER0 / 2);
  memcpy (straddle, &w, SFRAME_SETUP_SIZE_VER0 / 2);
  const struct { const char *what; const void *p; } unreadable[] = {
    { "NULL", NULL },
    { "PROT_NONE page", (char *) none + page },
    { "across the end of its page", straddle },
    { "kernel address", (void *) -4096l },
  };
  for (size_t i = 0; i < sizeof unreadable / sizeof unreadable[0]; i++)
    {
      snprintf (what, sizeof what, "register: structure unreadable (%s)",
		unreadable[i].what);
      expect (what, sframe_register_raw (unreadable[i].p, 32), EFAULT);
      snprintf (what, sizeof what, "unregister: structure unreadable (%s)",
		unreadable[i].what);
      expect (what, sframe_unregister_raw (unreadable[i].p, 32), EFAULT);
    }
  munmap (none, 2 * page);
  munmap ((void *) t, page);
  free (c);
}

/* The shape checks of the prctls: PR_REMOVE_SFRAME's unused arguments
   must be 0.  */
static void
test_prctl_shape (const struct sframe_obj *lib)
{
  expect ("add: registered", add (lib->sframe_start, lib->sframe_end,
				  lib->text_start, lib->text_end), 0);
  for (int arg = 3; arg <= 5; arg++)
    {
      char what[64];
      snprintf (what, sizeof what, "remove with nonzero arg%d", arg);
      expect (what, prctl (PR_REMOVE_SFRAME, lib->sframe_start, arg == 3,
			   arg == 4, arg == 5) == 0 ? 0 : errno, EINVAL);
    }
  expect ("remove: still registered", rm (lib->sframe_start), 0);
}

/* A registration made through one entry is withdrawn through the
   other: one registry.  */
static void
test_cross_entries (const struct sframe_obj *lib)
{
  uintptr_t ss = lib->sframe_start, se = lib->sframe_end;
  uintptr_t ts = lib->text_start, te = lib->text_end;

  entry = SFRAME_SYSCALL;
  expect ("cross: add", add (ss, se, ts, te), 0);
  entry = SFRAME_PRCTL;
  expect ("cross: add again through the other entry", add (ss, se, ts, te),
	  EEXIST);
  expect ("cross: remove through the other entry", rm (ss), 0);
  expect ("cross: add", add (ss, se, ts, te), 0);
  entry = SFRAME_SYSCALL;
  expect ("cross: remove through the other entry", rm (ss), 0);
  entry = SFRAME_PRCTL;
  expect ("cross: removed for both", rm (ss), ENOENT);
}

/* The kernel announces the interface in the aux vector; the numbers of
   the x32 ABI do not reach it.  */
static void
test_announcement (void)
{
  errno = 0;
  unsigned long size = getauxval (AT_SFRAME_SETUP_SIZE);
  int err = errno;
  if (size == SFRAME_SETUP_SIZE_VER0 && err == 0)
    printf ("PASS: AT_SFRAME_SETUP_SIZE is %lu\n", size);
  else
    {
      printf ("FAIL: AT_SFRAME_SETUP_SIZE is %lu (%s), want %d\n", size,
	      err ? strerrorname_np (err) : "present",
	      SFRAME_SETUP_SIZE_VER0);
      failures++;
    }
#ifdef __x86_64__
  /* x32 system call numbers: bit 30 set.  x32 has no SFrame unwinding,
     its table lacks the calls whether or not this kernel has x32.  */
  struct sframe_setup s = { 0 };
  long r = syscall (0x40000000L | __NR_sframe_unregister, &s, sizeof s);
  err = r == 0 ? 0 : errno;
  if (err == ENOSYS)
    printf ("PASS: x32 sframe_unregister: ENOSYS\n");
  else
    {
      printf ("FAIL: x32 sframe_unregister: %s, want ENOSYS\n", ename (err));
      failures++;
    }
#endif
}

int
main (int argc, char **argv)
{
  struct sframe_obj exe, lib;
  int rtld_registers = 0;

  setvbuf (stdout, NULL, _IOLBF, 0);
  page = sysconf (_SC_PAGESIZE);
  if (argc == 3 && strcmp (argv[1], "--after-exec") == 0)
    return after_exec (argv[2]);
  if (argc == 2 && strcmp (argv[1], "--rtld-registers") == 0)
    rtld_registers = 1;

  struct sframe_setup none = { 0 };
  if (sframe_unregister_raw (&none, sizeof none) == ENOSYS)
    {
      printf ("FAIL: this kernel has no sframe_unregister\n");
      return 1;
    }
  if (!sframe_obj_find (&exe, "", 0))
    {
      printf ("FAIL: the test program has no PT_GNU_SFRAME\n");
      return 1;
    }
  if (dlopen ("libsframe-test.so", RTLD_NOW) == NULL
      || !sframe_obj_find (&lib, "libsframe-test.so", 0))
    {
      printf ("FAIL: libsframe-test.so: %s\n", dlerror ());
      return 1;
    }

  test_announcement ();
  test_loaded (&lib, rtld_registers);
  test_vdso ();
  for (entry = 0; entry < SFRAME_ENTRIES; entry++)
    {
      test_objects (&exe, &lib, rtld_registers);
      test_bad_arguments (&lib);
      test_malformed (&lib);
      test_unmap (&lib);
      test_view (&exe, &lib);
      test_view_many (&lib);
      test_fork (&lib);
      test_exec (&lib, "/proc/self/exe");
      test_limit ();
    }
  entry = SFRAME_SYSCALL;
  test_syscall_shape (&lib);
  entry = SFRAME_PRCTL;
  test_prctl_shape (&lib);
  test_cross_entries (&lib);
  printf ("sframe-prctl: %d failed\n", failures);
  return failures > 100 ? 100 : failures;
}
