/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal constants of the mm RSS counter model (lib/engine/rsscount.c). */
#ifndef CGCTL_ENGINE_RSSCOUNT_H
#define CGCTL_ENGINE_RSSCOUNT_H

#include "libcgctl.h"

/* mm/memory.c (2.6.34-6.1): the cache is flushed when events exceeds this at a fault */
#define RSS_EVENTS_THRESH 64
/* faults whose deltas can sit unflushed in one thread: THRESH + 1 counted before the
 * check fires, plus the fault that triggered the flush (its update follows the flush) */
#define RSS_UNFLUSHED_FAULTS (RSS_EVENTS_THRESH + 2)
/* fault_around_bytes default (64 KiB) in 4 KiB pages, since 3.15 */
#define RSS_FAULT_AROUND_PAGES 16

#endif
