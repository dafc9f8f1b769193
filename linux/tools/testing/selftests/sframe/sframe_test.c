// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of SFrame sections of an mm, through the
 * sframe_register() and sframe_unregister() system calls.  Tested: each
 * documented outcome (Documentation/userspace-api/sframe.rst), the shape
 * checks of the calls, the lifetime of
 * registrations across munmap(), fork() and execve(), their view in
 * /proc/self/sframe, the limit of sections per mm, the kernel's own
 * registrations of the executable, the interpreter and the vDSO,
 * sframe_register_batch(), and the AT_SFRAME_SETUP_SIZE and
 * AT_SFRAME_BATCH_MAX announcements.
 *
 * The program is built with SFrame data, so exec registers its own
 * PT_GNU_SFRAME segment.  Copies of that section on the heap, registered
 * for anonymous executable mappings, stand in for other objects.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sframe.h>

#include "../kselftest_harness.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP	4
#endif

#ifndef AT_SFRAME_SETUP_SIZE
#define AT_SFRAME_SETUP_SIZE	52
#endif
#ifndef AT_SFRAME_BATCH_MAX
#define AT_SFRAME_BATCH_MAX	53
#endif
#ifndef __NR_memfd_secret
#define __NR_memfd_secret	447
#endif
#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME		0x6474e554
#endif

static_assert(sizeof(struct sframe_setup) == SFRAME_SETUP_SIZE_VER0,
	      "struct sframe_setup is SFRAME_SETUP_SIZE_VER0 bytes");

/* Header fields (struct sframe_header in kernel/unwind/sframe_format.h). */
enum {
	H_VERSION = 2,
	H_FLAGS = 3,
	H_ABI = 4,
	H_NUM_FDES = 8,
	H_FRE_LEN = 16,
	H_SIZE = 28,
};

/*
 * This architecture's SFrame ABI, and another's, which must be refused.
 * SFrame user unwinding is for x86-64 and arm64 (little-endian) tasks;
 * elsewhere, x32 included, the tests skip.
 */
#if defined(__x86_64__) && !defined(__ILP32__)
#define ABI_NATIVE	3	/* AMD64 */
#define ABI_OTHER	2	/* AArch64 little-endian */
#define ABI_OTHER_NAME	"AArch64 ABI"
#define AUDIT_ARCH_NATIVE	AUDIT_ARCH_X86_64
#elif defined(__aarch64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ABI_NATIVE	2	/* AArch64 little-endian */
#define ABI_OTHER	3	/* AMD64 */
#define ABI_OTHER_NAME	"AMD64 ABI"
#define AUDIT_ARCH_NATIVE	AUDIT_ARCH_AARCH64
#else
#define ABI_NATIVE	0	/* none */
#define ABI_OTHER	3
#define ABI_OTHER_NAME	"AMD64 ABI"
#define AUDIT_ARCH_NATIVE	0
#endif

/* The limit of sections per mm. */
#define SFRAME_MAX_SECTIONS	16384

/* Set by the exec test for its child: run after_exec(), not the tests. */
#define AFTER_EXEC_ENV		"SFRAME_TEST_AFTER_EXEC"
/* Set by the seccomp tests for theirs: run after_seccomp_exec(). */
#define AFTER_SECCOMP_ENV	"SFRAME_TEST_AFTER_SECCOMP"

static long page;

/* The name of an answer of the calls, for the log. */
static const char *ename(int err)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
#define ENAME(e) { e, #e }
		ENAME(EACCES), ENAME(EEXIST), ENAME(EFAULT), ENAME(EINTR),
		ENAME(EINVAL), ENAME(ENOENT), ENAME(ENOEXEC), ENAME(ENOMEM),
		ENAME(ENOSPC), ENAME(ENXIO), ENAME(EPERM),
#undef ENAME
	};
	size_t i;

	if (!err)
		return "success";
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	return strerror(err);
}

/*
 * Expect @_call to answer @_want, 0 or an errno; when it does not, name
 * the case (a format and its arguments) and both answers.
 */
#define SF_CHECK_ERRNO(cmp, _want, _call, fmt, ...)			\
	do {								\
		int want = (_want), got = (_call);			\
									\
		cmp(want, got)						\
			TH_LOG(fmt ": got %s, want %s", ##__VA_ARGS__,	\
			       ename(got), ename(want));		\
	} while (0)

#define EXPECT_ERRNO(want, call, fmt, ...) \
	SF_CHECK_ERRNO(EXPECT_EQ, want, call, fmt, ##__VA_ARGS__)
#define ASSERT_ERRNO(want, call, fmt, ...) \
	SF_CHECK_ERRNO(ASSERT_EQ, want, call, fmt, ##__VA_ARGS__)

/* The system calls with any structure and size: 0 or the errno. */
static int sframe_register_raw(const void *setup, size_t size)
{
	return syscall(__NR_sframe_register, setup, size) ? errno : 0;
}

static int sframe_unregister_raw(const void *setup, size_t size)
{
	return syscall(__NR_sframe_unregister, setup, size) ? errno : 0;
}

/*
 * Register section [ss, se) for text [ts, te): 0 or the errno.  The
 * system call gets the sizes se - ss and te - ts: an inverted range
 * becomes one that wraps, which it refuses.
 */
static int sf_add(uintptr_t ss, uintptr_t se, uintptr_t ts, uintptr_t te)
{
	struct sframe_setup s = {
		.sframe_start = ss,
		.sframe_size = se - ss,
		.text_start = ts,
		.text_size = te - ts,
	};

	return sframe_register_raw(&s, sizeof(s));
}

/* Withdraw the section registered at @ss. */
static int sf_remove(uintptr_t ss)
{
	struct sframe_setup s = { .sframe_start = ss };

	return sframe_unregister_raw(&s, sizeof(s));
}

/* A program header of this ABI's ELF class. */
#define sframe_phdr	ElfW(Phdr)

/* A loaded object's SFrame section and text, from its program headers. */
struct sframe_obj {
	const char *name;
	uintptr_t sframe_start, sframe_end;
	uintptr_t text_start, text_end;
};

/* Which object sframe_obj_cb() looks for, and what it found. */
struct sframe_obj_match {
	const char *name;	/* substring of the path; "": the program */
	uintptr_t base;		/* if name is NULL: the load address */
	struct sframe_obj *obj;
	bool has_sframe;	/* it is loaded and has a PT_GNU_SFRAME */
};

static int sframe_obj_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct sframe_obj_match *m = data;
	uintptr_t ts = UINTPTR_MAX, te = 0, ss = 0, se = 0;
	uintptr_t bias = info->dlpi_addr;
	int i;

	if (!m->name ? bias != m->base :
	    !m->name[0] ? info->dlpi_name[0] != '\0' :
	    !strstr(info->dlpi_name, m->name))
		return 0;
	m->obj->name = info->dlpi_name;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const sframe_phdr *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_GNU_SFRAME) {
			ss = bias + ph->p_vaddr;
			se = ss + ph->p_memsz;
		} else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			if (bias + ph->p_vaddr < ts)
				ts = bias + ph->p_vaddr;
			if (bias + ph->p_vaddr + ph->p_memsz > te)
				te = bias + ph->p_vaddr + ph->p_memsz;
		}
	}
	if (ss == 0 || ss == se || ts >= te)
		return 1;
	m->obj->sframe_start = ss;
	m->obj->sframe_end = se;
	m->obj->text_start = ts;
	m->obj->text_end = te;
	m->has_sframe = true;
	return 1;
}

/*
 * Fill @obj for the loaded object whose path contains @name ("" for the
 * program itself), or if @name is NULL the one loaded at @base.  True if
 * it has a PT_GNU_SFRAME; @obj->name is set if it is loaded at all.
 */
static bool sframe_obj_find(struct sframe_obj *obj, const char *name,
			    uintptr_t base)
{
	struct sframe_obj_match m = { .name = name, .base = base, .obj = obj };

	memset(obj, 0, sizeof(*obj));
	dl_iterate_phdr(sframe_obj_cb, &m);
	return m.has_sframe;
}

static int sf_add_obj(const struct sframe_obj *o)
{
	return sf_add(o->sframe_start, o->sframe_end, o->text_start,
		      o->text_end);
}

/* What the kernel answers to a system call number it does not have. */
static int no_such_syscall(void)
{
	return syscall(-1L) ? errno : 0;
}

/*
 * Why the tests cannot run here, or NULL: a kernel without the interface,
 * or (if @exe is not NULL, filled then) a program built without SFrame.
 */
