/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SFrame user-space unwinding: the sections a process registered.
 *
 * A section is the .sframe data (PT_GNU_SFRAME) of one loaded object and
 * the text range it describes.  binfmt_elf registers the executable and
 * its interpreter at exec, the architecture the vDSO's at boot;
 * the dynamic linker registers every other object with sframe_register()
 * and withdraws it with sframe_unregister().
 */
#ifndef _LINUX_SFRAME_H
#define _LINUX_SFRAME_H

#include <linux/errno.h>
#include <linux/init.h>
#include <linux/types.h>

struct mm_struct;
struct unwind_user_frame;
struct unwind_user_gap;

#ifdef CONFIG_HAVE_UNWIND_USER_SFRAME

void sframe_mm_init(struct mm_struct *mm);
void sframe_free_mm(struct mm_struct *mm);
int sframe_dup_mm(struct mm_struct *mm, struct mm_struct *oldmm);
void sframe_unmap(struct mm_struct *mm, unsigned long start, unsigned long end);

int sframe_add_section(unsigned long sframe_start, unsigned long sframe_end,
		       unsigned long text_start, unsigned long text_end);
int sframe_remove_section(unsigned long sframe_start);
void __init sframe_vdso_init(const void *image, unsigned long size);
void sframe_map_vdso(struct mm_struct *mm, unsigned long base);

bool current_has_sframe(void);
int sframe_unwind_rule(unsigned long ip, struct unwind_user_frame *frame,
		       unsigned int *rows, struct unwind_user_gap *gap);
void sframe_unwind_gap(struct unwind_user_gap *gap);

#else /* !CONFIG_HAVE_UNWIND_USER_SFRAME */

static inline void sframe_mm_init(struct mm_struct *mm) {}
static inline void sframe_free_mm(struct mm_struct *mm) {}
static inline int sframe_dup_mm(struct mm_struct *mm, struct mm_struct *oldmm)
{
	return 0;
}

static inline void sframe_unmap(struct mm_struct *mm, unsigned long start,
				unsigned long end) {}

static inline int sframe_add_section(unsigned long sframe_start,
				     unsigned long sframe_end,
				     unsigned long text_start,
				     unsigned long text_end)
{
	return -EINVAL;
}

static inline int sframe_remove_section(unsigned long sframe_start)
{
	return -EINVAL;
}

static inline void sframe_vdso_init(const void *image, unsigned long size) {}
static inline void sframe_map_vdso(struct mm_struct *mm, unsigned long base) {}

static inline bool current_has_sframe(void)
{
	return false;
}

static inline int sframe_unwind_rule(unsigned long ip,
				     struct unwind_user_frame *frame,
				     unsigned int *rows,
				     struct unwind_user_gap *gap)
{
	return -ENOENT;
}

static inline void sframe_unwind_gap(struct unwind_user_gap *gap) {}

#endif /* CONFIG_HAVE_UNWIND_USER_SFRAME */

#endif /* _LINUX_SFRAME_H */
