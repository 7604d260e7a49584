/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Settings of a unit's own cgroup through systemd's D-Bus API (sd-bus): the knobs that
 * have a property go to SetUnitProperties, as `systemctl set-property [--runtime]` does
 * (systemd then writes the files and keeps them across daemon-reload); the others are
 * written directly afterwards.  All values are checked before anything changes; a
 * failed direct write sets the properties back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include "internal.h"
#include "kernel/cgfs.h"
#include "kernel/systemd.h"
#include "util/sdbus.h"

#define PROPS_MAX 16
#define SETTLE_MS 1000

struct props {
	struct sd_prop p[PROPS_MAX];
	size_t n;
};

static int add_knob(struct props *ps, struct cgctl_unit_knob *k, struct cgctl_error *e)
{
	struct sd_prop p[2];
	int r = sd_props_of_knob(k->file, k->value, p);

	if (r < 0)
		return cgctl_error_set(e, EINVAL, "%s: '%s' is no value systemd can hold",
				       k->file, k->value);
	if (ps->n + (size_t)r > PROPS_MAX)
		return cgctl_error_set(e, E2BIG, "too many settings at once");
	for (int i = 0; i < r; i++)
		ps->p[ps->n++] = p[i];
	k->how = r ? "systemd" : "direct";
	return 0;
}

static int set_props(sd_bus *bus, const char *unit, const struct props *ps, bool runtime,
		     struct cgctl_error *e)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	int r;

	r = sym_sd_bus_message_new_method_call(bus, &m, "org.freedesktop.systemd1",
					   "/org/freedesktop/systemd1",
					   "org.freedesktop.systemd1.Manager",
					   "SetUnitProperties");
	if (r >= 0)
		r = sym_sd_bus_message_append(m, "sb", unit, runtime);
	if (r >= 0)
		r = sym_sd_bus_message_open_container(m, 'a', "(sv)");
	for (size_t i = 0; r >= 0 && i < ps->n; i++)
		r = sym_sd_bus_message_append(m, "(sv)", ps->p[i].name, "t", ps->p[i].value);
	if (r >= 0)
		r = sym_sd_bus_message_close_container(m);
	if (r >= 0)
		r = sym_sd_bus_call(bus, m, 0, &err, NULL);
	if (r < 0)
		cgctl_error_set(e, -r, "%s: SetUnitProperties: %s", unit,
				err.message ? err.message : strerror(-r));
	sym_sd_bus_error_free(&err);
	sym_sd_bus_message_unref(m);
	return r < 0 ? r : 0;
}

static int file_is(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *cg,
		   const char *file, const char *want)
{
	size_t len, wl = strlen(want);
	char *buf = NULL;
	int r = cgctl_cg_read(ctx, m, cg, file, &buf, &len);

	if (r == 0)
		r = len >= wl && !strncmp(buf, want, wl) && (len == wl || buf[wl] == '\n');
	free(buf);
	return r;
}

/*
 * systemd writes the files from its cgroup realize queue, after the method returned
 * (src/core/cgroup.c:unit_invalidate_cgroup(), v252): a direct write that depends on
 * cpu.max (a burst must not exceed the quota) waits until cpu.max holds the new value.
 */
static void settle(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *cg,
		   const struct cgctl_unit_knob *k, size_t n)
{
	struct timespec ts = { 0, 10 * 1000000L };

	for (size_t i = 0; i < n; i++) {
		if (strcmp(k[i].file, "cpu.max") || !strchr(k[i].value, ' '))
			continue;
		for (int t = 0; t < SETTLE_MS / 10; t++) {
			if (file_is(ctx, m, cg, "cpu.max", k[i].value) != 0)
				break;
			nanosleep(&ts, NULL);
		}
	}
}

/* the properties that give back what the files hold now */
static int old_props(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *cg,
		     const struct cgctl_unit_knob *k, size_t n, struct props *old)
{
	for (size_t i = 0; i < n; i++) {
		struct sd_prop p[2];
		char *buf = NULL;
		size_t len;
		int r;

		if (strcmp(k[i].how, "systemd"))
			continue;
		r = cgctl_cg_read(ctx, m, cg, k[i].file, &buf, &len);
		if (r == 0)
			r = sd_props_of_knob(k[i].file, buf, p);
		free(buf);
		if (r < 0)
			return r;
		for (int j = 0; j < r && old->n < PROPS_MAX; j++)
			old->p[old->n++] = p[j];
	}
	return 0;
}

/* the direct writes done so far, with what the files held, for the way back */
struct undo {
	const char *file[PROPS_MAX];
	char *old[PROPS_MAX];
	size_t n;
};

