// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame format reader: validates a section's header and finds the frame
 * rule (CFA, RA and FP) for a user instruction pointer.  Versions 2 and 3.
 *
 * The section is user memory and untrusted.  Every read is first checked
 * to lie inside the registered [sframe_start, sframe_end); every loop is
 * bounded by counts the header validation limited to the section, and
 * the rows one unwind scans by the caller's budget.  A section that
 * breaks the format gives -ENOEXEC, unreadable memory -EFAULT, never a
 * read elsewhere.
 *
 * A lookup is the unwinder's hot path.  It opens user access for the
 * section (user_read_access_begin()) and reads each field with
 * unsafe_get_user(): a load, not a call.  Everything between the begin
 * and the end is inlined, so nothing runs with user access open but
 * these loads.  A window scans at most SFRAME_WINDOW_ROWS rows: a longer
 * scan closes it, lets others run, stops for a fatal signal, and opens
 * another where it left off.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>

#include "sframe.h"
#include "sframe_format.h"

/* The most FREs one function may have; v3 cannot express more. */
#define SFRAME_MAX_FRES		0xffff

/* The most FREs scanned with user access open at a time. */
#define SFRAME_WINDOW_ROWS	256

/* A function found by sframe_read_func(). */
struct sframe_func {
	unsigned long	start;
	u32		size;
	unsigned long	fres;		/* first FRE */
	u32		num_fres;
	u8		info;
	u8		fde_type;
	u8		rep_size;
};

/* Where a scan of a function's FREs is, kept from one window to the next. */
struct sframe_scan {
	unsigned long	addr;		/* the next FRE to read */
	unsigned long	match;		/* the last one at or before the pc */
	u32		i;		/* FREs read so far */
	u32		prev;		/* the start of the last one read */
	u8		match_info;
	bool		found;
};

static __always_inline unsigned int
sframe_fde_size(const struct sframe_section *sec)
{
	return sec->version == SFRAME_VERSION_2 ? sizeof(struct sframe_fde_v2)
						 : sizeof(struct sframe_fde_v3);
}

/* Check a copy of @sec's header and take the layout it gives. */
static int sframe_take_header(struct sframe_section *sec,
			      const struct sframe_header *h, u8 abi)
{
	unsigned long len = sec->sframe_end - sec->sframe_start;
	unsigned long fdes, fres, data;

	if (h->magic != SFRAME_MAGIC || h->abi_arch != abi)
		return -ENOEXEC;
	switch (h->version) {
	case SFRAME_VERSION_2:
		if (h->flags & ~SFRAME_V2_F_ALL)
			return -ENOEXEC;
		break;
	case SFRAME_VERSION_3:
		if (h->flags & ~SFRAME_V3_F_ALL)
			return -ENOEXEC;
		break;
	default:
		return -ENOEXEC;
	}
	/* The lookup is a binary search; ld always sorts. */
	if (!(h->flags & SFRAME_F_FDE_SORTED))
		return -ENOEXEC;

	sec->version = h->version;
	sec->flags = h->flags;
	sec->num_fdes = h->num_fdes;
	sec->ra_off = h->cfa_fixed_ra_offset;
	sec->fp_off = h->cfa_fixed_fp_offset;

	/* Sizes are u32: in a 64-bit unsigned long none of this overflows. */
	data = sizeof(*h) + h->auxhdr_len;
	fdes = data + h->fdes_off;
	fres = data + h->fres_off;
	if (data > len || fdes > len ||
	    (unsigned long)h->num_fdes * sframe_fde_size(sec) > len - fdes ||
	    fres > len || h->fre_len > len - fres)
		return -ENOEXEC;

	sec->fdes_start = sec->sframe_start + fdes;
	sec->fres_start = sec->sframe_start + fres;
	sec->fres_end = sec->fres_start + h->fre_len;
	return 0;
}

/**
 * sframe_read_header() - validate a section's header and take its layout
 * @sec:	sframe_start, sframe_end, text_start and text_end set; the
 *		rest is filled in from the header
 * @abi:	the SFrame ABI/arch identifier the section must carry
 *
 * Reads user memory: the caller must be able to fault.
 *
 * Return: 0; -ENOEXEC if the header is not a sorted SFrame v2 or v3
 * header for @abi or places its tables outside the section; -EFAULT if
 * it cannot be read.
 */
int sframe_read_header(struct sframe_section *sec, u8 abi)
{
	struct sframe_header h;

	if (sec->sframe_end - sec->sframe_start < sizeof(h))
		return -ENOEXEC;
	if (copy_from_user(&h, (const void __user *)sec->sframe_start,
			   sizeof(h)))
		return -EFAULT;
	return sframe_take_header(sec, &h, abi);
}

