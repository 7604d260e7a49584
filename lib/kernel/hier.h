/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CGCTL_KERNEL_HIER_H
#define CGCTL_KERNEL_HIER_H

#include "ctx.h"

/* Load ctx->mounts once: from ROOT/cgctl-mounts with a root prefix, else libcgroup. */
int cgctl_hier_load(struct cgctl_ctx *ctx);
/* Map a libcgroup ECG* code (or 0) to -errno; the only place that knows ECG* codes. */
int cgctl_hier_ecg_to_errno(int ecg);
/* Parse the fixture mount map: "<version> <path> <controllers|->" per line. */
int cgctl_hier_parse_map(struct cgctl_ctx *ctx, const char *buf);
/* Append one mount (strings copied). */
int cgctl_hier_add(struct cgctl_ctx *ctx, int version, const char *path, const char *ctrls);

#endif
