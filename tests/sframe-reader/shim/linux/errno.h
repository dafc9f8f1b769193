/* User-space stand-in for the kernel's <linux/errno.h>: the UAPI numbers
   (this directory shadows the UAPI <linux/errno.h> too, which glibc's
   <errno.h> includes).  */
#include <asm/errno.h>
