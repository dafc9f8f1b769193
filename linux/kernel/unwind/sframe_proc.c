// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/sframe: the SFrame sections a process has registered, one
 * line per section in text order:
 *
 *   text_start-text_end sframe_start-sframe_end header [path]
 *
 * Addresses are hexadecimal as in /proc/PID/maps; header is what the
 * unwinder found the section's header to be: "-" until a stack is
 * unwound through its text, then "v2" or "v3", or "refused" for one it
 * does not read (its text is then unwound with frame pointers); path is
 * the file mapped at text_start, or the name of a special mapping such
 * as [vdso] (none for anonymous text).  It shows what the unwinder will
 * use for a process, and lets a test check that unloading an object
 * left nothing behind.  Opening it needs the permission that
 * /proc/PID/maps needs.
 *
 * Like maps, it is a seq_file that holds the target's mmap lock (for
 * reading) only while it fills one buffer, and resumes after the last
 * section shown.
 */
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>

#include "sframe_mm.h"

struct sframe_proc {
	struct mm_struct	*mm;	/* taken at open; NULL: no mm */
	struct sframe_mm	*sm;	/* locked by start, NULL if not */
	bool			locked;	/* start took the mmap lock */
	unsigned long		next;	/* where the next section ends after */
	struct sframe_entry	vdso;	/* the vDSO's, where start found it */
};

/*
 * The first section whose text ends after @addr: of the tree, or the
 * vDSO's, whichever is lower.
 */
static struct sframe_entry *sframe_proc_first(struct sframe_proc *priv,
					      unsigned long addr)
{
	struct sframe_entry *ent = NULL;

	if (priv->sm)
		ent = sframe_text_first(priv->sm, addr);
	if (priv->vdso.sec.text_end > addr &&
	    (!ent || priv->vdso.sec.text_start < ent->sec.text_start))
		return &priv->vdso;
	return ent;
}

static void *sframe_seq_start(struct seq_file *m, loff_t *pos)
{
	struct sframe_proc *priv = m->private;
	struct mm_struct *mm = priv->mm;
	struct sframe_mm *sm;

	priv->sm = NULL;
	priv->locked = false;
	if (!mm || !mmget_not_zero(mm))
		return NULL;	/* no address space (any more) */
	if (mmap_read_lock_killable(mm)) {
		mmput(mm);
		return ERR_PTR(-EINTR);
	}
	sm = sframe_mm(mm);
	if (sm && mutex_lock_killable(&sm->lock)) {
		mmap_read_unlock(mm);
		mmput(mm);
		return ERR_PTR(-EINTR);
	}
	priv->locked = true;
	priv->sm = sm;
	priv->vdso.sec = (struct sframe_section) {};
	if (mm->sframe_vdso) {
		priv->vdso.sec = sframe_vdso_sec;
		priv->vdso.sec.sframe_start += mm->sframe_vdso;
		priv->vdso.sec.sframe_end += mm->sframe_vdso;
		priv->vdso.sec.text_start += mm->sframe_vdso;
		priv->vdso.sec.text_end += mm->sframe_vdso;
	}
	if (!*pos)
		priv->next = 0;
	return sframe_proc_first(priv, priv->next);
}

static void *sframe_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct sframe_proc *priv = m->private;
	struct sframe_entry *ent = v;

	++*pos;
	priv->next = ent->sec.text_end;
	return sframe_proc_first(priv, priv->next);
}

static void sframe_seq_stop(struct seq_file *m, void *v)
{
	struct sframe_proc *priv = m->private;

	if (!priv->locked)
		return;
	if (priv->sm)
		mutex_unlock(&priv->sm->lock);
	mmap_read_unlock(priv->mm);
	mmput(priv->mm);
	priv->sm = NULL;
	priv->locked = false;
}

static int sframe_seq_show(struct seq_file *m, void *v)
{
	struct sframe_proc *priv = m->private;
	const struct sframe_section *sec = &((struct sframe_entry *)v)->sec;
	struct vm_area_struct *vma = vma_lookup(priv->mm, sec->text_start);
	u8 header = READ_ONCE(sec->version);

	seq_printf(m, "%08lx-%08lx %08lx-%08lx ",
		   sec->text_start, sec->text_end,
		   sec->sframe_start, sec->sframe_end);
	/* What the unwinder found the header to be, if it read it yet. */
	if (!header)
		seq_putc(m, '-');
	else if (header == SFRAME_HEADER_REFUSED)
		seq_puts(m, "refused");
	else
		seq_printf(m, "v%u", header);
	if (vma && vma->vm_file) {
		seq_putc(m, ' ');
		seq_file_path(m, vma->vm_file, "\n");
	} else if (vma && vma->vm_ops && vma->vm_ops->name) {
		/* A special mapping, such as the vDSO: its name in maps */
		const char *name = vma->vm_ops->name(vma);

		if (name)
			seq_printf(m, " %s", name);
	}
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations sframe_seq_ops = {
	.start	= sframe_seq_start,
	.next	= sframe_seq_next,
	.stop	= sframe_seq_stop,
	.show	= sframe_seq_show,
};

/*
 * The mm is taken at open, with the permission check of /proc/PID/maps,
 * so that a descriptor opened before a setuid exec does not show the new
 * image's addresses.  It is pinned with mmgrab(), not mmget().
 */
static int sframe_proc_open(struct inode *inode, struct file *file)
{
	struct mm_struct *mm = proc_mem_open(inode, PTRACE_MODE_READ);
	struct sframe_proc *priv;

	if (IS_ERR(mm))
		return PTR_ERR(mm);
	priv = __seq_open_private(file, &sframe_seq_ops, sizeof(*priv));
	if (!priv) {
		if (mm)
			mmdrop(mm);
		return -ENOMEM;
	}
	priv->mm = mm;
	return 0;
}

static int sframe_proc_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct sframe_proc *priv = m->private;

	if (priv->mm)
		mmdrop(priv->mm);
	return seq_release_private(inode, file);
}

const struct file_operations proc_sframe_operations = {
	.open		= sframe_proc_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= sframe_proc_release,
};
