/* User-space stand-in for the kernel's <linux/uaccess.h>: "user memory"
   is one window of bytes at a chosen address (shim.c).  The reader
   promises never to read outside the registered section, so the window
   is exactly the section and a read outside it aborts: a finding.  The
   reader opens user access for the whole section and reads each field
   with unsafe_get_user; a failed read goes to the caller's label, as in
   the kernel.  */
#ifndef SHIM_LINUX_UACCESS_H
#define SHIM_LINUX_UACCESS_H

#include <stdbool.h>
#include <stddef.h>

#define __user
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has one */
# define __always_inline inline __attribute__ ((always_inline))
#endif

/* Like the kernel's: the number of bytes not copied (0 on success).  */
unsigned long copy_from_user (void *to, const void __user *from,
			      unsigned long n);

/* Opens user access for [FROM, FROM + N): it must be the window.  */
bool user_read_access_begin (const void __user *from, unsigned long n);
void user_read_access_end (void);

/* Nonzero if the read failed.  Aborts outside the window, or outside
   a user_read_access_begin/end pair.  */
int shim_get_user (void *to, const void __user *from, unsigned long n);

#define unsafe_get_user(x, ptr, label)					\
  do									\
    {									\
      _Static_assert (sizeof (x) == sizeof (*(ptr)), "size of x");	\
      if (shim_get_user (&(x), (ptr), sizeof (*(ptr))))			\
	goto label;							\
    }									\
  while (0)

#endif
