// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame sections registered by a process: by its dynamic linker, by
 * binfmt_elf for the executable and interpreter at exec, and by the
 * architecture for the vDSO.
 *
 * Each mm keeps its sections in struct sframe_mm (sframe_mm.h): an
 * rbtree by text range and one by section start, both changed under one
 * mutex per mm.  Registration and withdrawal by system call hold the
 * mmap lock only for reading.
 *
 * Lifetime: fork copies the sections whose whole text the child has,
 * exec and exit drop them with the mm, and unmapping any part of a
 * section's text drops that section, so a later mapping at the same
 * address is never unwound with stale data.
 */
#include <linux/elf.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/rbtree.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sframe.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>

#include "sframe.h"
#include "sframe_format.h"
#include "sframe_mm.h"

/* Sections one process may register: enough for thousands of DSOs. */
#define SFRAME_MAX_SECTIONS	16384

static struct sframe_entry *sframe_text_entry(const struct rb_node *n)
{
	return rb_entry(n, struct sframe_entry, text_node);
}

static struct sframe_entry *sframe_data_entry(const struct rb_node *n)
{
	return rb_entry(n, struct sframe_entry, data_node);
}

/* Whether the address key is before n's text (< 0), in it or after it. */
static __always_inline int sframe_text_cmp_ip(const void *key,
					      const struct rb_node *n)
{
	const struct sframe_section *sec = &sframe_text_entry(n)->sec;
	unsigned long ip = (unsigned long)key;

	if (ip < sec->text_start)
		return -1;
	if (ip >= sec->text_end)
		return 1;
	return 0;
}

/*
 * Whether new's text is before n's (< 0), overlaps it (0) or is after
 * it: the sections' texts never overlap, so a search with it finds an
 * overlapping one if there is one.
 */
static __always_inline int sframe_text_cmp_range(struct rb_node *new,
						 const struct rb_node *n)
{
	const struct sframe_section *a = &sframe_text_entry(new)->sec;
	const struct sframe_section *b = &sframe_text_entry(n)->sec;

	if (a->text_end <= b->text_start)
		return -1;
	if (a->text_start >= b->text_end)
		return 1;
	return 0;
}

/* Whether the section start key is before n's (< 0), n's or after it. */
static __always_inline int sframe_data_cmp_key(const void *key,
					       const struct rb_node *n)
{
	unsigned long start = (unsigned long)key;
	unsigned long b = sframe_data_entry(n)->sec.sframe_start;

	return start < b ? -1 : start > b;
}

static __always_inline int sframe_data_cmp(struct rb_node *new,
					   const struct rb_node *n)
{
	const struct sframe_entry *ent = sframe_data_entry(new);

	return sframe_data_cmp_key((void *)ent->sec.sframe_start, n);
}

/* What every change of sm needs (see struct sframe_mm). */
static void sframe_assert_locked(struct mm_struct *mm, struct sframe_mm *sm)
{
	mmap_assert_locked(mm);
	lockdep_assert_held(&sm->lock);
}

/*
 * A change of sm->text, which lookups without a lock retry.  Preemption
 * is off meanwhile, so that a lookup never waits for a writer that does
 * not run.
 */
static void sframe_text_write_begin(struct sframe_mm *sm)
{
	lockdep_assert_held(&sm->lock);
	preempt_disable();
	write_seqcount_begin(&sm->text_seq);
}

static void sframe_text_write_end(struct sframe_mm *sm)
{
	write_seqcount_end(&sm->text_seq);
	preempt_enable();
}

/* The sections changed: rules found before are stale. */
static void sframe_changed(struct sframe_mm *sm)
{
	/* Release order: a reader who sees the new count sees the change. */
	smp_store_release(&sm->changes, sm->changes + 1);
}

/**
 * sframe_text_lookup() - the section whose text covers an address
 * @sm:		the sections of an mm
 * @ip:		the address
 *
 * Takes no lock: the caller is in an RCU read-side critical section, and
 * the section may be dropped as soon as it leaves it.  A search that
 * races with a change of the tree may miss (never find a wrong section:
 * what it finds covers @ip); it is retried while the sequence count
 * says a change was made meanwhile.  Task context only: a change is
 * made with preemption off, and nothing that could interrupt one
 * searches.
 *
 * Return: the section, or NULL.
 */
