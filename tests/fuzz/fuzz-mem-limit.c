/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Memory limits (v1 and v2 spellings of "unlimited") and plain number files. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	uint64_t b = 3, u = 5;
	int r = cgctl_parse_mem_limit(buf, size, &b);
	int ru = cgctl_parse_u64(buf, size, &u);

	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	FUZZ_CHECK(fuzz_errno_ok(ru, -EINVAL, -ERANGE, -EINVAL));
	if (r < 0)
		FUZZ_CHECK(b == 3);
	/* a plain number is a limit: the same one, or unlimited near INT64_MAX */
	if (ru == 0)
		FUZZ_CHECK(r == 0 && (b == u || (b == UINT64_MAX && u > INT64_MAX - 65536ull)));
	if (ru < 0)
		FUZZ_CHECK(u == 5);
	return 0;
}
