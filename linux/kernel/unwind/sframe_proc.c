// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/sframe: the SFrame sections a process has registered, one
 * line per section in text order:
 *
 *   text_start-text_end sframe_start-sframe_end vVERSION [path]
 *
 * Addresses are hexadecimal as in /proc/PID/maps; path is the file
 * mapped at text_start (none for anonymous text).  It shows what the
 * unwinder will use for a process, and lets a test check that unloading
 * an object left nothing behind.  Opening it needs the permission that
 * /proc/PID/maps needs.
 */
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/proc_fs.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>

#include "sframe.h"

/*
 * The show function of /proc/PID/sframe (fs/proc/base.c): m->private is
 * the mm taken at open (NULL for a task without one), pinned with
 * mmgrab() but not mmget().
 */
int proc_sframe_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = m->private;
	struct sframe_section *sec;
	unsigned long index = 0;
	int ret;

	if (!mm || !mmget_not_zero(mm))
		return 0;	/* no address space (any more) */

	/* Sections change under the mmap lock held for writing. */
	ret = mmap_read_lock_killable(mm);
	if (ret)
		goto out;
	mt_for_each(&mm->sframe_mt, sec, index, ULONG_MAX) {
		struct vm_area_struct *vma = vma_lookup(mm, sec->text_start);

		seq_printf(m, "%08lx-%08lx %08lx-%08lx v%u",
			   sec->text_start, sec->text_end,
			   sec->sframe_start, sec->sframe_end, sec->version);
		if (vma && vma->vm_file) {
			seq_putc(m, ' ');
			seq_file_path(m, vma->vm_file, "\n");
		}
		seq_putc(m, '\n');
	}
	mmap_read_unlock(mm);
out:
	mmput(mm);
	return ret;
}
