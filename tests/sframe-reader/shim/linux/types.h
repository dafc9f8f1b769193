/* User-space stand-in for the kernel's <linux/types.h>: what the SFrame
   reader (kernel/unwind/sframe_read.c) uses of it.  */
#ifndef SHIM_LINUX_TYPES_H
#define SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define __packed __attribute__ ((packed))
#define U16_MAX UINT16_MAX
#define U32_MAX UINT32_MAX
#define BIT(n) (1UL << (n))

#endif
