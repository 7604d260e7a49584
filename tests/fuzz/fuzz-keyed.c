/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgctl_parse_keyed() and its look-ups: the values seen by the walk and by the look-up
 * of the same key agree. */
#include "fuzz.h"

struct walk {
	int n;
	char first_key[128];
	bool first_u, first_s;
	uint64_t u;
	int64_t s;
};

static int check_kv(const struct cgctl_kv *kv, void *data)
{
	struct walk *w = data;

	FUZZ_CHECK(*kv->key && *kv->value);
	FUZZ_CHECK(!strpbrk(kv->key, " \t\n") && !strpbrk(kv->value, " \t\n"));
	FUZZ_CHECK(strlen(kv->key) < 128 && strlen(kv->value) < 64);
	if (kv->has_u && kv->has_s)
		FUZZ_CHECK(kv->s >= 0 && (uint64_t)kv->s == kv->u);
	if (kv->has_s && !kv->has_u)
		FUZZ_CHECK(kv->s < 0 || kv->value[0] == '-');
	if (w->n++ == 0) {
		strcpy(w->first_key, kv->key);
		w->first_u = kv->has_u;
		w->first_s = kv->has_s;
		w->u = kv->u;
		w->s = kv->s;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct walk w = { 0 };
	uint64_t u;
	int64_t s;
	int r = cgctl_parse_keyed(buf, size, check_kv, &w);

	FUZZ_CHECK(r == w.n || r == -EINVAL);
	if (r <= 0)
		return 0;
	r = cgctl_parse_keyed_u64(buf, size, w.first_key, &u);
	FUZZ_CHECK(w.first_u ? (r == 0 && u == w.u) : (r == -EINVAL || r == -ERANGE));
	r = cgctl_parse_keyed_s64(buf, size, w.first_key, &s);
	FUZZ_CHECK(w.first_s ? (r == 0 && s == w.s) : (r == -EINVAL || r == -ERANGE));
	return 0;
}
