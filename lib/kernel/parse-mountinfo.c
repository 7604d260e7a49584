/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * /proc/PID/mountinfo, cgroup and cgroup2 entries only.
 *
 * Line format (fs/proc_namespace.c:show_mountinfo(), v6.12):
 *   id parent major:minor root mount-point mount-opts [optional...] - fstype source super-opts
 * Fields are separated by single spaces; root, mount point and source escape
 * " \t\n\\" as \ooo (octal).  For cgroup v1 the super options are written by
 * kernel/cgroup/cgroup-v1.c:cgroup1_show_options(): the controllers' legacy names,
 * then flags, release_agent= and name=, each value escaped by seq_show_option()
 * (which also escapes ',' and '='), so splitting the raw options on ',' is exact.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/parse.h"

/* Legacy names of the v1 controllers (include/linux/cgroup_subsys.h, v6.12); anything
 * else in the super options is a flag or an LSM option (seclabel), not a controller. */
static const char *const v1_controllers[] = {
	"cpuset", "cpu", "cpuacct", "blkio", "memory", "devices", "freezer", "net_cls",
	"perf_event", "net_prio", "hugetlb", "pids", "rdma", "misc", "debug",
};

#define MI_MIN_FIELDS 10	/* 6 before the optional fields, "-", 3 after */

/* Split on single spaces.  Returns: the number of fields, or -EINVAL past @max. */
static int mi_split(struct span line, struct span *f, int max)
{
	const char *p = line.p, *end = line.p + line.len;
	int n = 0;

	for (;;) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		size_t l = sp ? (size_t)(sp - p) : (size_t)(end - p);

		if (n == max)
			return -EINVAL;
		f[n++] = (struct span){ p, l };
		if (!sp)
			return n;
		p = sp + 1;
	}
}

static int oct(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

/* Copy @s to @out undoing the kernel's \ooo escapes.  Returns: bytes written (+ NUL),
 * -EINVAL for an escaped NUL. */
static int mi_unescape(struct span s, char *out)
{
	size_t i = 0, o = 0;

	while (i < s.len) {
		if (s.p[i] == '\\' && s.len - i >= 4 && oct(s.p[i + 1]) >= 0 &&
		    oct(s.p[i + 2]) >= 0 && oct(s.p[i + 3]) >= 0) {
			int c = oct(s.p[i + 1]) * 64 + oct(s.p[i + 2]) * 8 + oct(s.p[i + 3]);

			if (c == 0 || c > 255)
				return -EINVAL;
			out[o++] = (char)c;
			i += 4;
		} else {
			out[o++] = s.p[i++];
		}
	}
	out[o++] = '\0';
	return (int)o;
}

static int mi_uint(struct span s, unsigned int *ret)
{
	uint64_t v;
	int r = parse_span_u64(s, &v);

	if (r < 0)
		return r;
	if (v > UINT32_MAX)
		return -ERANGE;
	*ret = (unsigned int)v;
	return 0;
}

static int mi_devno(struct span s, struct cgctl_mountinfo *mi)
{
	const char *colon = memchr(s.p, ':', s.len);

	if (!colon)
		return -EINVAL;
	if (mi_uint((struct span){ s.p, (size_t)(colon - s.p) }, &mi->major) < 0 ||
	    mi_uint((struct span){ colon + 1, s.len - (size_t)(colon + 1 - s.p) },
		    &mi->minor) < 0)
		return -EINVAL;
	return 0;
}

static bool is_v1_controller(struct span tok)
{
	for (size_t i = 0; i < sizeof(v1_controllers) / sizeof(v1_controllers[0]); i++)
		if (span_eq(tok, v1_controllers[i]))
			return true;
	return false;
}

/* From the raw super options: the controllers (comma-joined into @ctrls) and the
 * unescaped name= value (into @name; *has_name).  Returns: 0 or -EINVAL. */
static int mi_super(struct span opts, char *ctrls, char *name, bool *has_name)
{
	const char *p = opts.p, *end = opts.p + opts.len;
	size_t o = 0;

	*has_name = false;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		struct span tok = { p, comma ? (size_t)(comma - p) : (size_t)(end - p) };

		if (is_v1_controller(tok)) {
			if (o)
				ctrls[o++] = ',';
			memcpy(ctrls + o, tok.p, tok.len);
			o += tok.len;
		} else if (tok.len > 5 && memcmp(tok.p, "name=", 5) == 0) {
			if (mi_unescape((struct span){ tok.p + 5, tok.len - 5 }, name) < 0)
				return -EINVAL;
			*has_name = true;
		}
		p += tok.len + 1;
	}
	ctrls[o] = '\0';
	return 0;
}