/**
 * sframe_parse_header() - sframe_read_header() from a kernel copy
 * @sec:	as for sframe_read_header()
 * @hdr:	the section's first bytes, as many as sec's size or the
 *		header's, whichever is less (a kernel-built image that user
 *		space maps read-only, such as the vDSO)
 * @abi:	as for sframe_read_header()
 *
 * Return: 0, or -ENOEXEC as sframe_read_header().
 */
int sframe_parse_header(struct sframe_section *sec, const void *hdr, u8 abi)
{
	struct sframe_header h;

	if (sec->sframe_end - sec->sframe_start < sizeof(h))
		return -ENOEXEC;
	memcpy(&h, hdr, sizeof(h));
	return sframe_take_header(sec, &h, abi);
}

/* Whether [addr, addr + len) lies inside the section. */
static __always_inline bool sframe_in(const struct sframe_section *sec,
				      unsigned long addr, unsigned long len)
{
	return addr >= sec->sframe_start && addr <= sec->sframe_end &&
	       len <= sec->sframe_end - addr;
}

/*
 * sframe_get_TYPE(sec, addr, &val): read a TYPE at addr of the section
 * into val (a TYPE),
 * with user access open.  -ENOEXEC if it is not inside the section,
 * -EFAULT if it cannot be read.
 */
#define SFRAME_DEFINE_GET(type)						\
static __always_inline int sframe_get_##type(				\
	const struct sframe_section *sec, unsigned long addr, void *val)\
{									\
	type v;								\
									\
	if (!sframe_in(sec, addr, sizeof(v)))				\
		return -ENOEXEC;					\
	unsafe_get_user(v, (const type __user *)addr, efault);		\
	*(type *)val = v;						\
	return 0;							\
efault:									\
	return -EFAULT;							\
}

SFRAME_DEFINE_GET(u8)
SFRAME_DEFINE_GET(u16)
SFRAME_DEFINE_GET(u32)
SFRAME_DEFINE_GET(s32)
SFRAME_DEFINE_GET(s64)

/* The absolute start of the function of the FDE at addr. */
static __always_inline int sframe_fde_start(const struct sframe_section *sec,
					    unsigned long addr,
					    unsigned long *start)
{
	unsigned long base;
	int ret;

	base = sec->flags & SFRAME_F_FDE_FUNC_START_PCREL ? addr
							   : sec->sframe_start;
	if (sec->version == SFRAME_VERSION_2) {
		s32 off;

		ret = sframe_get_s32(sec, addr, &off);
		if (!ret)
			*start = base + off;
	} else {
		s64 off;

		ret = sframe_get_s64(sec, addr, &off);
		if (!ret)
			*start = base + off;
	}
	return ret;
}

/*
 * The function whose range covers ip: a binary search of the sorted
 * function descriptors (FDEs), then the found one's size, rows and info.
 * -ENOENT if no function covers ip.
 */
