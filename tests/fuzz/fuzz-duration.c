/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgctl_parse_duration() and cgctl_format_duration(); the first byte picks the unit of a
 * plain number (ns, µs, ms, s), the rest is the string. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t plain[] = { 1, 1000, 1000000, 1000000000 };
	char *s, buf[64];
	uint64_t v = 7, back;
	int r, n;

	if (size < 1)
		return 0;
	s = fuzz_str(data + 1, size - 1);
	if (!s)
		return 0;
	r = cgctl_parse_duration(s, plain[data[0] & 3], &v);
	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	if (r < 0) {
		FUZZ_CHECK(v == 7);
		goto out;
	}
	n = cgctl_format_duration(buf, sizeof(buf), v);
	FUZZ_CHECK(n > 0 && (size_t)n < sizeof(buf) && strlen(buf) == (size_t)n);
	/* every printed duration is whole ns and reads back within the rounding */
	if (v < (1ull << 63)) {
		r = cgctl_parse_duration(buf, 1000, &back);
		FUZZ_CHECK(r == 0);
		FUZZ_CHECK(fuzz_near(back, v));
		if (v < 1000)
			FUZZ_CHECK(back == v);
	}
out:
	free(s);
	return 0;
}
