/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgctl_parse_proc_cgroup() for the v2 line, v1 controllers and a named hierarchy. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ctrls[] = { NULL, "cpu", "cpuacct", "memory",
					     "name=systemd" };
	const char *buf = (const char *)data;

	for (size_t i = 0; i < sizeof(ctrls) / sizeof(ctrls[0]); i++) {
		char *path = NULL;
		bool deleted = false;
		int r = cgctl_parse_proc_cgroup(buf, size, ctrls[i], &path, &deleted);

		FUZZ_CHECK(fuzz_errno_ok(r, -ENOENT, -EINVAL, -ENOMEM));
		if (r < 0) {
			FUZZ_CHECK(path == NULL);
			continue;
		}
		FUZZ_CHECK(path[0] == '/' && strlen(path) < size);
		FUZZ_CHECK(!strchr(path, '\n'));
		if (deleted)
			FUZZ_CHECK(memmem(buf, size, " (deleted)", 10) != NULL);
		free(path);
	}
	return 0;
}
