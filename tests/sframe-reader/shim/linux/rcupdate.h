/* User-space stand-in for the kernel's <linux/rcupdate.h>: struct
   sframe_section embeds an rcu_head the reader never touches.  */
#ifndef SHIM_LINUX_RCUPDATE_H
#define SHIM_LINUX_RCUPDATE_H

struct rcu_head
{
  void *next;
  void (*func) (struct rcu_head *);
};

#endif