/*
 * A burst that shrinks goes before systemd's cpu.max (the kernel refuses a quota below
 * the burst: tg_set_cfs_bandwidth(), kernel/sched/core.c v6.12), any other direct
 * write after it.  Returns: whether @k is written in the early phase.
 */
static bool early(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *cg,
		  const struct cgctl_unit_knob *k)
{
	uint64_t cur, want;

	if (strcmp(k->file, "cpu.max.burst") ||
	    cgctl_cg_read_u64(ctx, m, cg, k->file, &cur) < 0)
		return false;
	want = strtoull(k->value, NULL, 10);
	return want < cur;
}

static int direct_writes(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			 const char *cg, const struct cgctl_unit_knob *k, size_t n,
			 bool phase_early, struct undo *u, struct cgctl_error *e)
{
	for (size_t i = 0; i < n; i++) {
		char *old = NULL;
		size_t len;
		int r;

		if (strcmp(k[i].how, "direct") || early(ctx, m, cg, &k[i]) != phase_early)
			continue;
		r = cgctl_cg_read(ctx, m, cg, k[i].file, &old, &len);
		if (r == 0)
			r = cgctl_cg_write(ctx, m, cg, k[i].file, k[i].value);
		if (r < 0) {
			free(old);
			return cgctl_error_set(e, -r, "%s/%s: cannot write '%s': %s", cg,
					       k[i].file, k[i].value, strerror(-r));
		}
		u->file[u->n] = k[i].file;
		u->old[u->n++] = old;
	}
	return 0;
}

static void undo(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *cg,
		 struct undo *u, bool restore)
{
	while (u->n--) {
		if (restore)
			(void)cgctl_cg_write(ctx, m, cg, u->file[u->n], u->old[u->n]);
		free(u->old[u->n]);
	}
}

static int apply(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		 const struct cgctl_unit *u, struct cgctl_unit_knob *k, size_t n,
		 const struct props *ps, bool runtime, struct cgctl_error *e)
{
	struct props old = { .n = 0 };
	struct undo done = { .n = 0 };
	bool props_set = false;
	sd_bus *bus = NULL;
	int r;

	r = old_props(ctx, m, u->cgroup, k, n, &old);
	if (r < 0)
		return cgctl_error_set(e, -r, "%s: cannot read the current settings: %s",
				       u->cgroup, strerror(-r));
	r = sdbus_open_system(&bus);
	if (r < 0)
		return cgctl_error_set(e, -r, "cannot connect to systemd's bus: %s",
				       strerror(-r));
	r = direct_writes(ctx, m, u->cgroup, k, n, true, &done, e);
	if (r == 0 && ps->n) {
		r = set_props(bus, u->name, ps, runtime, e);
		props_set = r == 0;
	}
	if (props_set)
		settle(ctx, m, u->cgroup, k, n);
	if (r == 0)
		r = direct_writes(ctx, m, u->cgroup, k, n, false, &done, e);
	if (r < 0 && props_set && old.n)	/* all or nothing: the old properties back */
		(void)set_props(bus, u->name, &old, runtime, NULL);
	undo(ctx, m, u->cgroup, &done, r < 0);
	sym_sd_bus_flush_close_unref(bus);
	return r;
}

CGCTL_EXPORT int cgctl_unit_apply(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				  const struct cgctl_unit *u, struct cgctl_unit_knob *knobs,
				  size_t n, unsigned int flags, struct cgctl_error *e)
{
	struct props ps = { .n = 0 };
	int r;

	if (!ctx || !m || !u || (!knobs && n) || m->version != 2)
		return cgctl_error_set(e, EINVAL, "systemd: bad arguments");
	for (size_t i = 0; i < n; i++) {
		if (knobs[i].size < sizeof(knobs[i]))
			return cgctl_error_set(e, EINVAL, "systemd: struct cgctl_unit_knob of %zu "
					       "bytes, %zu needed (CGCTL_UNIT_KNOB())",
					       knobs[i].size, sizeof(knobs[i]));
		if (!knobs[i].file || !knobs[i].value)
			return cgctl_error_set(e, EINVAL, "systemd: bad arguments");
		r = add_knob(&ps, &knobs[i], e);
		if (r < 0)
			return r;
	}
	if (flags & CGCTL_UNIT_CHECK_ONLY)
		return (int)n;
	if (ctx->root[0])
		return cgctl_error_set(e, EOPNOTSUPP, "%s: systemd's bus is not reached "
				       "below a root prefix (--root)", u->name);
	r = apply(ctx, m, u, knobs, n, &ps, !(flags & CGCTL_UNIT_PERSISTENT), e);
	return r < 0 ? r : (int)n;
}