static const char *sframe_unavailable(struct sframe_obj *exe)
{
	struct sframe_setup none = { 0 };

	if (exe)
		memset(exe, 0, sizeof(*exe));
	if (!ABI_NATIVE)
		return "no SFrame user unwinding for this ABI";
	if (sframe_unregister_raw(&none, sizeof(none)) == no_such_syscall())
		return "this kernel has no sframe_unregister()";
	if (exe && !sframe_obj_find(exe, "", 0))
		return "the program has no PT_GNU_SFRAME (no as --gsframe)";
	return NULL;
}

/* Anonymous executable memory standing in for an object's text. */
static uintptr_t map_text(struct __test_metadata *_metadata, size_t pages)
{
	void *p = mmap(NULL, pages * page, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p)
		TH_LOG("mmap of %zu pages: %s", pages, strerror(errno));
	return (uintptr_t)p;
}

/*
 * A copy of a valid SFrame section on the heap: a section need not be
 * inside its object, so copies can be registered for any text.
 */
static unsigned char *copy_section(struct __test_metadata *_metadata,
				   const struct sframe_obj *o)
{
	size_t len = o->sframe_end - o->sframe_start;
	unsigned char *c = malloc(len);

	ASSERT_NE(NULL, c);
	memcpy(c, (void *)o->sframe_start, len);
	return c;
}

/*
 * How many lines of /proc/self/sframe show text [ts, te) and section
 * [ss, se), naming @path (NULL: anonymous text, no path), with a header
 * column the kernel may show (-, v2, v3 or refused); -1 if it cannot be
 * read.  If @header is not NULL, the last such line's header column is
 * copied to it (8 bytes).
 */
static int view_header(uintptr_t ts, uintptr_t te, uintptr_t ss,
		       uintptr_t se, const char *path, char *header)
{
	char ranges[128], tail[PATH_MAX + 8], *line = NULL;
	size_t size = 0, n;
	int found = 0;
	FILE *f = fopen("/proc/self/sframe", "r");

	if (!f)
		return -1;
	n = snprintf(ranges, sizeof(ranges), "%08lx-%08lx %08lx-%08lx ",
		     (unsigned long)ts, (unsigned long)te, (unsigned long)ss,
		     (unsigned long)se);
	snprintf(tail, sizeof(tail), "%s%s\n", path ? " " : "",
		 path ? path : "");
	while (getline(&line, &size, f) > 0) {
		static const char *const headers[] = {
			"-", "v2", "v3", "refused"
		};
		size_t i, h;

		if (strncmp(line, ranges, n))
			continue;
		for (i = 0; i < ARRAY_SIZE(headers); i++) {
			h = strlen(headers[i]);
			if (!strncmp(line + n, headers[i], h) &&
			    !strcmp(line + n + h, tail))
				break;
		}
		if (i == ARRAY_SIZE(headers))
			continue;
		found++;
		if (header)
			strcpy(header, headers[i]);
	}
	free(line);
	fclose(f);
	return found;
}

static int view_has(uintptr_t ts, uintptr_t te, uintptr_t ss, uintptr_t se,
		    const char *path)
{
	return view_header(ts, te, ss, se, path, NULL);
}

/* Run in the new image by the constructor below: nothing old is left. */
static int after_exec(const char *arg)
{
	struct sframe_obj exe;
	unsigned long old;
	int err, ret = 0;
	char *end;

	errno = 0;
	old = strtoul(arg, &end, 16);
	if (errno || end == arg || *end) {
		ksft_print_msg("after exec: bad %s=%s\n", AFTER_EXEC_ENV, arg);
		return 4;
	}
	err = sf_remove(old);
	if (err != ENOENT) {
		ksft_print_msg("after exec: the old registration: %s\n",
			       ename(err));
		ret |= 1;
	}
	if (!sframe_obj_find(&exe, "", 0)) {
		ksft_print_msg("after exec: no PT_GNU_SFRAME\n");
		return ret | 4;
	}
	err = sf_add_obj(&exe);
	if (err != EEXIST) {
		ksft_print_msg("after exec: the new program, added: %s\n",
			       ename(err));
		ret |= 2;
	}
	return ret;
}

/*
 * Run in the new image of a seccomp test's child, under the filter it
 * inherited: ARG is "SIZE:BATCH:ERR", the AT_SFRAME_SETUP_SIZE and
 * AT_SFRAME_BATCH_MAX the kernel must announce and what registering
 * the program again must answer, or -1 to make no call (the filter
 * kills for it).
 */
static int after_seccomp_exec(const char *arg)
{
	unsigned long want, size = getauxval(AT_SFRAME_SETUP_SIZE);
	unsigned long want_batch, batch = getauxval(AT_SFRAME_BATCH_MAX);
	struct sframe_obj exe;
	int err, want_err;

	if (sscanf(arg, "%lu:%lu:%d", &want, &want_batch, &want_err) != 3) {
		ksft_print_msg("after exec: bad %s=%s\n", AFTER_SECCOMP_ENV, arg);
		return 4;
	}
	if (size != want) {
		ksft_print_msg("after exec: AT_SFRAME_SETUP_SIZE %lu, want %lu\n",
			       size, want);
		return 1;
	}
	if (batch != want_batch) {
		ksft_print_msg("after exec: AT_SFRAME_BATCH_MAX %lu, want %lu\n",
			       batch, want_batch);
		return 1;
	}
	if (want_err < 0)
		return 0;
	if (!sframe_obj_find(&exe, "", 0)) {
		ksft_print_msg("after exec: no PT_GNU_SFRAME\n");
		return 4;
	}
	err = sf_add_obj(&exe);
	if (err != want_err) {
		ksft_print_msg("after exec: the program, added: %s, want %s\n",
			       ename(err), ename(want_err));
		return 2;
	}
	return 0;
}

/*
 * TEST_HARNESS_MAIN owns main(): the exec and seccomp tests' children are
 * told by the environment to run their checks here, and exit with their
 * result.
 */
static void __attribute__((constructor)) sframe_test_init(void)
{
	const char *arg = getenv(AFTER_EXEC_ENV);
	const char *sec = getenv(AFTER_SECCOMP_ENV);
	int ret;

	page = sysconf(_SC_PAGESIZE);
	if (!arg && !sec)
		return;
	ret = arg ? after_exec(arg) : after_seccomp_exec(sec);
	fflush(stdout);
	_exit(ret);
}

/* The kernel registers the interpreter's section at exec, if it has one. */
TEST(interpreter_registered_by_exec)
{
	uintptr_t base = getauxval(AT_BASE);
	const char *why = sframe_unavailable(NULL);
	struct sframe_obj interp;

	if (why)
		SKIP(return, "%s", why);
	if (!base)
		SKIP(return, "no interpreter: a static executable");
	if (!sframe_obj_find(&interp, NULL, base))
		SKIP(return, "the interpreter %s has no PT_GNU_SFRAME",
		     interp.name ? interp.name : "(not found)");
	EXPECT_ERRNO(EEXIST, sf_add_obj(&interp),
		     "interpreter %s registered by exec (add again)",
		     interp.name);
}

/*
 * The shape checks of the system calls: the structure's size, the fields
 * that must be 0, empty and wrapping ranges, an unreadable structure.
 * Each is EINVAL or EFAULT whatever else is wrong or right with the
 * registration.
 */