struct sframe_entry *sframe_text_lookup(struct sframe_mm *sm, unsigned long ip)
{
	struct rb_node *n;
	unsigned int seq;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(),
			 "SFrame section lookup outside RCU read-side section");
	do {
		seq = read_seqcount_begin(&sm->text_seq);
		n = rb_find_rcu((void *)ip, &sm->text, sframe_text_cmp_ip);
		if (n)
			return sframe_text_entry(n);
	} while (read_seqcount_retry(&sm->text_seq, seq));
	return NULL;
}

/**
 * sframe_text_first() - the first section whose text ends after an address
 * @sm:		the sections of an mm, @sm->lock held
 * @addr:	the address
 *
 * Return: the section with the lowest text range that ends after @addr
 * (and so covers it, or lies above it), or NULL.
 */
struct sframe_entry *sframe_text_first(struct sframe_mm *sm,
				       unsigned long addr)
{
	struct rb_node *n = sm->text.rb_node;
	struct sframe_entry *found = NULL;

	lockdep_assert_held(&sm->lock);
	while (n) {
		struct sframe_entry *ent = sframe_text_entry(n);

		if (ent->sec.text_end > addr) {
			found = ent;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return found;
}

/* The section after ent in text order, or NULL; locks as above. */
static struct sframe_entry *sframe_text_next(struct sframe_entry *ent)
{
	struct rb_node *n = rb_next(&ent->text_node);

	return n ? sframe_text_entry(n) : NULL;
}

/*
 * Add ent to sm: -ENOSPC past SFRAME_MAX_SECTIONS, -EEXIST if a section
 * starts where it does or its text overlaps a section's.  Allocates
 * nothing.
 */
static int sframe_link(struct mm_struct *mm, struct sframe_mm *sm,
		       struct sframe_entry *ent)
{
	struct rb_node *old;

	sframe_assert_locked(mm, sm);
	if (sm->nr >= SFRAME_MAX_SECTIONS)
		return -ENOSPC;
	/* One descent of each tree finds a clash or adds ent. */
	if (rb_find_add(&ent->data_node, &sm->data, sframe_data_cmp))
		return -EEXIST;
	sframe_text_write_begin(sm);
	old = rb_find_add_rcu(&ent->text_node, &sm->text,
			      sframe_text_cmp_range);
	sframe_text_write_end(sm);
	if (old) {
		rb_erase(&ent->data_node, &sm->data);
		return -EEXIST;
	}
	sframe_changed(sm);
	WRITE_ONCE(sm->nr, sm->nr + 1);
	return 0;
}

/* Remove ent from sm, free it after a grace period.  Allocates nothing. */
static void sframe_unlink(struct mm_struct *mm, struct sframe_mm *sm,
			  struct sframe_entry *ent)
{
	sframe_assert_locked(mm, sm);
	sframe_text_write_begin(sm);
	rb_erase(&ent->text_node, &sm->text);
	sframe_text_write_end(sm);
	rb_erase(&ent->data_node, &sm->data);
	sframe_changed(sm);
	WRITE_ONCE(sm->nr, sm->nr - 1);
	kfree_rcu(ent, rcu);
}

/**
 * sframe_mm_init() - start a new mm without sections
 * @mm:	the mm, from mm_init() (fork's copy included)
 */
void sframe_mm_init(struct mm_struct *mm)
{
	mm->sframe = NULL;
}

/**
 * sframe_free_mm() - free an mm's sections
 * @mm:	an mm nothing uses any more (__mmput())
 *
 * Nothing can look them up: the unwinder only looks at its own task's
 * mm, and /proc/PID/sframe only at an mm it holds a user reference to.
 */
void sframe_free_mm(struct mm_struct *mm)
{
	struct sframe_mm *sm = sframe_mm(mm);
	struct sframe_entry *ent, *tmp;

	if (!sm)
		return;
	rbtree_postorder_for_each_entry_safe(ent, tmp, &sm->text, text_node)
		kfree(ent);
	mm->sframe = NULL;
	kfree(sm->rules);
	kfree(sm);
}

/* mm's sections, allocated if it has none yet: NULL if out of memory. */
static struct sframe_mm *sframe_mm_get(struct mm_struct *mm)
{
	struct sframe_mm *sm = sframe_mm(mm), *old;

	if (sm)
		return sm;
	sm = kzalloc_obj(*sm, GFP_KERNEL_ACCOUNT);
	if (!sm)
		return NULL;
	sm->text = RB_ROOT;
	seqcount_init(&sm->text_seq);
	sm->data = RB_ROOT;
	mutex_init(&sm->lock);
	sm->changes = 1;
	/* Release order publishes sm's initialisation: see sframe_mm(). */
	old = cmpxchg_release(&mm->sframe, NULL, sm);
	if (old) {
		kfree(sm);
		return old;
	}
	return sm;
}

/*
 * [start, end) must be mapped without holes, and both its ends must be
 * executable.  Without holes, nothing new can be mapped inside the range
 * without first unmapping part of it, which drops the section.  The
 * caller holds mm's mmap lock.
 *
 * Returns 0, -ENXIO if part of the range is not mapped, or -EACCES if it
 * is mapped but its first or last byte is not executable.
 */
static int sframe_check_text(struct mm_struct *mm, unsigned long start,
			     unsigned long end)
{
	struct vm_area_struct *first = vma_lookup(mm, start);
	struct vm_area_struct *vma = first;

	if (!vma)
		return -ENXIO;
	while (vma->vm_end < end) {
		vma = vma_lookup(mm, vma->vm_end);
		if (!vma)
			return -ENXIO;
	}
	if (!(first->vm_flags & VM_EXEC) || !(vma->vm_flags & VM_EXEC))
		return -EACCES;
	return 0;
}

/**
 * sframe_dup_mm() - give a forked mm the sections of its parent's text
 * @mm:		the child's mm
 * @oldmm:	the parent's mm
 *
 * Copies each section whose whole text the child inherited: a part left
 * out (MADV_DONTFORK) is a hole a later mapping could fill.  Both mms
 * are locked for writing (dup_mmap()), under which the child's entries
 * are allocated, as its VMAs are.
 *
 * Return: 0, or -ENOMEM.
 */
int sframe_dup_mm(struct mm_struct *mm, struct mm_struct *oldmm)
{
	struct sframe_mm *old = sframe_mm(oldmm), *sm;
	struct sframe_entry *ent, *copy;
	int ret = 0;

	mmap_assert_write_locked(oldmm);
	mmap_assert_write_locked(mm);
	if (!old || !READ_ONCE(old->nr))
		return 0;
	sm = sframe_mm_get(mm);
	if (!sm)
		return -ENOMEM;
	mutex_lock(&old->lock);
	mutex_lock_nested(&sm->lock, SINGLE_DEPTH_NESTING);
	for (ent = sframe_text_first(old, 0); ent; ent = sframe_text_next(ent)) {
		/*
		 * Only a hole matters: text whose protection changed since it
		 * was registered keeps its section, in the child as here.
		 */
		if (sframe_check_text(mm, ent->sec.text_start,
				      ent->sec.text_end) == -ENXIO)
			continue;
		copy = kmalloc_obj(*copy, GFP_KERNEL_ACCOUNT);
		if (!copy) {
			ret = -ENOMEM;
			break;
		}
		copy->sec = (struct sframe_section) {
			.sframe_start	= ent->sec.sframe_start,
			.sframe_end	= ent->sec.sframe_end,
			.text_start	= ent->sec.text_start,
			.text_end	= ent->sec.text_end,
			/* What the unwinder noted of the header, racing. */
			.version	= READ_ONCE(ent->sec.version),
		};
		/* Cannot fail: the parent's sections are all distinct. */
		if (WARN_ON_ONCE(sframe_link(mm, sm, copy)))
			kfree(copy);
	}
	mutex_unlock(&sm->lock);
	mutex_unlock(&old->lock);
	return ret;
}

/**
 * sframe_unmap() - drop the sections whose text an unmap touches
 * @mm:		the mm, its mmap lock held for writing
 * @start:	the start of the range being unmapped
 * @end:	its end (exclusive)
 *
 * Called on every munmap; allocates nothing and cannot fail.
 */
void sframe_unmap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct sframe_mm *sm = sframe_mm(mm);
	struct sframe_entry *ent, *next;

	/* Every change holds the mmap lock, which this caller excludes. */
	mmap_assert_write_locked(mm);
	if (!sm || !sm->nr || start >= end)
		return;
	mutex_lock(&sm->lock);
	for (ent = sframe_text_first(sm, start);
	     ent && ent->sec.text_start < end; ent = next) {
		next = sframe_text_next(ent);
		sframe_unlink(mm, sm, ent);
	}
	mutex_unlock(&sm->lock);
}

/*
 * Lock mm's sections for a change from a system call: the mmap lock for
 * reading, then sm->lock.  -EINTR if a fatal signal came while waiting.
 */
static int sframe_lock(struct mm_struct *mm, struct sframe_mm *sm)
{
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	if (mutex_lock_killable(&sm->lock)) {
		mmap_read_unlock(mm);
		return -EINTR;
	}
	return 0;
}

static void sframe_unlock(struct mm_struct *mm, struct sframe_mm *sm)
{
	mutex_unlock(&sm->lock);
	mmap_read_unlock(mm);
}

/**
 * __sframe_new_entry() - a registration for the current process, not yet linked
 * @sframe_start:	start of the SFrame data
 * @sframe_end:		its end (exclusive)
 * @text_start:		start of the text it describes
 * @text_end:		its end (exclusive)
 *
 * Checks what needs neither a read nor a lock (the ranges, a size too
 * small for a header) and allocates the entry, before any lock is taken.
 * Reads nothing of the section: the unwinder reads and checks its header
 * each time it looks a rule up in it (sframe_unwind_rule()), so that a
 * process that is never profiled pays nothing for its SFrame data but
 * the registration itself.
 *
 * Return: the entry, for __sframe_link_entries(), or ERR_PTR() of -EINVAL
 * for an empty or inverted range, -EFAULT if the section is not in user
 * space, -ENOEXEC if it is shorter than an SFrame header, or -ENOMEM.
 */
static __always_inline struct sframe_entry *
__sframe_new_entry(unsigned long sframe_start, unsigned long sframe_end,
		   unsigned long text_start, unsigned long text_end)
{
	struct sframe_entry *ent;

	if (!current->mm || sframe_start >= sframe_end ||
	    text_start >= text_end)
		return ERR_PTR(-EINVAL);
	if (!access_ok((const void __user *)sframe_start,
		       sframe_end - sframe_start))
		return ERR_PTR(-EFAULT);
	if (sframe_end - sframe_start < sizeof(struct sframe_header))
		return ERR_PTR(-ENOEXEC);

	ent = kmalloc_obj(*ent, GFP_KERNEL_ACCOUNT);
	if (!ent)
		return ERR_PTR(-ENOMEM);
	ent->sec = (struct sframe_section) {
		.sframe_start	= sframe_start,
		.sframe_end	= sframe_end,
		.text_start	= text_start,
		.text_end	= text_end,
	};
	return ent;
}

/**
 * __sframe_link_entries() - add new entries to the current process's sections
 * @ents:	entries from __sframe_new_entry(), in the order to add them
 * @n:		how many
 * @linked:	set to how many were added
 *
 * Takes the locks once for all of them and adds them in order, up to the
 * first one refused; that one and those after it are freed.  What is
 * refused here is what the registry itself depends on: the text, which
 * must stay mapped for the section to stay, and the overlaps.
 *
 * Return: 0 if all were added, else why ents[*linked] was refused:
 * -ENXIO if its text is not wholly mapped, -EACCES if that is not
 * executable at either end, -EEXIST if it overlaps a registered
 * section's text or starts where one does, -ENOSPC past
 * SFRAME_MAX_SECTIONS, -ENOMEM, or -EINTR if a fatal signal came while
 * waiting for a lock (then none was added).
 */
static __always_inline int __sframe_link_entries(struct sframe_entry **ents,
						 unsigned int n,
						 unsigned int *linked)
{
	struct mm_struct *mm = current->mm;
	struct sframe_mm *sm;
	unsigned int i = 0;
	int ret;

	sm = sframe_mm_get(mm);
	ret = sm ? sframe_lock(mm, sm) : -ENOMEM;
	if (!ret) {
		for (; i < n; i++) {
			const struct sframe_section *sec = &ents[i]->sec;

			ret = sframe_check_text(mm, sec->text_start,
						sec->text_end);
			if (!ret)
				ret = sframe_link(mm, sm, ents[i]);
			if (ret)
				break;
		}
		sframe_unlock(mm, sm);
	}
	*linked = i;
	for (; i < n; i++)
		kfree(ents[i]);
	return ret;
}

/*
 * The two halves of a registration, for sframe_register_batch()
 * (sframe_syscall.c).  sframe_add_section() inlines them instead: one
 * registration is the common call, and costs about 40 instructions less
 * without the two calls and with the loops of a single entry folded.
 */
struct sframe_entry *sframe_new_entry(unsigned long sframe_start,
				      unsigned long sframe_end,
				      unsigned long text_start,
				      unsigned long text_end)
{
	return __sframe_new_entry(sframe_start, sframe_end, text_start,
				  text_end);
}

int sframe_link_entries(struct sframe_entry **ents, unsigned int n,
			unsigned int *linked)
{
	return __sframe_link_entries(ents, n, linked);
}

/**
 * sframe_add_section() - register a section for the current process
 * @sframe_start:	start of the SFrame data
 * @sframe_end:		its end (exclusive)
 * @text_start:		start of the text it describes
 * @text_end:		its end (exclusive)
 *
 * Return: 0, or an error of __sframe_new_entry() or __sframe_link_entries().
 */
int sframe_add_section(unsigned long sframe_start, unsigned long sframe_end,
		       unsigned long text_start, unsigned long text_end)
{
	struct sframe_entry *ent;
	unsigned int linked;

	ent = __sframe_new_entry(sframe_start, sframe_end, text_start,
				 text_end);
	if (IS_ERR(ent))
		return PTR_ERR(ent);
	return __sframe_link_entries(&ent, 1, &linked);
}

/**
 * sframe_add_vdso() - register the SFrame section of a vDSO just mapped
 * @mm:		the mm it was mapped in, its mmap lock held for writing
 * @image:	the vDSO image, an ELF object linked at 0
 * @size:	the image's size, all mapped as text at @base
 * @base:	where it is mapped
 *
 * For the architecture's vDSO mapping and its move by mremap.  The
 * section is found from the image's PT_GNU_SFRAME and its header checked
 * in the kernel's copy, which user space maps read-only (the unwinder
 * reads it again through the mapping, as any other); it is dropped
 * like any other when its text is unmapped, moved included.  Best
 * effort: an image without SFrame data gets nothing, and a failure only
 * leaves the vDSO to the frame-pointer unwinder.
 */
void sframe_add_vdso(struct mm_struct *mm, const void *image,
		     unsigned long size, unsigned long base)
{
	const struct elf64_hdr *eh = image;
	const struct elf64_phdr *ph = NULL;
	struct sframe_section sec = {};
	struct sframe_entry *ent;
	struct sframe_mm *sm;
	unsigned int i;
	int ret;

	mmap_assert_write_locked(mm);
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(*ph) || eh->e_phoff > size ||
	    eh->e_phnum > (size - eh->e_phoff) / sizeof(*ph))
		return;
	for (i = 0; i < eh->e_phnum; i++) {
		ph = image + eh->e_phoff + i * sizeof(*ph);
		if (ph->p_type == PT_GNU_SFRAME && ph->p_memsz)
			break;
	}
	if (i == eh->e_phnum || ph->p_vaddr > size ||
	    ph->p_memsz > size - ph->p_vaddr)
		return;

	sec.sframe_start = base + ph->p_vaddr;
	sec.sframe_end = sec.sframe_start + ph->p_memsz;
	sec.text_start = base;
	sec.text_end = base + size;
	ret = sframe_parse_header(&sec, image + ph->p_vaddr,
				  UNWIND_USER_SFRAME_ABI);
	if (ret) {
		pr_warn_once("sframe: the vDSO's section is not valid: %d\n",
			     ret);
		return;
	}

	sm = sframe_mm_get(mm);
	if (!sm)
		return;
	ent = kmalloc_obj(*ent, GFP_KERNEL_ACCOUNT);
	if (!ent)
		return;
	ent->sec = sec;
	mutex_lock(&sm->lock);
	ret = sframe_check_text(mm, sec.text_start, sec.text_end);
	if (!ret)
		ret = sframe_link(mm, sm, ent);
	mutex_unlock(&sm->lock);
	if (ret)
		kfree(ent);
}

/**
 * sframe_remove_section() - withdraw a section of the current process
 * @sframe_start:	the start it was registered with
 *
 * Return: 0, -ENOENT if the process has no section there (never
 * registered, already withdrawn, or dropped because its text was
 * unmapped), or -EINTR if a fatal signal came while waiting for a
 * lock.
 */
int sframe_remove_section(unsigned long sframe_start)
{
	struct mm_struct *mm = current->mm;
	struct sframe_mm *sm;
	struct rb_node *n;
	int ret;

	if (!mm)
		return -EINVAL;
	sm = sframe_mm(mm);
	if (!sm)
		return -ENOENT;
	ret = sframe_lock(mm, sm);
	if (ret)
		return ret;
	n = rb_find((void *)sframe_start, &sm->data, sframe_data_cmp_key);
	if (n)
		sframe_unlink(mm, sm, sframe_data_entry(n));
	sframe_unlock(mm, sm);
	return n ? 0 : -ENOENT;
}

/**
 * current_has_sframe() - whether the current process registered sections
 *
 * Return: true if it has at least one.
 */
bool current_has_sframe(void)
{
	struct sframe_mm *sm = sframe_mm(current->mm);

	return sm && READ_ONCE(sm->nr);
}
