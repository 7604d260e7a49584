/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel version strings (lib/util/kver.c): in libcgctl-util.la, linked into the library
 * (not exported; the library's answer is cgctl_kver_of()) and into cgctl, which parses
 * --kernel and names the running kernel.
 */
#ifndef CGCTL_UTIL_KVER_H
#define CGCTL_UTIL_KVER_H

#include <stdint.h>

/* Parse "6.18.44-fc-v1045", "6.1", "2.6.34": Returns 0 and sets *ret, or -EINVAL. */
int cgctl_kver_parse(const char *s, uint32_t *ret);
/* Returns: the running kernel's version (uname), or 0 if it cannot be parsed. */
uint32_t cgctl_kver_running(void);

#endif
