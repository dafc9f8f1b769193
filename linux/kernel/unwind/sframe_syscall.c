// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_register() and sframe_unregister(): the system calls through
 * which a dynamic linker registers and withdraws the SFrame sections of
 * the objects it maps.  Every architecture's table has them: where the
 * unwinder is not built, COND_SYSCALL answers ENOSYS.  Compat tasks,
 * which are not unwound with SFrame, find the numbers reserved with no
 * entry point in their tables.
 *
 * sframe_register_batch() registers an array of sections in one call,
 * so that a dynamic linker registers all the objects one start-up or
 * one dlopen() maps at once.
 */
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/sframe.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <uapi/linux/sframe.h>

#include "sframe_mm.h"

static_assert(sizeof(struct sframe_setup) == SFRAME_SETUP_SIZE_VER0);

/*
 * The entries of a batch are allocated a group at a time, before the
 * locks are taken once for the group.
 */
#define SFRAME_GROUP	32

/*
 * Copy the caller's structure.  Its size must be one the kernel knows
 * exactly: a smaller or larger one is not understood (-EINVAL), whatever
 * the extra bytes hold.  Only then is the structure read (-EFAULT).
 */
static int sframe_copy_setup(struct sframe_setup *setup,
			     const struct sframe_setup __user *usetup,
			     size_t size)
{
	if (size != SFRAME_SETUP_SIZE_VER0)
		return -EINVAL;
	if (copy_from_user(setup, usetup, size))
		return -EFAULT;
	return 0;
}

/*
 * The ends of a structure's ranges.  Empty ranges, and ranges that wrap,
 * are not understood: false.
 */
static bool sframe_setup_ends(const struct sframe_setup *setup,
			      unsigned long *sframe_end,
			      unsigned long *text_end)
{
	return setup->sframe_size && setup->text_size &&
	       !check_add_overflow(setup->sframe_start, setup->sframe_size,
				   sframe_end) &&
	       !check_add_overflow(setup->text_start, setup->text_size,
				   text_end);
}

/* A new entry for the structure *usetup of a batch: see sframe_new_entry(). */
static struct sframe_entry *
sframe_setup_entry(const struct sframe_setup __user *usetup)
{
	unsigned long sframe_end, text_end;
	struct sframe_setup setup;

	if (copy_from_user(&setup, usetup, sizeof(setup)))
		return ERR_PTR(-EFAULT);
	if (!sframe_setup_ends(&setup, &sframe_end, &text_end))
		return ERR_PTR(-EINVAL);
	return sframe_new_entry(setup.sframe_start, sframe_end,
				setup.text_start, text_end);
}

/* Register *usetup, of size bytes: 0, or why not. */
static int sframe_register_one(const struct sframe_setup __user *usetup,
			       size_t size)
{
	struct sframe_setup setup;
	unsigned long sframe_end, text_end;
	int ret;

	ret = sframe_copy_setup(&setup, usetup, size);
	if (ret)
		return ret;
	if (!sframe_setup_ends(&setup, &sframe_end, &text_end))
		return -EINVAL;
	return sframe_add_section(setup.sframe_start, sframe_end,
				  setup.text_start, text_end);
}

SYSCALL_DEFINE2(sframe_register, const struct sframe_setup __user *, usetup,
		size_t, size)
{
	return sframe_register_one(usetup, size);
}

/*
 * Register usetups[0] to usetups[count - 1] in their order, up to the
 * first structure refused, each checked as a sframe_register() call of
 * its own would be.  Entries are allocated a group at a time, before
 * the locks, and linked under one taking of the locks a group; between
 * groups the call lets others run and stops for a fatal signal.
 *
 * Not inlined, so that the group it keeps on its stack (which the kernel
 * may clear at each call, CONFIG_INIT_STACK_ALL_ZERO) costs nothing to
 * a batch of one.
 *
 * Return: as sframe_register_batch().
 */
static noinline long
sframe_register_many(const struct sframe_setup __user *usetups,
		     unsigned int count)
{
	struct sframe_entry *ents[SFRAME_GROUP];
	unsigned int i, n = 0, linked;
	long done = 0, ret = 0;
	int err;

	for (i = 0; i < count; i++) {
		struct sframe_entry *ent = sframe_setup_entry(&usetups[i]);

		if (IS_ERR(ent)) {
			ret = PTR_ERR(ent);
			break;
		}
		ents[n++] = ent;
		if (n < SFRAME_GROUP || i + 1 == count)
			continue;
		ret = sframe_link_entries(ents, n, &linked);
		done += linked;
		n = 0;
		if (ret)
			break;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	/* The entries before a refused structure are registered all the same. */
	if (n) {
		err = sframe_link_entries(ents, n, &linked);
		done += linked;
		if (err)
			ret = err;
	}
	return done ? done : ret;
}

/*
 * Return: the number of structures registered, count if all were; if
 * the first was refused, why.  A call from the refused structure says
 * why it was.
 */
SYSCALL_DEFINE3(sframe_register_batch,
		const struct sframe_setup __user *, usetups,
		unsigned int, count, size_t, size)
{
	int ret;

	if (size != SFRAME_SETUP_SIZE_VER0 || !count ||
	    count > SFRAME_BATCH_MAX)
		return -EINVAL;
	/* A dlopen() of one object: sframe_register()'s path. */
	if (count == 1) {
		ret = sframe_register_one(usetups, size);
		return ret ? ret : 1;
	}
	return sframe_register_many(usetups, count);
}

SYSCALL_DEFINE2(sframe_unregister, const struct sframe_setup __user *, usetup,
		size_t, size)
{
	struct sframe_setup setup;
	int ret;

	ret = sframe_copy_setup(&setup, usetup, size);
	if (ret)
		return ret;
	if (setup.sframe_size || setup.text_start || setup.text_size)
		return -EINVAL;
	return sframe_remove_section(setup.sframe_start);
}
