/* User-space stand-in for the kernel's <linux/sched/signal.h>.  */
#ifndef SHIM_LINUX_SCHED_SIGNAL_H
#define SHIM_LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>

static inline int
fatal_signal_pending (void *task)
{
  (void) task;
  return 0;
}

#endif