TEST(syscall_shape)
{
	static const size_t sizes[] = {
		0, 1, 8, 24, 31, 33, 40, 48, 64, 4096, SIZE_MAX
	};
	static const struct {
		const char *what;
		size_t off;
	} must_be_0[] = {
		{ "sframe_size", offsetof(struct sframe_setup, sframe_size) },
		{ "text_start", offsetof(struct sframe_setup, text_start) },
		{ "text_size", offsetof(struct sframe_setup, text_size) },
	};
	static const char *const unreadable_what[] = {
		"NULL", "PROT_NONE page", "across the end of its page",
		"kernel address",
	};
	const void *unreadable[ARRAY_SIZE(unreadable_what)];
	/*
	 * A valid registration in the first 32 bytes, zeros after it: a
	 * size other than 32 is refused for its own sake, not for the bytes.
	 */
	union {
		struct sframe_setup s;
		unsigned char bytes[2 * SFRAME_SETUP_SIZE_VER0];
	} buf;
	struct sframe_setup u, w, *straddle;
	struct sframe_obj exe;
	const char *why = sframe_unavailable(&exe);
	unsigned char *c;
	size_t len, i;
	uintptr_t t;
	char *none;

	if (why)
		SKIP(return, "%s", why);
	len = exe.sframe_end - exe.sframe_start;
	c = copy_section(_metadata, &exe);
	t = map_text(_metadata, 1);

	memset(&buf, 0, sizeof(buf));
	buf.s = (struct sframe_setup) { (uintptr_t)c, len, t, page };
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		EXPECT_ERRNO(EINVAL, sframe_register_raw(&buf, sizes[i]),
			     "register: structure size %zu", sizes[i]);
	EXPECT_ERRNO(EINVAL, sframe_register_raw(NULL, 31),
		     "register: unreadable structure, size 31");
	EXPECT_ERRNO(0, sframe_register_raw(&buf, 32),
		     "register: structure size 32");

	/* Unregister: sframe_start only. */
	u = (struct sframe_setup) { .sframe_start = (uintptr_t)c };
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		memset(&buf, 0, sizeof(buf));
		buf.s = u;
		EXPECT_ERRNO(EINVAL, sframe_unregister_raw(&buf, sizes[i]),
			     "unregister: structure size %zu", sizes[i]);
	}
	for (i = 0; i < ARRAY_SIZE(must_be_0); i++) {
		uint64_t one = 1;
		struct sframe_setup v = u;

		memcpy((unsigned char *)&v + must_be_0[i].off, &one,
		       sizeof(one));
		EXPECT_ERRNO(EINVAL, sframe_unregister_raw(&v, sizeof(v)),
			     "unregister: nonzero %s", must_be_0[i].what);
	}
	EXPECT_ERRNO(0, sframe_unregister_raw(&u, 32),
		     "unregister: structure size 32");
	EXPECT_ERRNO(ENOENT, sframe_unregister_raw(&u, 32),
		     "unregister: again");

	/* Empty and wrapping ranges. */
	w = (struct sframe_setup) { (uintptr_t)c, len, t, page };
	w.sframe_size = 0;
	EXPECT_ERRNO(EINVAL, sframe_register_raw(&w, 32),
		     "register: sframe_size 0");
	w.sframe_size = len;
	w.text_size = 0;
	EXPECT_ERRNO(EINVAL, sframe_register_raw(&w, 32),
		     "register: text_size 0");
	w.text_size = UINT64_MAX - t + 1;
	EXPECT_ERRNO(EINVAL, sframe_register_raw(&w, 32),
		     "register: text wraps to 0");
	w.text_size = UINT64_MAX;
	EXPECT_ERRNO(EINVAL, sframe_register_raw(&w, 32),
		     "register: text wraps");
	w.text_size = page;
	w.sframe_size = UINT64_MAX - (uintptr_t)c + 2;
	EXPECT_ERRNO(EINVAL, sframe_register_raw(&w, 32),
		     "register: section wraps");
	w.sframe_size = len;
	EXPECT_ERRNO(0, sframe_register_raw(&w, 32),
		     "register: the same, unwrapped");
	EXPECT_ERRNO(0, sframe_unregister_raw(&u, 32),
		     "unregister: the same");

	/* The structure cannot be read. */
	none = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, none);
	ASSERT_EQ(0, mprotect(none + page, page, PROT_NONE));
	straddle = (void *)(none + page - SFRAME_SETUP_SIZE_VER0 / 2);
	memcpy(straddle, &w, SFRAME_SETUP_SIZE_VER0 / 2);
	unreadable[0] = NULL;
	unreadable[1] = none + page;
	unreadable[2] = straddle;
	unreadable[3] = (void *)-4096L;
	for (i = 0; i < ARRAY_SIZE(unreadable); i++) {
		EXPECT_ERRNO(EFAULT, sframe_register_raw(unreadable[i], 32),
			     "register: structure unreadable (%s)",
			     unreadable_what[i]);
		EXPECT_ERRNO(EFAULT, sframe_unregister_raw(unreadable[i], 32),
			     "unregister: structure unreadable (%s)",
			     unreadable_what[i]);
	}
	munmap(none, 2 * page);
	munmap((void *)t, page);
	free(c);
}

/*
 * sframe_register_batch() of setups[0, n): the number registered, or
 * -errno when the first is refused.
 */
static long sf_batch(const struct sframe_setup *setups, unsigned int n,
		     size_t size)
{
	long r = syscall(__NR_sframe_register_batch, setups, n, size);

	return r < 0 ? -errno : r;
}

/* How many of setups[0, n) are registered; each is withdrawn. */
static int sf_batch_withdraw(const struct sframe_setup *setups, int n)
{
	int i, done = 0;

	for (i = 0; i < n; i++)
		done += sf_remove(setups[i].sframe_start) == 0;
	return done;
}

/*
 * A batch registers its structures in turn and stops at the first
 * refused, whichever check refuses it and wherever it is, past the
 * kernel's groups of 32 included; the ones before it stay.
 */
