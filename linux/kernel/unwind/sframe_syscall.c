// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_register() and sframe_unregister(): the system calls through
 * which a dynamic linker registers and withdraws the SFrame sections of
 * the objects it maps.  They reach the same registry as PR_ADD_SFRAME
 * and PR_REMOVE_SFRAME; only the shape of the arguments differs.
 */
#include <linux/build_bug.h>
#include <linux/overflow.h>
#include <linux/sframe.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <uapi/linux/sframe.h>

static_assert(sizeof(struct sframe_setup) == SFRAME_SETUP_SIZE_VER0);

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

SYSCALL_DEFINE2(sframe_register, const struct sframe_setup __user *, usetup,
		size_t, size)
{
	struct sframe_setup setup;
	unsigned long sframe_end, text_end;
	int ret;

	ret = sframe_copy_setup(&setup, usetup, size);
	if (ret)
		return ret;
	/* Empty ranges, and ranges that wrap, are not understood. */
	if (!setup.sframe_size || !setup.text_size ||
	    check_add_overflow(setup.sframe_start, setup.sframe_size,
			       &sframe_end) ||
	    check_add_overflow(setup.text_start, setup.text_size, &text_end))
		return -EINVAL;
	return sframe_add_section(setup.sframe_start, sframe_end,
				  setup.text_start, text_end);
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