static __always_inline int sframe_read_func(const struct sframe_section *sec,
					    unsigned long ip,
					    struct sframe_func *fn)
{
	unsigned int fde_size = sframe_fde_size(sec);
	u32 lo = 0, hi = sec->num_fdes, found = U32_MAX;
	unsigned long start, addr, fres;
	u32 fre_off;
	int ret;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		ret = sframe_fde_start(sec, sec->fdes_start +
				       (unsigned long)mid * fde_size, &start);
		if (ret)
			return ret;
		if (start <= ip) {
			found = mid;
			fn->start = start;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	if (found == U32_MAX)
		return -ENOENT;

	addr = sec->fdes_start + (unsigned long)found * fde_size;
	if (sec->version == SFRAME_VERSION_2) {
		u32 num_fres;

		ret = sframe_get_u32(sec, addr + offsetof(struct sframe_fde_v2,
							  size), &fn->size);
		ret = ret ?: sframe_get_u32(sec, addr +
				offsetof(struct sframe_fde_v2, fre_off),
				&fre_off);
		ret = ret ?: sframe_get_u32(sec, addr +
				offsetof(struct sframe_fde_v2, num_fres),
				&num_fres);
		ret = ret ?: sframe_get_u8(sec, addr +
				offsetof(struct sframe_fde_v2, info),
				&fn->info);
		ret = ret ?: sframe_get_u8(sec, addr +
				offsetof(struct sframe_fde_v2, rep_size),
				&fn->rep_size);
		if (ret)
			return ret;
		fn->num_fres = num_fres;
		fn->fde_type = SFRAME_FDE_TYPE_DEFAULT;
		fres = sec->fres_start + fre_off;
	} else {
		u16 num_fres;
		u8 info2;

		ret = sframe_get_u32(sec, addr + offsetof(struct sframe_fde_v3,
							  size), &fn->size);
		ret = ret ?: sframe_get_u32(sec, addr +
				offsetof(struct sframe_fde_v3, fre_off),
				&fre_off);
		if (ret)
			return ret;
		/* The attributes, then the rows. */
		fres = sec->fres_start + fre_off;
		if (fres > sec->fres_end)
			return -ENOEXEC;
		ret = sframe_get_u16(sec, fres + offsetof(struct sframe_fda_v3,
							  num_fres), &num_fres);
		ret = ret ?: sframe_get_u8(sec, fres +
				offsetof(struct sframe_fda_v3, info),
				&fn->info);
		ret = ret ?: sframe_get_u8(sec, fres +
				offsetof(struct sframe_fda_v3, info2), &info2);
		ret = ret ?: sframe_get_u8(sec, fres +
				offsetof(struct sframe_fda_v3, rep_size),
				&fn->rep_size);
		if (ret)
			return ret;
		fn->num_fres = num_fres;
		fn->fde_type = SFRAME_FUNC_FDE_TYPE(info2);
		fres += sizeof(struct sframe_fda_v3);
	}
	if (fres > sec->fres_end || fn->num_fres > SFRAME_MAX_FRES)
		return -ENOEXEC;
	fn->fres = fres;

	if (ip - fn->start >= fn->size)
		return -ENOENT;
	return 0;
}

/* An unsigned field of 1, 2 or 4 bytes at addr, zero-extended. */
static __always_inline int sframe_get_uint(const struct sframe_section *sec,
					   unsigned long addr,
					   unsigned int size, u32 *val)
{
	u8 b8;
	u16 b16;
	int ret;

	switch (size) {
	case 1:
		ret = sframe_get_u8(sec, addr, &b8);
		if (!ret)
			*val = b8;
		return ret;
	case 2:
		ret = sframe_get_u16(sec, addr, &b16);
		if (!ret)
			*val = b16;
		return ret;
	case 4:
		return sframe_get_u32(sec, addr, val);
	}
	return -ENOEXEC;
}

/* A frame row entry: its info byte and its words, zero-extended. */
struct sframe_fre {
	u8		info;
	unsigned int	count;
	unsigned int	word_size;
	u32		word[15];
};

/*
 * The FRE of fn that covers ip: the last one starting at or before ip's
 * offset in the function (modulo the block size for a PC-mask FDE).
 * The scan goes on from *scan (zeroed but for addr, fn->fres, at the
 * first call) and reads at most SFRAME_WINDOW_ROWS rows: -EAGAIN when it
 * stops there, to be called again in a new window.  Each row scanned
 * takes one from *rows; -E2BIG when none are left.
 */
static __always_inline int sframe_read_row(const struct sframe_section *sec,
					   const struct sframe_func *fn,
					   unsigned long ip,
					   struct sframe_fre *fre,
					   unsigned int *rows,
					   struct sframe_scan *scan)
{
	unsigned int type = SFRAME_FUNC_FRE_TYPE(fn->info);
	unsigned int window = SFRAME_WINDOW_ROWS;
	unsigned long pc = ip - fn->start, addr;
	unsigned int addr_size, count, word_size, i;
	u32 fre_start, *word = fre->word;
	u8 info, match_info, rep_size;
	int ret;

	/*
	 * No array subscript and only locals the compiler can see checked:
	 * nothing may call out (a sanitizer's handler) with user access
	 * open.
	 */
	if (type > SFRAME_FRE_TYPE_ADDR4)
		return -ENOEXEC;
	addr_size = 1U << type;		/* 1, 2 or 4 bytes */
	if (SFRAME_FUNC_PC_MASK(fn->info)) {
		rep_size = fn->rep_size;
		if (!rep_size)
			return -ENOEXEC;
		pc %= rep_size;
	}

