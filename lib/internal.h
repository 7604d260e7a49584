/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal helpers shared by every part of libcgctl (not installed). */
#ifndef CGCTL_INTERNAL_H
#define CGCTL_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <syslog.h>

#include "libcgctl.h"
#include "util/error.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define _cleanup_(f) __attribute__((cleanup(f)))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _unused_ __attribute__((unused))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

void cgctl_log(const struct cgctl_ctx *ctx, int priority, const char *file, int line,
	       const char *fn, const char *format, ...) _printf_(6, 7);

#define cgctl_log_cond(ctx, prio, ...)                                                    \
	do {                                                                              \
		if (cgctl_get_log_priority(ctx) >= prio)                                  \
			cgctl_log(ctx, prio, __FILE__, __LINE__, __func__, __VA_ARGS__);  \
	} while (0)

#define dbg(ctx, ...) cgctl_log_cond(ctx, LOG_DEBUG, __VA_ARGS__)
#define info(ctx, ...) cgctl_log_cond(ctx, LOG_INFO, __VA_ARGS__)
#define warn(ctx, ...) cgctl_log_cond(ctx, LOG_WARNING, __VA_ARGS__)
#define err(ctx, ...) cgctl_log_cond(ctx, LOG_ERR, __VA_ARGS__)

static inline void freep(void *p)
{
	free(*(void **)p);
}

#endif
