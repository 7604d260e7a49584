/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct cgctl_move_throttle as an object: its allocation and its getters by name (what
 * `cgctl move` prints of the throttling at the destination; issue 28).  The prediction
 * itself is move-throttle.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

CGCTL_EXPORT int cgctl_move_throttle_limits(struct cgctl_ctx *ctx,
					    const struct cgctl_mount *m, const char *dest,
					    unsigned int ncpus, struct cgctl_move_throttle **ret,
					    struct cgctl_error *e)
{
	struct cgctl_move_throttle *mt;
	int r;

	if (!ret)
		return cgctl_error_set(e, EINVAL, "move throttling: bad arguments");
	*ret = NULL;
	mt = malloc(sizeof(*mt));
	if (!mt)
		return cgctl_error_set(e, ENOMEM, "move throttling: out of memory");
	r = cgctl_move_throttle_limits_into(ctx, m, dest, ncpus, mt, e);
	if (r < 0) {
		free(mt);
		return r;
	}
	*ret = mt;
	return 0;
}

CGCTL_EXPORT void cgctl_move_throttle_free(struct cgctl_move_throttle *mt)
{
	free(mt);
}

/* "before."/"after." @key of @s.  Returns: true when @key names one. */
static bool side_get(const struct cgctl_move_throttle_side *s, const char *key,
		     uint64_t *ret)
{
	const struct {
		const char *key;
		uint64_t v;
	} t[] = {
		{ "threads", s->threads },
		{ "nr_periods", (uint64_t)(int64_t)s->st.nr_periods },
		{ "nr_throttled", (uint64_t)(int64_t)s->st.nr_throttled },
		{ "throttled_ns", s->st.throttled_ns },
		{ "usage_ns", s->st.usage_ns },
		{ "run_ns", s->run_ns },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		if (!strcmp(t[i].key, key)) {
			*ret = t[i].v;
			return true;
		}
	}
	return false;
}

/* The side @key starts with ("before." or "after."), its rest in *@rest; or NULL. */
static const struct cgctl_move_throttle_side *side_of(const struct cgctl_move_throttle *mt,
						      const char *key, const char **rest)
{
	if (!strncmp(key, "before.", 7)) {
		*rest = key + 7;
		return &mt->before;
	}
	if (!strncmp(key, "after.", 6)) {
		*rest = key + 6;
		return &mt->after;
	}
	return NULL;
}

CGCTL_EXPORT int cgctl_move_throttle_get(const struct cgctl_move_throttle *mt,
					 const char *key, uint64_t *ret)
{
	const struct cgctl_move_throttle_side *s;
	const char *rest;

	if (!mt || !key || !ret)
		return -EINVAL;
	s = side_of(mt, key, &rest);
	if (s)
		return side_get(s, rest, ret) ? 0 : -EINVAL;
	if (!strcmp(key, "limited"))
		*ret = mt->limited;
	else if (!strcmp(key, "quota_us"))
		*ret = mt->bw.quota_us;
	else if (!strcmp(key, "period_us"))
		*ret = mt->bw.period_us;
	else if (!strcmp(key, "burst_us"))
		*ret = mt->bw.burst_us;
	else if (!strcmp(key, "ncpus"))
		*ret = mt->ncpus;
	else if (!strcmp(key, "demand"))
		*ret = (uint64_t)mt->demand;
	else if (!strcmp(key, "sample_ns"))
		*ret = mt->sample_ns;
	else
		return -EINVAL;
	return 0;
}

CGCTL_EXPORT int cgctl_move_throttle_cpus(const struct cgctl_move_throttle *mt,
					  const char *key, double *ret)
{
	const struct cgctl_move_throttle_side *s;
	const char *rest;

	if (!mt || !key || !ret)
		return -EINVAL;
	s = side_of(mt, key, &rest);
	if (s && !strcmp(rest, "demand_cpus"))
		*ret = s->demand_cpus;
	else if (!s && !strcmp(key, "limit_cpus"))
		*ret = mt->limit_cpus;
	else
		return -EINVAL;
	return 0;
}

CGCTL_EXPORT const char *cgctl_move_throttle_str(const struct cgctl_move_throttle *mt,
						 const char *key)
{
	if (!mt || !key)
		return NULL;
	if (!strcmp(key, "path"))
		return mt->path;
	if (!strcmp(key, "limit_path"))
		return mt->limit_path;
	if (!strcmp(key, "why_not_recorded"))
		return mt->why_not_recorded;
	return NULL;
}
