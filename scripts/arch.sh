# Sourced by the build scripts: arch_set ARCH sets, for x86_64 (native)
# or arm64 (Debian's cross compiler in the toolchain root), arch (the
# Linux name), triplet (the GNU one) and cc (the C compiler).
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later
arch_set () {
  case $1 in
    x86_64) arch=x86_64 triplet=x86_64-linux-gnu cc=gcc ;;
    arm64) arch=arm64 triplet=aarch64-linux-gnu cc=aarch64-linux-gnu-gcc-16 ;;
    *) echo "$0: unknown arch $1" >&2; exit 1 ;;
  esac
}
