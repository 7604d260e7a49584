/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgctl_parse_size() and cgctl_format_size() on arbitrary strings. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), buf[64];
	uint64_t v = 7, back;
	int r, n;

	if (!s)
		return 0;
	r = cgctl_parse_size(s, &v);
	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	if (r < 0) {
		FUZZ_CHECK(v == 7);	/* nothing written on failure */
		goto out;
	}
	FUZZ_CHECK((s[0] >= '0' && s[0] <= '9') || s[0] == '.' || !strcmp(s, "max"));
	n = cgctl_format_size(buf, sizeof(buf), v);
	FUZZ_CHECK(n > 0 && (size_t)n < sizeof(buf) && strlen(buf) == (size_t)n);
	/* what is printed reads back within the rounding (two decimals: 0.5%), unless
	 * its decimals are not a whole number of bytes ("1.17KiB") */
	if (v < (1ull << 63)) {
		r = cgctl_parse_size(buf, &back);
		FUZZ_CHECK(r == 0 || (r == -EINVAL && strchr(buf, '.')));
		if (r == 0)
			FUZZ_CHECK(fuzz_near(back, v));
		if (v < 1024)
			FUZZ_CHECK(r == 0 && back == v);
	}
out:
	free(s);
	return 0;
}