TEST(syscall_batch)
{
	enum {
		N = 70,		/* more than two of the kernel's groups */
	};
	static const unsigned char hdr[H_SIZE] = {
		0xe2, 0xde, 3, 0x5, ABI_NATIVE
	};
	const char *why = sframe_unavailable(NULL);
	struct sframe_setup *set;
	unsigned char *secs;
	uintptr_t t, ss;
	void *none;
	int i;

	if (why)
		SKIP(return, "%s", why);
	if (!getauxval(AT_SFRAME_BATCH_MAX))
		SKIP(return, "AT_SFRAME_BATCH_MAX is 0: no batches");
	secs = malloc((size_t)N * H_SIZE);
	ASSERT_NE(NULL, secs);
	/* The array ends where an unreadable page starts. */
	none = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, none);
	ASSERT_EQ(0, mprotect((char *)none + page, page, PROT_NONE));
	set = (struct sframe_setup *)((char *)none + page) - N;
	t = map_text(_metadata, N);
	for (i = 0; i < N; i++) {
		ss = (uintptr_t)secs + (size_t)i * H_SIZE;
		memcpy((void *)ss, hdr, H_SIZE);
		set[i] = (struct sframe_setup) {
			.sframe_start = ss,
			.sframe_size = H_SIZE,
			.text_start = t + (size_t)i * page,
			.text_size = page,
		};
	}

	/* The shape: the count and the structure's size. */
	EXPECT_EQ(-EINVAL, sf_batch(set, 0, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(-EINVAL, sf_batch(set, SFRAME_BATCH_MAX + 1,
				    SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(-EINVAL, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0 - 1));
	EXPECT_EQ(-EINVAL, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0 + 8));
	EXPECT_EQ(0, sf_batch_withdraw(set, N));

	/* A batch of one, which takes sframe_register()'s path. */
	EXPECT_EQ(1, sf_batch(set, 1, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(-EEXIST, sf_batch(set, 1, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(1, sf_batch_withdraw(set, N));

	/* All of it. */
	EXPECT_EQ(N, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0));
	for (i = 0; i < N; i += 33)
		EXPECT_EQ(1, view_has(set[i].text_start,
				      set[i].text_start + page,
				      set[i].sframe_start,
				      set[i].sframe_start + H_SIZE, NULL))
			TH_LOG("batch: structure %d not in /proc/self/sframe",
			       i);
	EXPECT_EQ(N, sf_batch_withdraw(set, N));

	/*
	 * Refused before the locks: the first of the second group, and one
	 * in the last group, which is not full.
	 */
	for (i = 32; i < N; i += 34) {
		set[i].sframe_size = 0;
		EXPECT_EQ(i, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0));
		EXPECT_EQ(i, sf_batch_withdraw(set, N));
		set[i].sframe_size = H_SIZE;
	}

	/* Refused under the locks in the last group: its text is gone. */
	ASSERT_EQ(0, munmap((void *)set[66].text_start, page));
	EXPECT_EQ(66, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(66, sf_batch_withdraw(set, N));
	ASSERT_EQ((void *)set[66].text_start,
		  mmap((void *)set[66].text_start, page,
		       PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));

	/* Structure 40's text is gone: 40 registered, then ENXIO. */
	ASSERT_EQ(0, munmap((void *)set[40].text_start, page));
	EXPECT_EQ(40, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(-ENXIO, sf_batch(&set[40], N - 40, SFRAME_SETUP_SIZE_VER0))
		TH_LOG("batch: a call from the refused structure");
	EXPECT_EQ(N - 41, sf_batch(&set[41], N - 41, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(N - 1, sf_batch_withdraw(set, N));
	ASSERT_EQ((void *)set[40].text_start,
		  mmap((void *)set[40].text_start, page,
		       PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));

	/* The first refused: nothing registered. */
	set[0].sframe_size = 0;
	EXPECT_EQ(-EINVAL, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(0, sf_batch_withdraw(set, N));
	set[0].sframe_size = H_SIZE;

	/* Too short for a header, in the middle: ENOEXEC from a call. */
	set[7].sframe_size = H_SIZE - 1;
	EXPECT_EQ(7, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(-ENOEXEC, sf_batch(&set[7], 1, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(7, sf_batch_withdraw(set, N));
	set[7].sframe_size = H_SIZE;

	/*
	 * The first refused under the locks (its text is gone), a later one
	 * before them: the first's errno, since the order is the array's.
	 */
	ASSERT_EQ(0, munmap((void *)set[0].text_start, page));
	set[5].sframe_size = 0;
	EXPECT_EQ(-ENXIO, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(0, sf_batch_withdraw(set, N));
	set[5].sframe_size = H_SIZE;
	ASSERT_EQ((void *)set[0].text_start,
		  mmap((void *)set[0].text_start, page,
		       PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));

	/* The same structure twice: the second is refused. */
	set[3] = set[2];
	EXPECT_EQ(3, sf_batch(set, N, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(-EEXIST, sf_batch(&set[3], 1, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(3, sf_batch_withdraw(set, 3));
	set[3].sframe_start = (uintptr_t)secs + 3 * H_SIZE;
	set[3].text_start = t + 3 * page;

	/*
	 * A count past the readable array: the structures up to the
	 * unreadable page, then EFAULT; from there, EFAULT at once.
	 */
	EXPECT_EQ(N - 1, sf_batch(&set[1], N, SFRAME_SETUP_SIZE_VER0))
		TH_LOG("batch: past the array");
	EXPECT_EQ(-EFAULT, sf_batch(&set[N], 1, SFRAME_SETUP_SIZE_VER0));
	EXPECT_EQ(N - 1, sf_batch_withdraw(set, N));

	munmap((void *)t, (size_t)N * page);
	munmap(none, 2 * page);
	free(secs);
}

/* The kernel announces the interface in the aux vector. */
TEST(at_sframe_setup_size)
{
	const char *why = sframe_unavailable(NULL);
	unsigned long size;
	int err;

	if (why)
		SKIP(return, "%s", why);
	errno = 0;
	size = getauxval(AT_SFRAME_SETUP_SIZE);
	err = errno;
	ASSERT_EQ(0, err)
		TH_LOG("AT_SFRAME_SETUP_SIZE is not in the aux vector");
	EXPECT_EQ(SFRAME_SETUP_SIZE_VER0, size)
		TH_LOG("AT_SFRAME_SETUP_SIZE is %lu, want %d", size,
		       SFRAME_SETUP_SIZE_VER0);
	errno = 0;
	size = getauxval(AT_SFRAME_BATCH_MAX);
	err = errno;
	ASSERT_EQ(0, err)
		TH_LOG("AT_SFRAME_BATCH_MAX is not in the aux vector");
	EXPECT_EQ(SFRAME_BATCH_MAX, size)
		TH_LOG("AT_SFRAME_BATCH_MAX is %lu, want %d", size,
		       SFRAME_BATCH_MAX);
}

/*
 * The announcement says what the kernel supports, whatever seccomp
 * filters the process inherits at execve(): a sandbox that does not know
 * the calls answers them as it answers any system call newer than
 * itself.  A child installs FILTER, execs this program and checks in the
 * new image (after_seccomp_exec()) that AT_SFRAME_SETUP_SIZE is WANT and
 * AT_SFRAME_BATCH_MAX WANT_BATCH, and, unless WANT_ERR is -1, that
 * registering the program answers WANT_ERR.
 */
#define LOAD_NR		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, \
				 offsetof(struct seccomp_data, nr))
#define LOAD_ARCH	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, \
				 offsetof(struct seccomp_data, arch))
#define RET(action)	BPF_STMT(BPF_RET | BPF_K, (action))

static void seccomp_exec(struct __test_metadata *_metadata,
			 struct sock_filter *filter, unsigned short len,
			 unsigned long want, unsigned long want_batch,
			 int want_err)
{
	struct sock_fprog prog = { .len = len, .filter = filter };
	static char *const argv[] = { "sframe_test", NULL };
	char env[64], *envp[] = { env, NULL };
	const char *why = sframe_unavailable(NULL);
	int status;
	pid_t pid;

	if (why)
		SKIP(return, "%s", why);
	snprintf(env, sizeof(env), "%s=%lu:%lu:%d", AFTER_SECCOMP_ENV, want,
		 want_batch, want_err);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
			ksft_print_msg("seccomp filter: %s\n", strerror(errno));
			fflush(stdout);
			_exit(126);
		}
		execve("/proc/self/exe", argv, envp);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_FALSE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
		TH_LOG("killed by its seccomp filter (SIGSYS)");
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("child did not exit: status %#x", status);
	ASSERT_NE(126, WEXITSTATUS(status))
		TH_LOG("the filter could not be installed");
	ASSERT_NE(127, WEXITSTATUS(status))
		TH_LOG("the program could not be run again");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("the checks in the new image failed (above)");
}

/*
 * Killed for the calls, as by a sandbox whose list predates them: the
 * size all the same.  The new image makes no call.
 */
TEST(seccomp_kill_announces)
{
	struct sock_filter filter[] = {
		LOAD_ARCH,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 0, 4),
		LOAD_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_register, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_unregister, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		RET(SECCOMP_RET_KILL_PROCESS),
	};

	seccomp_exec(_metadata, filter, ARRAY_SIZE(filter),
		     SFRAME_SETUP_SIZE_VER0, SFRAME_BATCH_MAX, -1);
}

/* Calls failed with an errno: the size, and that errno. */
TEST(seccomp_errno_announces)
{
	struct sock_filter filter[] = {
		LOAD_NR,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_register, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_unregister, 0, 1),
		RET(SECCOMP_RET_ERRNO | EPERM),
		RET(SECCOMP_RET_ALLOW),
	};

	seccomp_exec(_metadata, filter, ARRAY_SIZE(filter),
		     SFRAME_SETUP_SIZE_VER0, SFRAME_BATCH_MAX, EPERM);
}

#if defined(__x86_64__) && !defined(__ILP32__)
#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT	0x40000000
#endif

/*
 * x32 callers get ENOSYS: x32 tasks are not unwound with SFrame.  So
 * does a kernel without x32.
 */
TEST(x32_syscalls_enosys)
{
	static const struct {
		const char *name;
		long nr;
	} calls[] = {
		{ "sframe_register", __NR_sframe_register },
		{ "sframe_unregister", __NR_sframe_unregister },
	};
	const char *why = sframe_unavailable(NULL);
	struct sframe_setup s = { 0 };
	size_t i;

	if (why)
		SKIP(return, "%s", why);
	for (i = 0; i < ARRAY_SIZE(calls); i++)
		EXPECT_ERRNO(no_such_syscall(),
			     syscall(__X32_SYSCALL_BIT | calls[i].nr, &s,
				     sizeof(s)) ? errno : 0,
			     "x32 %s()", calls[i].name);
}
#endif

/* The vDSO's registration: its section, for its whole mapping. */
struct vdso_reg {
	uintptr_t ts, te, ss, se;
};

/* The range of the mapping that /proc/self/maps names @name. */
static bool maps_range(const char *name, uintptr_t *lo, uintptr_t *hi)
{
	unsigned long l, h;
	size_t size = 0, k = strlen(name), n;
	char *line = NULL;
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return false;
	while (!found && getline(&line, &size, f) > 0) {
		n = strlen(line);
		found = n > k + 1 && line[n - 1] == '\n' &&
			strncmp(line + n - 1 - k, name, k) == 0 &&
			sscanf(line, "%lx-%lx", &l, &h) == 2;
	}
	if (found) {
		*lo = l;
		*hi = h;
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * Fill @r for the vDSO: NULL, or why the vDSO tests cannot run.  The
 * range is that of its mapping in /proc/self/maps, which must be there.
 */
static const char *vdso_find(struct __test_metadata *_metadata,
			     struct vdso_reg *r)
{
	const char *why = sframe_unavailable(NULL);
	struct sframe_obj vdso;

	if (why)
		return why;
	if (!getauxval(AT_SYSINFO_EHDR))
		return "no vDSO";
	if (!sframe_obj_find(&vdso, "linux-vdso", 0))
		return "the vDSO has no PT_GNU_SFRAME (built without SFrame)";
	ASSERT_TRUE(maps_range("[vdso]", &r->ts, &r->te))
		TH_LOG("no [vdso] in /proc/self/maps");
	r->ss = vdso.sframe_start;
	r->se = vdso.sframe_end;
	return NULL;
}

/*
 * Run @fn in a child, which calls into the vDSO no more: its exit
 * status, or -1.
 */
static int in_child(int (*fn)(const struct vdso_reg *),
		    const struct vdso_reg *r)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		_exit(fn(r));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* 0 if the vDSO's section is shown (in a forked child). */
static int vdso_shown(const struct vdso_reg *r)
{
	return view_has(r->ts, r->te, r->ss, r->se,
			"[vdso]") == 1 ? 0 : 1;
}

/*
 * Move the vDSO with mremap(): 0 if its section moved with it, 1 if not,
 * 2 if the vDSO cannot be moved (sealed system mappings), 3 if mapping
 * failed.
 */
static int vdso_moved(const struct vdso_reg *r)
{
	size_t len = r->te - r->ts;
	void *to, *at;
	uintptr_t d;

	to = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (to == MAP_FAILED)
		return 3;
	at = mremap((void *)r->ts, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
		    to);
	if (at == MAP_FAILED)
		return errno == EPERM ? 2 : 3;
	d = (uintptr_t)at - r->ts;
	if (view_has(r->ts, r->te, r->ss, r->se, "[vdso]") != 0)
		return 1;
	if (view_has(r->ts + d, r->te + d, r->ss + d, r->se + d,
		     "[vdso]") != 1)
		return 1;
	return 0;
}

/* The kernel registers the vDSO when it maps it at exec. */
TEST(vdso_registered_at_exec)
{
	struct vdso_reg r;
	const char *why = vdso_find(_metadata, &r);

	if (why)
		SKIP(return, "%s", why);
	EXPECT_EQ(1, view_has(r.ts, r.te, r.ss, r.se, "[vdso]"))
		TH_LOG("vdso: %08lx-%08lx not shown once in /proc/self/sframe",
		       r.ts, r.te);
}

/* fork() copies the vDSO's registration. */
TEST(vdso_in_forked_child)
{
	struct vdso_reg r;
	const char *why = vdso_find(_metadata, &r);

	if (why)
		SKIP(return, "%s", why);
	EXPECT_EQ(0, in_child(vdso_shown, &r))
		TH_LOG("vdso: not shown once in a forked child");
}

/* mremap() of the vDSO moves its registration (where it can be moved). */
TEST(vdso_moved_by_mremap)
{
	struct vdso_reg r;
	const char *why = vdso_find(_metadata, &r);
	int rc;

	if (why)
		SKIP(return, "%s", why);
	rc = in_child(vdso_moved, &r);
	if (rc == 2)
		SKIP(return, "the vDSO cannot be moved (sealed)");
	ASSERT_NE(3, rc)
		TH_LOG("vdso: mmap or mremap failed");
	EXPECT_EQ(0, rc)
		TH_LOG("vdso: moved, not shown at its new address only");
}

/* Each test with the program's own section at hand. */
FIXTURE(sframe) {
	struct sframe_obj exe;	/* the program, registered by exec */
	size_t len;		/* the size of its section */
};

FIXTURE_SETUP(sframe)
{
	const char *why = sframe_unavailable(&self->exe);

	if (why)
		SKIP(return, "%s", why);
	self->len = self->exe.sframe_end - self->exe.sframe_start;
}

FIXTURE_TEARDOWN(sframe)
{
}

/* binfmt_elf registered the program at exec. */
TEST_F(sframe, executable_registered_by_exec)
{
	const struct sframe_obj *x = &self->exe;
	unsigned char *c = copy_section(_metadata, x);

	EXPECT_ERRNO(EEXIST, sf_add_obj(x),
		     "executable registered by exec (add again)");
	EXPECT_ERRNO(EEXIST, sf_add((uintptr_t)c, (uintptr_t)c + self->len,
				    x->text_start + 1, x->text_start + 2),
		     "another section for text in the executable's");
	EXPECT_ERRNO(0, sf_remove(x->sframe_start), "executable: remove");
	EXPECT_ERRNO(0, sf_add_obj(x), "executable: add back");
	free(c);
}

/* Another object's section: registered once, withdrawn once. */
TEST_F(sframe, add_and_remove)
{
	unsigned char *c = copy_section(_metadata, &self->exe);
	unsigned char *d = copy_section(_metadata, &self->exe);
	uintptr_t ss = (uintptr_t)c, se = ss + self->len;
	uintptr_t t = map_text(_metadata, 2), u = map_text(_metadata, 1);

	EXPECT_ERRNO(0, sf_add(ss, se, t, t + 2 * page), "add");
	EXPECT_ERRNO(EEXIST, sf_add(ss, se, t, t + 2 * page), "add twice");
	EXPECT_ERRNO(EEXIST, sf_add((uintptr_t)d, (uintptr_t)d + self->len,
				    t + 1, t + 2),
		     "another section for overlapping text");
	/*
	 * Withdrawal is keyed by the section's start: one start cannot
	 * stand for two registrations.
	 */
	EXPECT_ERRNO(EEXIST, sf_add(ss, se, u, u + page),
		     "section start registered for other text");
	EXPECT_ERRNO(0, sf_remove(ss), "remove");
	EXPECT_ERRNO(ENOENT, sf_remove(ss), "remove twice");
	EXPECT_ERRNO(ENOENT, sf_remove((uintptr_t)d), "remove unknown");
	munmap((void *)u, page);
	munmap((void *)t, 2 * page);
	free(d);
	free(c);
}

/* Registrations that are wrong in one way each. */
TEST_F(sframe, bad_arguments)
{
	unsigned char *c = copy_section(_metadata, &self->exe);
	uintptr_t ss = (uintptr_t)c, se = ss + self->len;
	uintptr_t ts = map_text(_metadata, 1), te = ts + page, t;
	static int data_word;
	void *none;

	EXPECT_ERRNO(EINVAL, sf_add(ss, ss, ts, te), "empty section");
	EXPECT_ERRNO(EINVAL, sf_add(se, ss, ts, te), "inverted section");
	EXPECT_ERRNO(EINVAL, sf_add(ss, se, ts, ts), "empty text");
	EXPECT_ERRNO(EINVAL, sf_add(ss, se, te, ts), "inverted text");
	EXPECT_ERRNO(EACCES, sf_add(ss, se, (uintptr_t)&data_word,
				    (uintptr_t)&data_word + 4),
		     "text not executable (data)");
	t = map_text(_metadata, 1);
	munmap((void *)t, page);
	EXPECT_ERRNO(ENXIO, sf_add(ss, se, t, t + page), "text not mapped");
	t = map_text(_metadata, 3);
	munmap((void *)(t + page), page);
	EXPECT_ERRNO(ENXIO, sf_add(ss, se, t, t + 3 * page),
		     "text with a hole");
	EXPECT_ERRNO(ENXIO, sf_add(ss, se, t, t + 2 * page),
		     "text running past its mapping");
	munmap((void *)t, 3 * page);

	/* Mapped without holes, but not executable throughout. */
	t = map_text(_metadata, 3);
	ASSERT_EQ(0, mprotect((void *)t, page, PROT_READ));
	EXPECT_ERRNO(EACCES, sf_add(ss, se, t, t + 3 * page),
		     "text not executable at its start");
	ASSERT_EQ(0, mprotect((void *)t, page, PROT_READ | PROT_EXEC));
	ASSERT_EQ(0, mprotect((void *)(t + 2 * page), page, PROT_READ));
	EXPECT_ERRNO(EACCES, sf_add(ss, se, t, t + 3 * page),
		     "text not executable at its end");
	ASSERT_EQ(0, mprotect((void *)(t + 2 * page), page,
			      PROT_READ | PROT_EXEC));
	ASSERT_EQ(0, mprotect((void *)(t + page), page, PROT_READ));
	EXPECT_ERRNO(EACCES, sf_add(ss, se, t, t + 3 * page),
		     "text not executable in its middle");
	/* A hole and no execute permission: the hole is what is reported. */
	ASSERT_EQ(0, mprotect((void *)(t + 2 * page), page, PROT_READ));
	munmap((void *)(t + page), page);
	EXPECT_ERRNO(ENXIO, sf_add(ss, se, t, t + 3 * page),
		     "text with a hole, not executable at its end");
	munmap((void *)t, 3 * page);

	/* Registration reads nothing of the section: an unwind would. */
	none = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, none);
	EXPECT_ERRNO(0, sf_add((uintptr_t)none, (uintptr_t)none + page,
			       ts, te),
		     "section unreadable: accepted");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)none),
		     "section unreadable: remove");
	munmap(none, page);
	EXPECT_ERRNO(EFAULT, sf_add(UINTPTR_MAX - 2 * page,
				    UINTPTR_MAX - page, ts, te),
		     "section in kernel space");
	munmap((void *)ts, page);
	free(c);
}

/*
 * Registration reads nothing of the section, so it accepts any
 * corruption of a valid copy (the unwinder checks the header when it
 * reads the section); it refuses only a section too short for a header.
 */
TEST_F(sframe, malformed)
{
	static const struct {
		const char *what;
		int off, size;
		uint32_t val;
	} bad[] = {
		{ "bad magic", 0, 2, 0xe2de },
		{ "version 1", H_VERSION, 1, 1 },
		{ "version 4", H_VERSION, 1, 4 },
		{ "unknown flag", H_FLAGS, 1, 0x81 },
		{ "unsorted", H_FLAGS, 1, 0x4 },
		{ ABI_OTHER_NAME, H_ABI, 1, ABI_OTHER },
		{ "FDEs past the end", H_NUM_FDES, 4, 0x10000000 },
		{ "FREs past the end", H_FRE_LEN, 4, 0x10000000 },
	};
	uintptr_t ts = map_text(_metadata, 1), te = ts + page, t;
	size_t len = self->len, i;
	unsigned char *c;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c = copy_section(_metadata, &self->exe);
		memcpy(c + bad[i].off, &bad[i].val, bad[i].size);
		EXPECT_ERRNO(0, sf_add((uintptr_t)c, (uintptr_t)c + len,
				       ts, te),
			     "%s: accepted", bad[i].what);
		EXPECT_ERRNO(0, sf_remove((uintptr_t)c),
			     "%s: remove", bad[i].what);
		free(c);
	}
	c = copy_section(_metadata, &self->exe);
	t = map_text(_metadata, 1);
	munmap((void *)t, page);
	c[0] ^= 0xff;
	EXPECT_ERRNO(ENXIO, sf_add((uintptr_t)c, (uintptr_t)c + len,
				   t, t + page),
		     "bad magic, text not mapped: the text is what is checked");
	c[0] ^= 0xff;
	EXPECT_ERRNO(ENOEXEC, sf_add((uintptr_t)c,
				     (uintptr_t)c + H_SIZE - 1, t, t + page),
		     "truncated header, text not mapped: size checked first");
	EXPECT_ERRNO(ENOEXEC, sf_add((uintptr_t)c,
				     (uintptr_t)c + H_SIZE - 1, ts, te),
		     "truncated header");
	EXPECT_ERRNO(0, sf_add((uintptr_t)c, (uintptr_t)c + H_SIZE,
			       ts, te),
		     "truncated tables: accepted");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)c), "truncated tables: remove");
	EXPECT_ERRNO(0, sf_add((uintptr_t)c, (uintptr_t)c + len, ts, te),
		     "valid copy");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)c), "valid copy: remove");
	munmap((void *)ts, page);
	free(c);
}

/* Whether the page at @addr is mapped into this process: pagemap bit 63. */
static int page_present(uintptr_t addr)
{
	uint64_t ent;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, &ent, sizeof(ent), addr / page * sizeof(ent));
	close(fd);
	return n == sizeof(ent) ? !!(ent >> 63) : -1;
}

/*
 * Registration reads nothing of the section: a process that registers
 * a section and never unwinds never has its page mapped.  The section
 * is a copy in a memfd, mapped private and read-only as an object's
 * segment is, and never touched.
 */
TEST_F(sframe, section_left_unmapped)
{
	unsigned char *c = copy_section(_metadata, &self->exe);
	uintptr_t ts = map_text(_metadata, 1), te = ts + page, ss;
	size_t span = (self->len + page - 1) / page * page;
	int fd = memfd_create("sframe-section", MFD_CLOEXEC);
	void *m;

	ASSERT_LE(0, fd) TH_LOG("memfd_create: %s", strerror(errno));
	ASSERT_EQ((ssize_t)self->len, pwrite(fd, c, self->len, 0));
	m = mmap(NULL, span, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap: %s", strerror(errno));
	ss = (uintptr_t)m;
	ASSERT_EQ(0, page_present(ss)) TH_LOG("the fresh mapping is present");
	EXPECT_ERRNO(0, sf_add(ss, ss + self->len, ts, te),
		     "add a section nothing has read");
	EXPECT_EQ(0, page_present(ss))
		TH_LOG("registration faulted the section's page in");
	EXPECT_EQ(1, view_has(ts, te, ss, ss + self->len, NULL))
		TH_LOG("/proc/self/sframe does not show it");
	EXPECT_ERRNO(0, sf_remove(ss), "remove");
	munmap(m, span);
	munmap((void *)ts, page);
	close(fd);
	free(c);
}

/*
 * A section in secret memory (memfd_secret()), whose pages are off the
 * kernel's direct map: registration, which reads nothing of it, takes
 * it whatever it holds.  Reading its header from the page cache at
 * registration did oops; kept as a smoke test of such memory.
 */
TEST_F(sframe, section_in_secret_memory)
{
	unsigned char *c = copy_section(_metadata, &self->exe);
	uintptr_t ts = map_text(_metadata, 1), te = ts + page, ss;
	size_t span = (self->len + page - 1) / page * page;
	int fd = syscall(__NR_memfd_secret, 0);
	void *m;

	if (fd < 0) {
		munmap((void *)ts, page);
		free(c);
		SKIP(return, "memfd_secret: %s", strerror(errno));
	}
	ASSERT_EQ(0, ftruncate(fd, span));
	m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, m) TH_LOG("mmap: %s", strerror(errno));
	memcpy(m, c, self->len);
	ss = (uintptr_t)m;
	EXPECT_ERRNO(0, sf_add(ss, ss + self->len, ts, te),
		     "add a section in secret memory");
	EXPECT_ERRNO(0, sf_remove(ss), "remove");
	((unsigned char *)m)[0] ^= 0xff;
	EXPECT_ERRNO(0, sf_add(ss, ss + self->len, ts, te),
		     "bad section in secret memory: accepted");
	EXPECT_ERRNO(0, sf_remove(ss), "bad section: remove");
	munmap(m, span);
	close(fd);
	munmap((void *)ts, page);
	free(c);
}

/*
 * Unmapping any part of the text drops a registration; what the
 * documentation lists as not dropping one does not: mprotect(), the old
 * range of mremap(MREMAP_DONTUNMAP), unmapping the SFrame data alone.
 */
TEST_F(sframe, unmap)
{
	unsigned char *c = copy_section(_metadata, &self->exe);
	uintptr_t ss = (uintptr_t)c, se = ss + self->len;
	uintptr_t t = map_text(_metadata, 3);
	void *p;

	EXPECT_ERRNO(0, sf_add(ss, se, t, t + 3 * page),
		     "anonymous text: add");
	munmap((void *)(t + page), page);
	EXPECT_ERRNO(ENOENT, sf_remove(ss),
		     "text partly unmapped: dropped");
	munmap((void *)t, 3 * page);

	t = map_text(_metadata, 2);
	EXPECT_ERRNO(0, sf_add(ss, se, t, t + 2 * page), "mapped over: add");
	p = mmap((void *)t, 2 * page, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ASSERT_EQ((void *)t, p);
	EXPECT_ERRNO(ENOENT, sf_remove(ss),
		     "text mapped over (MAP_FIXED): dropped");

	EXPECT_ERRNO(0, sf_add(ss, se, t, t + 2 * page), "mprotect: add");
	ASSERT_EQ(0, mprotect((void *)t, 2 * page, PROT_READ));
	EXPECT_EQ(1, view_has(t, t + 2 * page, ss, se, NULL))
		TH_LOG("text mprotected, still mapped: shown");
	EXPECT_ERRNO(0, sf_remove(ss),
		     "text mprotected, still mapped: kept");
	munmap((void *)t, 2 * page);

	/* MREMAP_DONTUNMAP leaves the old range mapped, and registered. */
	t = map_text(_metadata, 2);
	EXPECT_ERRNO(0, sf_add(ss, se, t, t + 2 * page),
		     "MREMAP_DONTUNMAP: add");
	p = mremap((void *)t, 2 * page, 2 * page,
		   MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	if (p != MAP_FAILED) {
		EXPECT_EQ(1, view_has(t, t + 2 * page, ss, se, NULL))
			TH_LOG("MREMAP_DONTUNMAP: the old range stays shown");
		EXPECT_EQ(0, view_has((uintptr_t)p, (uintptr_t)p + 2 * page,
				      ss, se, NULL))
			TH_LOG("MREMAP_DONTUNMAP: the new range is not");
		EXPECT_ERRNO(0, sf_remove(ss),
			     "MREMAP_DONTUNMAP: the old range is kept");
		munmap(p, 2 * page);
	} else {
		/* Before 5.13 only private anonymous memory could move so. */
		EXPECT_EQ(EINVAL, errno);
		sf_remove(ss);
	}
	munmap((void *)t, 2 * page);

	/* Unmapping the SFrame data alone keeps the registration. */
	t = map_text(_metadata, 1);
	p = mmap(NULL, se - ss, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	memcpy(p, c, se - ss);
	EXPECT_ERRNO(0, sf_add((uintptr_t)p, (uintptr_t)p + (se - ss), t,
			       t + page), "section unmapped: add");
	munmap(p, se - ss);
	EXPECT_EQ(1, view_has(t, t + page, (uintptr_t)p,
			      (uintptr_t)p + (se - ss), NULL))
		TH_LOG("section unmapped, text mapped: still shown");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)p),
		     "section unmapped, text mapped: kept");
	munmap((void *)t, page);
	free(c);
}

/*
 * What exec, registration, withdrawal and munmap() did, as
 * /proc/self/sframe shows it.
 */
TEST_F(sframe, proc_view)
{
	const struct sframe_obj *x = &self->exe;
	unsigned char *c = copy_section(_metadata, x);
	uintptr_t ss = (uintptr_t)c, se = ss + self->len, t;
	char path[PATH_MAX], header[8] = "";

	ASSERT_NE(NULL, realpath("/proc/self/exe", path));
	EXPECT_EQ(1, view_has(x->text_start, x->text_end, x->sframe_start,
			      x->sframe_end, path))
		TH_LOG("view: the executable, with its path %s", path);

	t = map_text(_metadata, 2);
	EXPECT_ERRNO(0, sf_add(ss, se, t, t + 2 * page), "view: add");
	EXPECT_EQ(1, view_header(t, t + 2 * page, ss, se, NULL, header))
		TH_LOG("view: anonymous text, no path");
	EXPECT_STREQ("-", header)
		TH_LOG("view: a header no unwind has read shows as -");
	EXPECT_ERRNO(0, sf_remove(ss), "view: remove");
	EXPECT_EQ(0, view_has(t, t + 2 * page, ss, se, NULL))
		TH_LOG("view: removed section gone");
	EXPECT_ERRNO(0, sf_add(ss, se, t, t + 2 * page), "view: add again");
	munmap((void *)t, page);
	EXPECT_EQ(0, view_has(t, t + 2 * page, ss, se, NULL))
		TH_LOG("view: section with unmapped text gone");
	munmap((void *)t, 2 * page);
	free(c);
}

/*
 * Many sections, read back in reads much smaller than the view: each
 * shown once, in text order, across the seq_file's refills.
 */
#define VIEW_MANY	300

TEST_F(sframe, proc_view_many)
{
	size_t len = self->len, size = 0, used = 0;
	uintptr_t t = map_text(_metadata, VIEW_MANY);
	unsigned char *c[VIEW_MANY];
	int added = 0, in_order = 0, fd, i;
	const char *at;
	char *text = NULL;
	ssize_t n;

	/* One section per page, each a copy of the program's. */
	for (i = 0; i < VIEW_MANY; i++) {
		c[i] = copy_section(_metadata, &self->exe);
		added += sf_add((uintptr_t)c[i], (uintptr_t)c[i] + len,
				t + i * page, t + (i + 1) * page) == 0;
	}
	EXPECT_EQ(VIEW_MANY, added)
		TH_LOG("view: many sections added");

	fd = open("/proc/self/sframe", O_RDONLY);
	ASSERT_LE(0, fd)
		TH_LOG("open /proc/self/sframe: %s", strerror(errno));
	do {
		if (used + 64 + 1 > size) {
			size = 2 * size + 4096;
			text = realloc(text, size);
			ASSERT_NE(NULL, text);
		}
		n = read(fd, text + used, 64);
		if (n > 0)
			used += n;
	} while (n > 0);
	EXPECT_EQ(0, n)
		TH_LOG("read /proc/self/sframe: %s", strerror(errno));
	close(fd);
	text[used] = '\0';

	for (at = text, i = 0; i < VIEW_MANY; i++) {
		char want[128];
		const char *found;

		snprintf(want, sizeof(want), "%08lx-%08lx %08lx-%08lx -\n",
			 t + i * page, t + (i + 1) * page, (uintptr_t)c[i],
			 (uintptr_t)c[i] + len);
		found = strstr(at, want);
		if (!found || strstr(found + 1, want))
			break;
		in_order++;
		at = found + 1;
	}
	EXPECT_EQ(VIEW_MANY, in_order)
		TH_LOG("view: many sections, each once, in text order");
	free(text);
	for (i = 0; i < VIEW_MANY; i++) {
		sf_remove((uintptr_t)c[i]);
		free(c[i]);
	}
	munmap((void *)t, VIEW_MANY * page);
}

/* fork() copies the registrations whose whole text the child has. */
TEST_F(sframe, fork)
{
	size_t len = self->len;
	unsigned char *c = copy_section(_metadata, &self->exe);
	unsigned char *d = copy_section(_metadata, &self->exe);
	unsigned char *f = copy_section(_metadata, &self->exe);
	unsigned char *g = copy_section(_metadata, &self->exe);
	uintptr_t t = map_text(_metadata, 1), u = map_text(_metadata, 1);
	uintptr_t v = map_text(_metadata, 3), w = map_text(_metadata, 1);
	int status;
	pid_t pid;

	EXPECT_ERRNO(0, sf_add((uintptr_t)c, (uintptr_t)c + len,
			       t, t + page),
		     "fork: add");
	EXPECT_ERRNO(0, sf_add((uintptr_t)d, (uintptr_t)d + len,
			       u, u + page),
		     "fork: add dontfork text");
	ASSERT_EQ(0, madvise((void *)u, page, MADV_DONTFORK));
	/*
	 * Only the middle page is left out: the child's text has a hole
	 * that a later mapping could fill.
	 */
	EXPECT_ERRNO(0, sf_add((uintptr_t)f, (uintptr_t)f + len,
			       v, v + 3 * page),
		     "fork: add text with a dontfork page");
	ASSERT_EQ(0, madvise((void *)(v + page), page, MADV_DONTFORK));
	/* Text no longer executable keeps its section, in the child too. */
	EXPECT_ERRNO(0, sf_add((uintptr_t)g, (uintptr_t)g + len,
			       w, w + page),
		     "fork: add text then mprotected");
	ASSERT_EQ(0, mprotect((void *)w, page, PROT_READ));

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* _metadata is shared with the children of a TEST_F(). */
		EXPECT_ERRNO(0, sf_remove((uintptr_t)c),
			     "fork: child has the registration");
		EXPECT_ERRNO(ENOENT, sf_remove((uintptr_t)d),
			     "fork: child lacks the text it did not inherit");
		EXPECT_ERRNO(ENOENT, sf_remove((uintptr_t)f),
			     "fork: child lacks the text it inherited in part");
		EXPECT_ERRNO(0, sf_remove((uintptr_t)g),
			     "fork: child has the mprotected text's");
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("fork: child did not exit: status %#x", status);

	EXPECT_ERRNO(0, sf_remove((uintptr_t)c),
		     "fork: parent keeps its own");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)d),
		     "fork: parent keeps dontfork text");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)f),
		     "fork: parent keeps text with a dontfork page");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)g),
		     "fork: parent keeps the mprotected text's");
	munmap((void *)t, page);
	munmap((void *)u, page);
	munmap((void *)v, 3 * page);
	munmap((void *)w, page);
	free(c);
	free(d);
	free(f);
	free(g);
}

