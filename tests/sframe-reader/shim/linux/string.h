/* User-space stand-in for the kernel's <linux/string.h>: the C
   library's.  */
#include <string.h>
