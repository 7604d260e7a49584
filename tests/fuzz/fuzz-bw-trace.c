/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The workload trace parser (bw record's format v1 and the v0 busy/idle lines). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cgctl_bw_trace *t = NULL;
	struct cgctl_bw_trace_info ti = { .size = sizeof(ti) };
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int r;

	r = cgctl_bw_trace_parse((const char *)data, size, &t, &e);
	FUZZ_CHECK(r == 0 || r == -EINVAL || r == -ENOMEM);
	if (r < 0) {
		FUZZ_CHECK(r == -ENOMEM || e.msg[0]);
		return 0;
	}
	FUZZ_CHECK(cgctl_bw_trace_info(t, &ti) == 0);
	FUZZ_CHECK(ti.threads >= 1 && ti.threads <= 65536 && ti.version <= 2);
	FUZZ_CHECK(ti.ready_ns <= (uint64_t)ti.threads * ti.span_ns);
	FUZZ_CHECK(ti.span_ns <= 366ULL * 86400 * 1000000000ULL);
	FUZZ_CHECK(ti.busy_ns <= (uint64_t)ti.threads * ti.span_ns);
	cgctl_bw_trace_free(t);
	return 0;
}
