/* libdemo-plugin.so: loaded by the demo with dlopen or dlmopen; its
   callback runs the hot leaf.
   Copyright (C) 2026 The glibc-sframe authors.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

volatile unsigned long plugin_sink;

/* noipa: no clone under another name (plugin_leaf.constprop).  */
__attribute__ ((noipa)) static unsigned long
plugin_leaf (unsigned long n)
{
  unsigned long x = n;
  for (unsigned long i = 0; i < 4096; i++)
    x = x * 6364136223846793005UL + i;
  plugin_sink = x;
  return x;
}

__attribute__ ((noinline)) unsigned long
plugin_callback (unsigned long n)
{
  unsigned long r = plugin_leaf (n);
  /* Not a tail call: keep plugin_callback on the stack.  */
  plugin_sink = r;
  return r + 1;
}