/*
 * A fork that leaves nothing out shares the registrations until one of
 * the two changes them: each change, a withdrawal, a registration or an
 * unmap, is the changing process's own, in the child and in the parent.
 */
TEST_F(sframe, fork_shares)
{
	size_t len = self->len;
	unsigned char *c = copy_section(_metadata, &self->exe);
	unsigned char *d = copy_section(_metadata, &self->exe);
	unsigned char *e = copy_section(_metadata, &self->exe);
	uintptr_t t = map_text(_metadata, 1), u = map_text(_metadata, 1);
	uintptr_t v = map_text(_metadata, 1);
	int status, go[2];
	char byte = 0;
	pid_t pid;

	EXPECT_ERRNO(0, sf_add((uintptr_t)c, (uintptr_t)c + len, t, t + page),
		     "fork_shares: add c");
	EXPECT_ERRNO(0, sf_add((uintptr_t)d, (uintptr_t)d + len, u, u + page),
		     "fork_shares: add d");
	ASSERT_EQ(0, pipe(go));

	/* The child changes what it shares; the parent keeps its own. */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		EXPECT_ERRNO(0, sf_remove((uintptr_t)d),
			     "fork_shares: child withdraws d");
		EXPECT_ERRNO(0, sf_add((uintptr_t)e, (uintptr_t)e + len,
				       v, v + page),
			     "fork_shares: child adds e");
		munmap((void *)t, page);
		EXPECT_ERRNO(ENOENT, sf_remove((uintptr_t)c),
			     "fork_shares: child's unmap dropped c");
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("fork_shares: child did not exit: status %#x", status);
	EXPECT_ERRNO(ENOENT, sf_remove((uintptr_t)e),
		     "fork_shares: parent lacks the child's e");

	/* The parent changes what it shares; the child keeps its own. */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &byte, 1) != 1)
			_exit(1);
		EXPECT_ERRNO(0, sf_remove((uintptr_t)c),
			     "fork_shares: child keeps c");
		EXPECT_ERRNO(0, sf_remove((uintptr_t)d),
			     "fork_shares: child keeps d");
		EXPECT_ERRNO(ENOENT, sf_remove((uintptr_t)e),
			     "fork_shares: child lacks the parent's e");
		_exit(0);
	}
	close(go[0]);
	EXPECT_ERRNO(0, sf_remove((uintptr_t)c),
		     "fork_shares: parent withdraws c");
	munmap((void *)u, page);
	EXPECT_ERRNO(0, sf_add((uintptr_t)e, (uintptr_t)e + len, v, v + page),
		     "fork_shares: parent adds e");
	ASSERT_EQ(1, write(go[1], &byte, 1));
	close(go[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("fork_shares: child did not exit: status %#x", status);

	EXPECT_ERRNO(ENOENT, sf_remove((uintptr_t)d),
		     "fork_shares: parent's unmap dropped d");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)e),
		     "fork_shares: parent withdraws e");
	munmap((void *)t, page);
	munmap((void *)v, page);
	free(c);
	free(d);
	free(e);
}

