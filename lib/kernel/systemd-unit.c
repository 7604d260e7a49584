/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which systemd unit owns a cgroup, from the cgroup's path alone: systemd names each
 * unit's cgroup after the unit, below the slices that hold it ("/system.slice/
 * hog.service", "/user.slice/user-0.slice/session-1.scope").  Pure string work; the
 * live check (trusted.delegate, D-Bus) is in lib/kernel/systemd.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/systemd.h"

/* the unit types that have a cgroup (systemd src/basic/unit-def.c, v252) */
static const char *const cgroup_types[] = {
	"service", "scope", "slice", "socket", "mount", "swap",
};

/* mirrors systemd src/basic/unit-name.c VALID_CHARS (v252): "\x2d" is four of them */
static bool valid_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr(":-_.\\", c) != NULL;
}

static bool cgroup_type(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(cgroup_types) / sizeof(cgroup_types[0]); i++)
		if (strlen(cgroup_types[i]) == len && !memcmp(s, cgroup_types[i], len))
			return true;
	return false;
}

/* mirrors systemd src/basic/unit-name.c:unit_name_is_valid() (v252), PLAIN|INSTANCE */
bool sd_unit_name_valid(const char *name, size_t len)
{
	const char *dot = NULL, *at = NULL;

	if (!len || len >= 256)
		return false;
	for (size_t i = 0; i < len; i++)
		if (name[i] == '.')
			dot = name + i;
	if (!dot || dot == name || !cgroup_type(dot + 1, len - (size_t)(dot + 1 - name)))
		return false;
	for (const char *p = name; p < dot; p++) {
		if (*p == '@' && !at) {
			at = p;
			continue;
		}
		if (!valid_char(*p) && !(at && *p == '@'))
			return false;
	}
	/* "foo@.service" is a template: it has no cgroup */
	return !at || (at != name && at + 1 < dot);
}

/*
 * A component of a cgroup path as systemd wrote it: cg_escape() prefixes "_" to names
 * that could clash with kernel files; mirrors src/basic/cgroup-util.c:cg_unescape().
 */
static void unescape(const char *c, size_t n, const char **name, size_t *len)
{
	*name = c[0] == '_' ? c + 1 : c;
	*len = c[0] == '_' ? n - 1 : n;
}

static bool has_suffix(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n > k && !memcmp(s + n - k, suf, k);
}

/*
 * A slice nested as systemd nests them: "a-b.slice" only right below "a.slice", a slice
 * without '-' only at the top (src/basic/unit-name.c:slice_build_parent_slice(), v252).
 * An escaped dash "\x2d" is no separator, so "system-serial\x2dgetty.slice" is a child
 * of "system.slice".
 */
static bool nested_slice(const char *s, size_t n, const char *parent, size_t pn)
{
	size_t stem;

	if (!has_suffix(s, n, ".slice") || !sd_unit_name_valid(s, n))
		return false;
	stem = n - strlen(".slice");
	if (!parent)
		return !memchr(s, '-', stem);
	pn -= strlen(".slice");
	return stem > pn + 1 && !memcmp(s, parent, pn) && s[pn] == '-';
}

static int fill(struct cgctl_unit *u, const char *path, size_t cg_len, const char *name,
		size_t len, bool below)
{
	if (len >= sizeof(u->name) || cg_len >= sizeof(u->cgroup))
		return -ENAMETOOLONG;
	memcpy(u->name, name, len);
	u->name[len] = '\0';
	snprintf(u->cgroup, sizeof(u->cgroup), "%.*s", (int)(cg_len ? cg_len : 1),
		 cg_len ? path : "/");
	u->below = below;
	return 0;
}

/* mirrors systemd src/basic/cgroup-util.c:skip_slices() and cg_path_get_unit() (v252) */
int sd_unit_from_path(const char *path, struct cgctl_unit *u)
{
	const char *p = path, *slice = NULL, *c, *name;
	size_t slice_len = 0, slice_end = 0, n, len;

	if (!path || path[0] != '/' || !u)
		return -EINVAL;
	memset(u, 0, sizeof(*u));
	u->size = sizeof(*u);
	for (;;) {
		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (!n)		/* only slices: the deepest one owns it */
			break;
		c = p;
		p += n;
		unescape(c, n, &name, &len);
		if (nested_slice(name, len, slice, slice_len)) {
			slice = name, slice_len = len, slice_end = (size_t)(p - path);
			continue;
		}
		if (sd_unit_name_valid(name, len) && !has_suffix(name, len, ".slice"))
			return fill(u, path, (size_t)(p - path), name, len,
				    p[strspn(p, "/")] != '\0');
		break;
	}
	if (!slice)
		return fill(u, path, 0, "-.slice", strlen("-.slice"), strcmp(path, "/") != 0 &&
			    path[strspn(path, "/")] != '\0');
	return fill(u, path, slice_end, slice, slice_len,
		    path[slice_end + strspn(path + slice_end, "/")] != '\0');
}
