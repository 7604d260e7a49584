/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the control-file parsers (lib/kernel/parse*.c). */
#include "test-parse.h"

int main(void)
{
	SRunner *sr = srunner_create(suite_parse_proc());
	int failed;

	srunner_add_suite(sr, suite_parse_keyed());
	srunner_add_suite(sr, suite_parse_mountinfo());
	srunner_add_suite(sr, suite_parse_cpu());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
