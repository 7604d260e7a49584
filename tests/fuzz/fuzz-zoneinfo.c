/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgctl_zoneinfo_parse(), then the pcp model on every parsed zone: documented errors
 * only, sane zones, and predictions with batch >= 1 and non-negative highs (high_min may
 * exceed high_max: the kernel's clamp() then lets high_max win). */
#include "fuzz.h"

static void predict_zone(const struct cgctl_zone *z)
{
	static const uint32_t kvers[] = { CGCTL_KVER(2, 6, 32), CGCTL_KVER(5, 10, 0),
					  CGCTL_KVER(6, 1, 0), CGCTL_KVER(6, 18, 0) };
	struct cgctl_pcp_zone pz;
	struct cgctl_pcp_pred p;
	size_t i, k;

	if (cgctl_zone_to_pcp(z, 2, 0, &pz) < 0)
		return;
	for (k = 0; k < sizeof(kvers) / sizeof(kvers[0]); k++) {
		FUZZ_CHECK(cgctl_pcp_predict(kvers[k], 2, &pz, &p) == 0);
		FUZZ_CHECK(p.batch >= 1 && p.high_min >= 0 && p.high_max >= 0);
		for (i = 0; i < z->npagesets; i++)
			FUZZ_CHECK((cgctl_pcp_check(&p, &z->pagesets[i]) & ~CGCTL_PCP_ALL_OK) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cgctl_zoneinfo *zi = NULL;
	char *s = fuzz_str(data, size);
	size_t i;
	int r;

	if (!s)
		return 0;
	r = cgctl_zoneinfo_parse(s, &zi);
	FUZZ_CHECK(r == 0 || r == -EINVAL || r == -ENOMEM);
	if (r == 0) {
		FUZZ_CHECK(zi->nzones >= 1);
		for (i = 0; i < zi->nzones; i++) {
			FUZZ_CHECK(zi->zones[i].name[0] && strlen(zi->zones[i].name) < 16);
			predict_zone(&zi->zones[i]);
		}
		cgctl_zoneinfo_free(zi);
	}
	free(s);
	return 0;
}
