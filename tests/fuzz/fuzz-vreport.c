/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The VM result JSON (what cgctl validate inside a VM prints, read back by the host):
 * cgctl_vreport_parse_json() on arbitrary bytes.  An accepted report renders again
 * (cgctl_vreport_json()) and that rendering parses to the same scenarios; a refused one
 * says why in the error and returns no report.
 */
#include "fuzz.h"
#include "validate/libcgctl-validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cgctl_vreport *r = NULL, *again = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	char *s = fuzz_str(data, size), *json = NULL;
	int rc;

	if (!s)
		return 0;
	rc = cgctl_vreport_parse_json(s, &r, &e);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ENOMEM || rc == -E2BIG ||
		   rc == -ERANGE);
	if (rc < 0) {
		FUZZ_CHECK(rc == -ENOMEM || e.msg[0]);
		free(s);
		return 0;
	}
	FUZZ_CHECK(r != NULL);
	FUZZ_CHECK(memchr(r->kernel, 0, sizeof(r->kernel)) &&
		   memchr(r->target, 0, sizeof(r->target)));
	FUZZ_CHECK(r->n_scenarios == 0 || r->scenarios);
	if (cgctl_vreport_json(r, &json) == 0) {
		struct cgctl_error e2 = CGCTL_ERROR_INIT;

		rc = cgctl_vreport_parse_json(json, &again, &e2);
		FUZZ_CHECK(rc == 0 || rc == -ENOMEM);
		if (rc == 0)
			FUZZ_CHECK(again->n_scenarios == r->n_scenarios &&
				   again->runs == r->runs);
		cgctl_vreport_free(again);
		free(json);
	}
	cgctl_vreport_free(r);
	free(s);
	return 0;
}
