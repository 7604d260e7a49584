/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpu.stat of both versions and the v1 cpuacct files; the first byte picks the version
 * and USER_HZ. */
#include "fuzz.h"

#define V2_ONLY (CGCTL_CPU_STAT_USAGE | CGCTL_CPU_STAT_USER | CGCTL_CPU_STAT_SYSTEM)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cgctl_cpu_stat st, before;
	const char *buf;
	int version, r;

	if (size < 1)
		return 0;
	version = data[0] % 3;		/* 0 is invalid and must be refused */
	buf = (const char *)data + 1;
	size--;
	memset(&st, 0xa5, sizeof(st));
	st.present = 0;
	before = st;
	r = cgctl_parse_cpu_stat(buf, size, version, &st);
	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	if (version == 0)
		FUZZ_CHECK(r == -EINVAL);
	if (r < 0)
		FUZZ_CHECK(!memcmp(&st, &before, sizeof(st)));
	FUZZ_CHECK((st.present & ~0xffu) == 0);
	if (version == 1)
		FUZZ_CHECK((st.present & V2_ONLY) == 0);
	r = cgctl_parse_cpuacct_usage(buf, size, &st);
	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	r = cgctl_parse_cpuacct_stat(buf, size, data[0] >> 2, &st);
	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -ENOENT) && r != -ENOENT);
	return 0;
}
