/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpu.max (v2) and cpu.cfs_quota_us (v1). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	uint64_t q = 3, p = 5;
	int r = cgctl_parse_cpu_max(buf, size, &q, &p);
	size_t lead = 0;

	while (lead < size && (buf[lead] == ' ' || buf[lead] == '\t'))
		lead++;	/* blanks before the quota are allowed, like the kernel's sscanf */

	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	if (r < 0)
		FUZZ_CHECK(q == 3 && p == 5);
	else if (q == UINT64_MAX)
		FUZZ_CHECK(size - lead >= 3 && !memcmp(buf + lead, "max", 3) ? true :
			   memmem(buf, size, "18446744073709551615", 20) != NULL);
	q = 3;
	r = cgctl_parse_cfs_quota(buf, size, &q);
	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	if (r == 0 && size && buf[0] == '-')
		FUZZ_CHECK(q == UINT64_MAX || q == 0);
	if (r < 0)
		FUZZ_CHECK(q == 3);
	return 0;
}
