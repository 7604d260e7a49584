/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * /proc/PID/cgroup and flat keyed control files.
 *
 * /proc/PID/cgroup is written by kernel/cgroup/cgroup.c:proc_cgroup_show() (v6.12):
 * "<hierarchy id>:<controllers, then name=X>:<path>" per hierarchy, "0::<path>" for
 * cgroup2, and " (deleted)" after a cgroup2 path whose cgroup is dead.  The path is
 * printed raw and may itself contain ':', so only the first two colons split.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/parse.h"

#define DELETED_SUFFIX " (deleted)"

struct cg_line {
	struct span id, ctrls, path;
};

static int cg_line_split(struct span line, struct cg_line *l)
{
	const char *c1, *c2;

	if (span_has_nul(line))
		return -EINVAL;
	c1 = memchr(line.p, ':', line.len);
	if (!c1)
		return -EINVAL;
	c2 = memchr(c1 + 1, ':', line.len - (size_t)(c1 + 1 - line.p));
	if (!c2)
		return -EINVAL;
	l->id = (struct span){ line.p, (size_t)(c1 - line.p) };
	l->ctrls = (struct span){ c1 + 1, (size_t)(c2 - c1 - 1) };
	l->path = (struct span){ c2 + 1, line.len - (size_t)(c2 + 1 - line.p) };
	if (!l->id.len || !l->path.len || l->path.p[0] != '/')
		return -EINVAL;
	for (size_t i = 0; i < l->id.len; i++)
		if (l->id.p[i] < '0' || l->id.p[i] > '9')
			return -EINVAL;
	return 0;
}

/* Is @want one of the comma-separated names of @ctrls ("cpu" in "cpu,cpuacct")? */
static bool ctrls_have(struct span ctrls, const char *want)
{
	size_t wl = strlen(want);
	const char *p = ctrls.p, *end = ctrls.p + ctrls.len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);

		if (n == wl && memcmp(p, want, n) == 0)
			return true;
		p += n + 1;
	}
	return false;
}

static bool cg_line_matches(const struct cg_line *l, const char *controller)
{
	if (!controller)
		return span_eq(l->id, "0") && l->ctrls.len == 0;
	return ctrls_have(l->ctrls, controller);
}

static int cg_path_dup(struct span path, char **ret, bool *deleted)
{
	size_t sl = strlen(DELETED_SUFFIX);
	bool del = false;
	char *s;

	if (path.len > sl && memcmp(path.p + path.len - sl, DELETED_SUFFIX, sl) == 0) {
		path.len -= sl;
		del = true;
	}
	s = strndup(path.p, path.len);
	if (!s)
		return -ENOMEM;
	*ret = s;
	if (deleted)
		*deleted = del;
	return 0;
}

/* Every line is checked, so a damaged file fails the same way whatever is asked. */
int cgctl_parse_proc_cgroup(const char *buf, size_t len, const char *controller,
			    char **ret, bool *deleted)
{
	struct cg_line l, found = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
	struct span line;
	size_t pos = 0;
	int r;

	if ((!buf && len) || !ret || (controller && !*controller))
		return -EINVAL;
	while (parse_next_line(buf, len, &pos, &line)) {
		if (!line.len)
			continue;
		r = cg_line_split(line, &l);
		if (r < 0)
			return r;
		if (!found.path.p && cg_line_matches(&l, controller))
			found = l;
	}
	if (!found.path.p)
		return -ENOENT;
	return cg_path_dup(found.path, ret, deleted);
}

/* ---- flat keyed files ---- */

#define KV_KEY_MAX 128
#define KV_VALUE_MAX 64

static int kv_fill(struct span line, struct cgctl_kv *kv, char *key, char *value)
{
	struct span k, v, extra;

	if (span_has_nul(line) || !parse_token(&line, &k) || !parse_token(&line, &v) ||
	    parse_token(&line, &extra))
		return -EINVAL;
	if (k.len >= KV_KEY_MAX || v.len >= KV_VALUE_MAX)
		return -EINVAL;
	memcpy(key, k.p, k.len);
	key[k.len] = '\0';
	memcpy(value, v.p, v.len);
	value[v.len] = '\0';
	kv->size = sizeof(*kv);
	kv->key = key;
	kv->value = value;
	kv->has_u = parse_span_u64(v, &kv->u) == 0;
	kv->has_s = parse_span_s64(v, &kv->s) == 0;
	if (!kv->has_u)
		kv->u = 0;
	if (!kv->has_s)
		kv->s = 0;
	return 0;
}

CGCTL_EXPORT int cgctl_parse_keyed(const char *buf, size_t len, cgctl_kv_fn fn, void *data)
{
	char key[KV_KEY_MAX], value[KV_VALUE_MAX];
	struct cgctl_kv kv;
	struct span line;
	size_t pos = 0;
	int n = 0, r;

	if (!buf && len)
		return -EINVAL;
	while (parse_next_line(buf, len, &pos, &line)) {
		if (!parse_trim(line).len)
			continue;
		r = kv_fill(line, &kv, key, value);
		if (r < 0)
			return r;
		if (fn) {
			r = fn(&kv, data);
			if (r)
				return r;
		}
		if (n < INT32_MAX)
			n++;
	}
	return n;
}

struct kv_find {
	const char *key;
	struct cgctl_kv kv;
	char value[KV_VALUE_MAX];
	bool found;
};

static int kv_find_cb(const struct cgctl_kv *kv, void *data)
{
	struct kv_find *f = data;

	if (f->found || strcmp(kv->key, f->key) != 0)
		return 0;
	f->kv = *kv;
	memcpy(f->value, kv->value, strlen(kv->value) + 1);
	f->kv.value = f->value;
	f->found = true;
	return 0;
}

static int kv_find(const char *buf, size_t len, const char *key, struct kv_find *f)
{
	int r;

	if (!key)
		return -EINVAL;
	f->key = key;
	f->found = false;
	r = cgctl_parse_keyed(buf, len, kv_find_cb, f);
	if (r < 0)
		return r;
	return f->found ? 0 : -ENOENT;
}

CGCTL_EXPORT int cgctl_parse_keyed_u64(const char *buf, size_t len, const char *key,
				       uint64_t *ret)
{
	struct kv_find f;
	int r = ret ? kv_find(buf, len, key, &f) : -EINVAL;

	if (r < 0)
		return r;
	return parse_span_u64((struct span){ f.value, strlen(f.value) }, ret);
}

int cgctl_parse_keyed_s64(const char *buf, size_t len, const char *key,
			  int64_t *ret)
{
	struct kv_find f;
	int r = ret ? kv_find(buf, len, key, &f) : -EINVAL;

	if (r < 0)
		return r;
	return parse_span_s64((struct span){ f.value, strlen(f.value) }, ret);
}
