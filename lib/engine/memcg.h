/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* memcg model: public API in lib/libcgctl.h (section memcg), internals in memcg-internal.h */
#ifndef CGCTL_ENGINE_MEMCG_H
#define CGCTL_ENGINE_MEMCG_H
#include "engine/memcg-internal.h"

/* reclaim model shared by the charge path, limit writes and the move planner */
uint64_t mg_reclaim(struct cgctl_memcg_tree *t, int over, uint64_t amount);

#endif