/*
 * execve() drops the old registrations, and registers the new program:
 * checked in the new image by after_exec().
 */
TEST_F(sframe, exec)
{
	unsigned char *c = copy_section(_metadata, &self->exe);
	uintptr_t t = map_text(_metadata, 1);
	char env[64], *envp[] = { env, NULL };
	static char *const argv[] = { "sframe_test", NULL };
	int status;
	pid_t pid;

	EXPECT_ERRNO(0, sf_add((uintptr_t)c, (uintptr_t)c + self->len,
			       t, t + page),
		     "exec: add");
	snprintf(env, sizeof(env), "%s=%lx", AFTER_EXEC_ENV,
		 (unsigned long)c);

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		execve("/proc/self/exe", argv, envp);
		ksft_print_msg("exec /proc/self/exe: %s\n", strerror(errno));
		fflush(stdout);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("exec: child did not exit: status %#x", status);
	ASSERT_NE(127, WEXITSTATUS(status))
		TH_LOG("exec: the program could not be run again");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("exec: the checks in the new image failed (above)");
	EXPECT_ERRNO(0, sf_remove((uintptr_t)c),
		     "exec: parent keeps its own");
	munmap((void *)t, page);
	free(c);
}

/*
 * Many sections, more than one node of the registry's trees holds: each
 * is found again to refuse it twice and to withdraw it, in the process
 * and in a forked child, which copies them all at once.
 */
