/* User-space stand-in for the kernel's <linux/unwind_user.h>: the frame
   rule type (the kernel's own include/linux/unwind_user_types.h from the
   patched tree, named by the build: KERNEL_UNWIND_USER_TYPES) and the
   per-architecture constants the reader uses, chosen at run time
   (shim.c) so that one build checks both architectures.  */
#ifndef SHIM_LINUX_UNWIND_USER_H
#define SHIM_LINUX_UNWIND_USER_H

#include KERNEL_UNWIND_USER_TYPES

extern unsigned int shim_dwarf_sp, shim_dwarf_fp;
extern int shim_signed_ra;

#define UNWIND_USER_DWARF_SP shim_dwarf_sp
#define UNWIND_USER_DWARF_FP shim_dwarf_fp
#define UNWIND_USER_SIGNED_RA shim_signed_ra

#endif
