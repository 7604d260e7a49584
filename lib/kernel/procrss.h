/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal declarations of the process RSS reader (lib/kernel/procrss.c). */
#ifndef CGCTL_KERNEL_PROCRSS_H
#define CGCTL_KERNEL_PROCRSS_H

#include "libcgctl.h"

/* Set every field of @r to "not printed" (UINT64_MAX, threads 0). */
void procrss_init(struct cgctl_procrss *r);

#endif
