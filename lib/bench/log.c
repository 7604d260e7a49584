/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The log call of validate's scratch code (lib/validate/env.c) where that code is linked
 * into cgctl for `cgctl bench` rather than running inside libcgctl.so: through the
 * context's log function, which cgctl reaches by libcgctl's API (its priority).
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

void cgctl_log(const struct cgctl_ctx *ctx, int priority, const char *file, int line,
	       const char *fn, const char *format, ...)
{
	va_list ap;

	(void)file;
	(void)line;
	(void)fn;
	if (!ctx || cgctl_get_log_priority(ctx) < priority)
		return;
	va_start(ap, format);
	fputs("cgctl: ", stderr);
	vfprintf(stderr, format, ap);
	fputc('\n', stderr);
	va_end(ap);
}