	for (; scan->i < fn->num_fres; scan->i++) {
		if (!window--)
			return -EAGAIN;
		if (!*rows)
			return -E2BIG;
		(*rows)--;
		addr = scan->addr;
		ret = sframe_get_uint(sec, addr, addr_size, &fre_start);
		if (ret)
			return ret;
		ret = sframe_get_u8(sec, addr + addr_size, &info);
		if (ret)
			return ret;
		/* FREs are in ascending order of start. */
		if (fre_start < scan->prev)
			return -ENOEXEC;
		scan->prev = fre_start;
		if (fre_start > pc)
			break;
		word_size = SFRAME_FRE_WORD_SIZE(info);
		if (word_size > 2)
			return -ENOEXEC;
		scan->found = true;
		scan->match = addr;
		scan->match_info = info;
		scan->addr = addr + addr_size + 1 +
			     SFRAME_FRE_COUNT(info) * (1U << word_size);
		if (scan->addr > sec->fres_end)
			return -ENOEXEC;
	}
	if (!scan->found)
		return -ENOENT;

	/* Decode the match, with the info byte the scan validated. */
	match_info = scan->match_info;
	count = SFRAME_FRE_COUNT(match_info);	/* at most 15: fre->word[] */
	word_size = 1U << SFRAME_FRE_WORD_SIZE(match_info);
	fre->info = match_info;
	fre->count = count;
	fre->word_size = word_size;
	addr = scan->match + addr_size + 1;
	for (i = 0; i < count; i++) {
		ret = sframe_get_uint(sec, addr + i * word_size, word_size,
				      word + i);
		if (ret)
			return ret;
	}
	return 0;
}

/* Word i of an FRE as a signed offset. */
static s32 sframe_fre_off(const struct sframe_fre *fre, unsigned int i)
{
	switch (fre->word_size) {
	case 1:
		return (s8)fre->word[i];
	case 2:
		return (s16)fre->word[i];
	}
	return (s32)fre->word[i];
}

/* Default FDE: CFA offset, then RA (unless fixed), then FP (unless fixed). */
static int sframe_decode_default(const struct sframe_section *sec,
				 const struct sframe_fre *fre,
				 struct unwind_user_frame *frame)
{
	unsigned int i = 1;

	frame->use_fp = !SFRAME_FRE_BASE_SP(fre->info);
	frame->cfa_off = sframe_fre_off(fre, 0);

	/* Not fixed and not in the FRE: still in the link register. */
	if (sec->ra_off)
		frame->ra_off = sec->ra_off;
	else if (fre->count > i)
		frame->ra_off = sframe_fre_off(fre, i++);
	else
		frame->ra_off = 0;

	if (sec->fp_off)
		frame->fp_off = sec->fp_off;
	else if (fre->count > i)
		frame->fp_off = sframe_fre_off(fre, i++);
	else
		frame->fp_off = 0;	/* FP unchanged */

	return fre->count > i ? -ENOEXEC : 0;
}

/*
 * Flexible FDE (v3): (control, displacement) pairs for CFA, RA and FP.
 * Rules the unwinder can follow: CFA = register + displacement, or the
 * word there (a realigned frame's saved CFA; a register other than SP
 * and FP only at the topmost frame, see struct unwind_user_frame); RA
 * saved at CFA + displacement; FP saved at CFA + displacement or at FP +
 * displacement, or unchanged.  Anything else (values held in other
 * registers) is -EOPNOTSUPP.
 */
static int sframe_decode_flex(const struct sframe_section *sec,
			      const struct sframe_fre *fre,
			      struct unwind_user_frame *frame)
{
	unsigned int i = 2, reg;
	u32 ctl;

	if (fre->count < 2)
		return -ENOEXEC;
	ctl = fre->word[0];
	if (!SFRAME_FLEX_REG_P(ctl))
		return -EOPNOTSUPP;
	reg = SFRAME_FLEX_REGNUM(ctl);
	if (reg == UNWIND_USER_DWARF_SP)
		frame->use_fp = false;
	else if (reg == UNWIND_USER_DWARF_FP)
		frame->use_fp = true;
	else if (reg < U16_MAX)
		frame->cfa_reg = reg + 1;
	else
		return -EOPNOTSUPP;
	frame->cfa_deref = SFRAME_FLEX_DEREF_P(ctl);
	frame->cfa_off = sframe_fre_off(fre, 1);

