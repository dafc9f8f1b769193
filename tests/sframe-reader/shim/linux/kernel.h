/* User-space stand-in for the kernel's <linux/kernel.h>: what the SFrame
   reader uses of it.  */
#ifndef SHIM_LINUX_KERNEL_H
#define SHIM_LINUX_KERNEL_H

#include <linux/types.h>

#define ARRAY_SIZE(a) (sizeof (a) / sizeof ((a)[0]))

#endif