/* Strings of one entry, carved from one allocation: each is at most the line long. */
static int mi_strings(const struct span *f, int dash, struct cgctl_mountinfo *mi,
		      char *scratch, size_t step)
{
	char *root = scratch, *mp = root + step, *type = mp + step, *opts = type + step;
	char *ctrls = opts + step, *name = ctrls + step;
	struct span so = f[dash + 3];
	bool has_name;

	if (mi_unescape(f[3], root) < 0 || mi_unescape(f[4], mp) < 0)
		return -EINVAL;
	memcpy(type, f[dash + 1].p, f[dash + 1].len);
	type[f[dash + 1].len] = '\0';
	memcpy(opts, so.p, so.len);
	opts[so.len] = '\0';
	if (mi->version == 1) {
		if (mi_super(so, ctrls, name, &has_name) < 0)
			return -EINVAL;
	} else {
		ctrls[0] = '\0';
		has_name = false;
	}
	mi->root = root;
	mi->mount_point = mp;
	mi->fstype = type;
	mi->super_opts = opts;
	mi->controllers = ctrls;
	mi->name = has_name ? name : NULL;
	return 0;
}

/* Validate one line's structure.  Returns: the index of the "-" field, or -EINVAL. */
static int mi_fields(struct span line, struct span *f, int max, struct cgctl_mountinfo *mi)
{
	int n = mi_split(line, f, max), dash;

	if (n < MI_MIN_FIELDS)
		return -EINVAL;
	for (dash = 6; dash < n; dash++)
		if (span_eq(f[dash], "-"))
			break;
	if (n - dash != 4)
		return -EINVAL;
	if (mi_uint(f[0], &mi->mount_id) < 0 || mi_uint(f[1], &mi->parent_id) < 0 ||
	    mi_devno(f[2], mi) < 0)
		return -EINVAL;
	if (!f[3].len || !f[4].len || !f[dash + 1].len)
		return -EINVAL;
	return dash;
}

/* Returns: 0 (*counted says whether it was a cgroup mount), -errno, or @fn's return. */
static int mi_line(struct span line, cgctl_mountinfo_fn fn, void *data, bool *counted)
{
	struct cgctl_mountinfo mi = { 0 };
	struct span *f;
	char *scratch = NULL;
	int dash, r;
	size_t max = line.len / 2 + 2;	/* a field takes at least one byte and a space */

	if (span_has_nul(line))
		return -EINVAL;
	f = malloc(max * sizeof(*f));
	if (!f)
		return -ENOMEM;
	r = dash = mi_fields(line, f, max > INT32_MAX ? INT32_MAX : (int)max, &mi);
	if (r < 0)
		goto out;
	mi.version = span_eq(f[dash + 1], "cgroup") ? 1 : span_eq(f[dash + 1], "cgroup2") ? 2 : 0;
	r = 0;
	if (!mi.version)
		goto out;
	scratch = malloc(6 * (line.len + 1));
	r = -ENOMEM;
	if (!scratch)
		goto out;
	r = mi_strings(f, dash, &mi, scratch, line.len + 1);
	if (r < 0)
		goto out;
	*counted = true;
	r = fn ? fn(&mi, data) : 0;
out:
	free(scratch);
	free(f);
	return r;
}

int cgctl_parse_mountinfo(const char *buf, size_t len, cgctl_mountinfo_fn fn,
			  void *data)
{
	struct span line;
	size_t pos = 0;
	int n = 0, r;

	if (!buf && len)
		return -EINVAL;
	while (parse_next_line(buf, len, &pos, &line)) {
		bool counted = false;

		if (!line.len)
			continue;
		r = mi_line(line, fn, data, &counted);
		if (r)
			return r;
		if (counted && n < INT32_MAX)
			n++;
	}
	return n;
}