#define WITHDRAW_MANY	300

TEST_F(sframe, withdraw_many)
{
	static const unsigned char hdr[H_SIZE] = {
		0xe2, 0xde, 3, 0x5, ABI_NATIVE
	};
	unsigned char *secs = malloc(WITHDRAW_MANY * H_SIZE);
	/* A page each, and one more for the second registrations. */
	uintptr_t t = map_text(_metadata, WITHDRAW_MANY + 1), s;
	int added = 0, twice = 0, gone = 0, again = 0, status, i;
	pid_t pid;

	ASSERT_NE(NULL, secs);
	for (i = 0; i < WITHDRAW_MANY; i++) {
		s = (uintptr_t)secs + i * H_SIZE;
		memcpy((void *)s, hdr, H_SIZE);
		added += sf_add(s, s + H_SIZE, t + i * page,
				t + (i + 1) * page) == 0;
	}
	EXPECT_EQ(WITHDRAW_MANY, added)
		TH_LOG("many: %d sections added", added);
	/* The same section start again, with text of its own. */
	for (i = 0; i < WITHDRAW_MANY; i++) {
		s = (uintptr_t)secs + i * H_SIZE;
		twice += sf_add(s, s + H_SIZE, t + WITHDRAW_MANY * page,
				t + (WITHDRAW_MANY + 1) * page) == EEXIST;
	}
	EXPECT_EQ(WITHDRAW_MANY, twice)
		TH_LOG("many: %d refused as added twice", twice);

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		for (i = 0; i < WITHDRAW_MANY; i++)
			gone += sf_remove((uintptr_t)secs + i * H_SIZE) == 0;
		for (i = 0; i < WITHDRAW_MANY; i++)
			again += sf_remove((uintptr_t)secs + i * H_SIZE) ==
				 ENOENT;
		_exit(gone == WITHDRAW_MANY && again == WITHDRAW_MANY ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("many: the child could not withdraw each once: %#x",
		       status);

	/* In the other order from the child's. */
	for (i = WITHDRAW_MANY - 1; i >= 0; i--)
		gone += sf_remove((uintptr_t)secs + i * H_SIZE) == 0;
	EXPECT_EQ(WITHDRAW_MANY, gone)
		TH_LOG("many: %d withdrawn", gone);
	for (i = 0; i < WITHDRAW_MANY; i++)
		again += sf_remove((uintptr_t)secs + i * H_SIZE) == ENOENT;
	EXPECT_EQ(WITHDRAW_MANY, again)
		TH_LOG("many: %d not found once withdrawn", again);
	munmap((void *)t, (WITHDRAW_MANY + 1) * page);
	free(secs);
}

/*
 * The limit of sections per mm, with minimal valid sections (a header
 * without entries), one per page; unmapping their text drops them all.
 * The program, its interpreter and the vDSO count too.
 */
TEST_F(sframe, limit)
{
	enum {
		N = SFRAME_MAX_SECTIONS + 64,
	};
	static const unsigned char hdr[H_SIZE] = {
		0xe2, 0xde, 3, 0x5, ABI_NATIVE
	};
	unsigned char *secs = malloc((size_t)N * H_SIZE);
	uintptr_t t = map_text(_metadata, N), s;
	int ok = 0, err = 0, status, i;
	pid_t pid;

	ASSERT_NE(NULL, secs);
	for (i = 0; i < N; i++) {
		s = (uintptr_t)secs + (size_t)i * H_SIZE;
		memcpy((void *)s, hdr, H_SIZE);
		err = sf_add(s, s + H_SIZE, t + (size_t)i * page,
			     t + (size_t)(i + 1) * page);
		if (err)
			break;
		ok++;
	}
	EXPECT_ERRNO(ENOSPC, err, "limit: after %d sections", ok);
	EXPECT_LT(SFRAME_MAX_SECTIONS - 16, ok)
		TH_LOG("limit: only %d sections registered", ok);
	EXPECT_GE(SFRAME_MAX_SECTIONS, ok)
		TH_LOG("limit: %d sections registered", ok);
	if (i < N) {
		s = (uintptr_t)secs + (size_t)i * H_SIZE;
		EXPECT_ERRNO(ENOSPC, sf_add(s, s + H_SIZE,
					    t + (size_t)i * page,
					    t + (size_t)(i + 1) * page),
			     "limit: one more");

		/*
		 * A child copies them all (without looking their starts up
		 * again), is as full, and finds each by its start.
		 */
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			int full, gone = 0;

			full = sf_add(s, s + H_SIZE, t + (size_t)i * page,
				      t + (size_t)(i + 1) * page) == ENOSPC;
			for (i = 0; i < ok; i++)
				gone += sf_remove((uintptr_t)secs +
						     (size_t)i * H_SIZE) == 0;
			_exit(!full ? 2 : gone != ok ? 3 : 0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
			TH_LOG("limit: child %s: %#x",
			       !WIFEXITED(status) ? "killed" :
			       WEXITSTATUS(status) == 2 ? "not full" :
			       "could not withdraw each section", status);
	}
	munmap((void *)t, (size_t)N * page);
	EXPECT_ERRNO(ENOENT, sf_remove((uintptr_t)secs),
		     "limit: all dropped by munmap");
	t = map_text(_metadata, 1);
	EXPECT_ERRNO(0, sf_add((uintptr_t)secs, (uintptr_t)secs + H_SIZE,
			       t, t + page),
		     "limit: room again");
	munmap((void *)t, page);
	free(secs);
}

TEST_HARNESS_MAIN
