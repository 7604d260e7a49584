/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cgroup lock of the settings writers and the flock(2) wait they share with the
 * move lock (lib/kernel/cglock.c).  Not installed. */
#ifndef CGCTL_KERNEL_CGLOCK_H
#define CGCTL_KERNEL_CGLOCK_H

#include <stdbool.h>

#include "libcgctl.h"

/* cgctl_flock_wait: flock(LOCK_EX) @fd, retrying every millisecond for at most @wait_ms.
 * Returns: 0, -EBUSY (still held by another), -errno. */
int cgctl_flock_wait(int fd, unsigned int wait_ms);
/* Returns: whether the writers of @ctx block SIGINT, SIGTERM, SIGHUP and SIGQUIT. */
bool cgctl_ctx_blocks_signals(const struct cgctl_ctx *ctx);

#endif
