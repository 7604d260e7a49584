/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

int cgctl_error_set(struct cgctl_error *e, int err, const char *fmt, ...)
{
	va_list ap;

	if (err < 0)
		err = -err;
	/* a structure without its size (CGCTL_ERROR_INIT) is not ours to fill */
	if (e && e->size >= sizeof(*e)) {
		e->err = err;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return -err;
}

void cgctl_error_clear(struct cgctl_error *e)
{
	if (!e || e->size < sizeof(*e))
		return;
	e->err = 0;
	e->msg[0] = '\0';
}
