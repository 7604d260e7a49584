/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CGCTL_UTIL_ERROR_H
#define CGCTL_UTIL_ERROR_H

#include "libcgctl.h"

/*
 * cgctl_error_set: record @err (positive errno) and a formatted one-line message in @e
 * (which may be NULL; left as it is when its size is not set: CGCTL_ERROR_INIT).
 * Returns: -err, so callers can `return cgctl_error_set(...)`.
 */
int cgctl_error_set(struct cgctl_error *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Clear @e (may be NULL). */
void cgctl_error_clear(struct cgctl_error *e);

#endif
