/* User-space stand-in for the kernel's <linux/uaccess.h>: "user memory"
   is one window of bytes at a chosen address (shim.c).  The reader
   promises never to read outside the registered section, so the window
   is exactly the section and a read outside it aborts: a finding.  */
#ifndef SHIM_LINUX_UACCESS_H
#define SHIM_LINUX_UACCESS_H

#include <stddef.h>

#define __user

/* Like the kernel's: the number of bytes not copied (0 on success).  */
unsigned long copy_from_user (void *to, const void __user *from,
			      unsigned long n);

#endif
