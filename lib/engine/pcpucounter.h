/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal declarations of the percpu_counter model (lib/engine/pcpucounter.c). */
#ifndef CGCTL_ENGINE_PCPUCOUNTER_H
#define CGCTL_ENGINE_PCPUCOUNTER_H

#include "libcgctl.h"

/* Online CPUs above which the batch stops being 32 (2 * ncpu > 32). */
#define PCPUC_MIN_BATCH 32

struct cgctl_pcpuc {
	int64_t count;		/* fbc->count */
	int32_t batch;
	unsigned int ncpu;
	int32_t delta[];	/* *fbc->counters, one per online CPU */
};

#endif
