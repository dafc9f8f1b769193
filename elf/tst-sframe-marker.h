/* Ask whether an address lies in registered SFrame text, for tests.
   Copyright The GNU Toolchain Authors.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

#ifndef TST_SFRAME_MARKER_H
#define TST_SFRAME_MARKER_H

/* The test modules and tst-sframe-prog ask, with sframe_marker,
   whether their text is registered when their code first runs.  Under
   the stand-in of <support/sframe-stub.h> the question is a prctl it
   records and answers; on a kernel with the interface, without the
   stand-in, the kernel's list /proc/self/sframe answers.  */

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <support/sframe-stub.h>

/* Record marker ID and return 1 if ADDR lies in registered text, 0 if
   not, -1 without the stand-in or the kernel's list.  IFUNC resolvers
   ask too, before libc.so.6 is initialized: no stdio, only the wrappers
   of the system calls.  */
static inline long int
sframe_marker_ask (unsigned long int id, uintptr_t addr)
{
  long int r = prctl (SFRAME_STUB_MARKER, id, addr, 0UL, 0UL);
  int fd = r >= 0 ? -1 : open ("/proc/self/sframe", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return r;
  char buf[16384];
  ssize_t len = 0;
  for (ssize_t n; (n = read (fd, buf + len, sizeof (buf) - len - 1)) > 0; )
    len += n;
  close (fd);
  /* Each line starts with the text's range, "START-END" in hex.  */
  buf[len] = '\n';
  uintptr_t range[2] = { 0, 0 };
  for (ssize_t i = 0, field = 0; i <= len; ++i)
    if (buf[i] == '\n')
      {
	if (range[0] <= addr && addr < range[1])
	  return 1;
	range[0] = range[1] = field = 0;
      }
    else if (buf[i] == '-' || buf[i] == ' ')
      ++field;
    else if (field < 2)
      range[field] = (range[field] * 16
		      + (buf[i] <= '9' ? buf[i] - '0' : buf[i] - 'a' + 10));
  return 0;
}
#define sframe_marker(id, addr) sframe_marker_ask (id, (uintptr_t) (addr))

#endif /* tst-sframe-marker.h */