	/*
	 * RA: a pair, a single 0 padding word before FP, or nothing (fixed,
	 * or still in the link register).
	 */
	frame->ra_off = sec->ra_off;
	if (fre->count > i) {
		ctl = fre->word[i];
		if (!ctl) {
			i++;
		} else {
			if (fre->count < i + 2)
				return -ENOEXEC;
			if (SFRAME_FLEX_REG_P(ctl) || !SFRAME_FLEX_DEREF_P(ctl))
				return -EOPNOTSUPP;
			frame->ra_off = sframe_fre_off(fre, i + 1);
			i += 2;
		}
	}
	/* FP: a pair, or nothing (unchanged). */
	frame->fp_off = 0;
	if (fre->count > i) {
		ctl = fre->word[i];
		if (fre->count < i + 2)
			return -ENOEXEC;
		reg = SFRAME_FLEX_REGNUM(ctl);
		if (!ctl) {
			/* not tracked: unchanged */
		} else if (!SFRAME_FLEX_REG_P(ctl) && SFRAME_FLEX_DEREF_P(ctl)) {
			frame->fp_off = sframe_fre_off(fre, i + 1);
		} else if (SFRAME_FLEX_REG_P(ctl) &&
			   reg == UNWIND_USER_DWARF_FP &&
			   SFRAME_FLEX_DEREF_P(ctl)) {
			/* Saved where the FP points (a realigned frame) */
			frame->fp_at_fp = true;
			frame->fp_off = sframe_fre_off(fre, i + 1);
		} else if (SFRAME_FLEX_REG_P(ctl) &&
			   reg == UNWIND_USER_DWARF_FP &&
			   !sframe_fre_off(fre, i + 1)) {
			/* FP = FP: unchanged */
		} else {
			return -EOPNOTSUPP;
		}
		i += 2;
	}
	return fre->count > i ? -ENOEXEC : 0;
}

/*
 * Find the function and the row for ip, with user access open for the
 * section; a scan of more than SFRAME_WINDOW_ROWS rows goes on in
 * further windows.  Returns as sframe_read_rule(), and fills in *fn and
 * *fre.
 */
static int sframe_read_func_row(const struct sframe_section *sec,
				unsigned long ip, struct sframe_func *fn,
				struct sframe_fre *fre, unsigned int *rows)
{
	const void __user *start = (const void __user *)sec->sframe_start;
	unsigned long len = sec->sframe_end - sec->sframe_start;
	struct sframe_scan scan = {};
	int ret;

	if (!user_read_access_begin(start, len))
		return -EFAULT;
	ret = sframe_read_func(sec, ip, fn);
	if (!ret && !fn->num_fres)
		ret = -ENOENT;
	/* Signal trampolines: the caller's registers are in a sigcontext. */
	if (!ret && sec->version == SFRAME_VERSION_3 &&
	    SFRAME_FUNC_SIGNAL(fn->info))
		ret = -EOPNOTSUPP;
	if (ret)
		goto out;
	scan.addr = fn->fres;
	while ((ret = sframe_read_row(sec, fn, ip, fre, rows, &scan)) ==
	       -EAGAIN) {
		user_read_access_end();
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
		if (!user_read_access_begin(start, len))
			return -EFAULT;
	}
out:
	user_read_access_end();
	return ret;
}

/**
 * sframe_read_rule() - the frame rule for an address from one section
 * @sec:	a section whose header sframe_read_header() accepted
 * @ip:		the user address to unwind from
 * @frame:	filled in with the rule (CFA, RA and FP) on success
 * @rows:	frame row entries the caller lets this lookup scan; each row
 *		scanned is taken from it
 *
 * Reads the section's function descriptors and rows from user memory;
 * may fault, so the caller must be able to sleep and hold no lock.
 *
 * Return: 0 with *@frame filled in; SFRAME_OUTERMOST where the section
 * says the stack ends (a row without offsets: the RA is undefined);
 * -ENOENT if no function of @sec covers @ip; -EOPNOTSUPP for a rule the
 * unwinder cannot follow; -E2BIG if *@rows ran out; -ENOEXEC for a
 * malformed section; -EFAULT for unreadable memory; -EINTR if a fatal
 * signal came between two windows of a long scan.
 */
int sframe_read_rule(const struct sframe_section *sec, unsigned long ip,
		     struct unwind_user_frame *frame, unsigned int *rows)
{
	struct sframe_func fn;
	struct sframe_fre fre;
	int ret;

	ret = sframe_read_func_row(sec, ip, &fn, &fre, rows);
	if (ret)
		return ret;
	*frame = (struct unwind_user_frame){};
	/* No offsets: the RA is undefined, this is the outermost frame. */
	if (!fre.count)
		return SFRAME_OUTERMOST;
	/* A signed return address: only where the architecture strips it. */
	if (SFRAME_FRE_MANGLED_RA(fre.info) && !UNWIND_USER_SIGNED_RA)
		return -EOPNOTSUPP;

	switch (fn.fde_type) {
	case SFRAME_FDE_TYPE_DEFAULT:
		return sframe_decode_default(sec, &fre, frame);
	case SFRAME_FDE_TYPE_FLEX:
		return sframe_decode_flex(sec, &fre, frame);
	}
	return -ENOEXEC;
}
