/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgctl_parse_mountinfo() on arbitrary bytes (the buffer is exactly @size long). */
#include "fuzz.h"

struct walk {
	size_t size;
	int n;
};

static int check_entry(const struct cgctl_mountinfo *mi, void *data)
{
	struct walk *w = data;
	const char *c;

	FUZZ_CHECK(mi->version == 1 || mi->version == 2);
	FUZZ_CHECK(!strcmp(mi->fstype, mi->version == 1 ? "cgroup" : "cgroup2"));
	FUZZ_CHECK(strlen(mi->root) <= w->size && strlen(mi->mount_point) <= w->size);
	FUZZ_CHECK(*mi->mount_point && *mi->root);
	FUZZ_CHECK(strlen(mi->super_opts) <= w->size);
	FUZZ_CHECK(strlen(mi->controllers) <= strlen(mi->super_opts));
	for (c = mi->controllers; *c; c++)
		FUZZ_CHECK((*c >= 'a' && *c <= 'z') || *c == '_' || *c == ',');
	if (mi->version == 2)
		FUZZ_CHECK(!*mi->controllers && !mi->name);
	if (mi->name)
		FUZZ_CHECK(strlen(mi->name) <= w->size);
	w->n++;
	return 0;
}

static int stop_at_first(const struct cgctl_mountinfo *mi, void *data)
{
	(void)mi;
	(void)data;
	return -ECANCELED;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct walk w = { size, 0 };
	const char *buf = (const char *)data;
	int r = cgctl_parse_mountinfo(buf, size, check_entry, &w);

	FUZZ_CHECK(r == w.n || r == -EINVAL || r == -ENOMEM);
	if (r > 0)
		FUZZ_CHECK(cgctl_parse_mountinfo(buf, size, stop_at_first, NULL) == -ECANCELED);
	else if (r == 0)
		FUZZ_CHECK(cgctl_parse_mountinfo(buf, size, stop_at_first, NULL) == 0);
	return 0;
}
