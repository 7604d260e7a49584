/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The /proc/PID/{status,smaps_rollup,statm,stat} RSS parsers: documented errors only,
 * and a field is only set when its parser succeeds. */
#include "fuzz.h"

typedef int (*parser)(const char *buf, struct cgctl_procrss *r);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const parser parsers[] = { cgctl_procrss_parse_status,
					  cgctl_procrss_parse_smaps_rollup,
					  cgctl_procrss_parse_statm, cgctl_procrss_parse_stat };
	char *s = fuzz_str(data, size);
	struct cgctl_procrss r;
	size_t i;
	int ret;

	if (!s)
		return 0;
	for (i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++) {
		memset(&r, 0xff, sizeof(r));
		r.threads = 0;
		ret = parsers[i](s, &r);
		FUZZ_CHECK(ret == 0 || ret == -EINVAL);
		if (i == 2 && ret < 0)
			FUZZ_CHECK(r.statm_resident_pages == UINT64_MAX);
	}
	free(s);
	return 0;
}
