/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* memory.pressure / cpu.pressure and memory.events. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct cgctl_psi p = { .some = { .avg10 = 3 } };
	struct cgctl_mem_events ev = { .present = 5 };
	int r = cgctl_psi_parse(buf, size, &p);

	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	if (r < 0)
		FUZZ_CHECK(p.some.avg10 == 3 && !p.some.present);
	else
		FUZZ_CHECK(p.some.present && p.some.avg10 <= 4294967200u);
	r = cgctl_mem_events_parse(buf, size, &ev);
	FUZZ_CHECK(fuzz_errno_ok(r, -EINVAL, -ERANGE, -EINVAL));
	if (r < 0)
		FUZZ_CHECK(ev.present == 5);
	else
		FUZZ_CHECK(ev.present < (1u << CGCTL_MEMEV_NR));
	return 0;
}
