// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/zoneinfo reader: per zone the watermarks and sizes, per CPU the pageset (count,
 * high, batch; high_min/high_max since 6.7).  Layout as printed by mm/vmstat.c:
 * zoneinfo_show_print() (v2.6.32 .. v6.18): a "Node N, zone NAME" header, then
 * "key value" lines (watermarks, sizes) and, after "pagesets", "cpu: N" blocks of
 * "key: value" lines.  Unknown lines are skipped so newer fields do not break us.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/zoneinfo.h"

struct zi_parser {
	struct cgctl_zoneinfo *zi;
	struct cgctl_zone *zone;		/* current zone, NULL before the first */
	struct cgctl_zone_pageset *ps;		/* current pageset, NULL outside one */
};

static void pageset_init(struct cgctl_zone_pageset *ps, int cpu)
{
	*ps = (struct cgctl_zone_pageset){ .cpu = cpu, .count = -1, .high = -1,
					   .batch = -1, .high_min = -1, .high_max = -1 };
}

static void zone_init(struct cgctl_zone *z)
{
	memset(z, 0, sizeof(*z));
	z->node = -1;
	z->free = z->min = z->low = z->high = -1;
	z->spanned = z->present = z->managed = -1;
}

void cgctl_zoneinfo_free(struct cgctl_zoneinfo *zi)
{
	size_t i;

	if (!zi)
		return;
	for (i = 0; i < zi->nzones; i++)
		free(zi->zones[i].pagesets);
	free(zi->zones);
	free(zi);
}

/* a whole decimal token, nothing after it but blanks */
static int parse_i64(const char *s, int64_t *ret)
{
	char *end;
	long long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s) && *s != '-')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end != '\0')
		return -EINVAL;
	*ret = v;
	return 0;
}

static int new_zone(struct zi_parser *p, const char *line)
{
	struct cgctl_zone *zones;
	int node, n = 0;
	char name[16];

	if (sscanf(line, "Node %d, zone %15s%n", &node, name, &n) != 2 || n == 0)
		return -EINVAL;
	zones = realloc(p->zi->zones, (p->zi->nzones + 1) * sizeof(*zones));
	if (!zones)
		return -ENOMEM;
	p->zi->zones = zones;
	p->zone = &zones[p->zi->nzones++];
	zone_init(p->zone);
	p->zone->node = node;
	snprintf(p->zone->name, sizeof(p->zone->name), "%s", name);
	p->ps = NULL;
	return 0;
}

static int new_pageset(struct zi_parser *p, const char *val)
{
	struct cgctl_zone *z = p->zone;
	struct cgctl_zone_pageset *ps;
	int64_t cpu;

	if (parse_i64(val, &cpu) < 0 || cpu < 0 || cpu > INT32_MAX)
		return -EINVAL;
	ps = realloc(z->pagesets, (z->npagesets + 1) * sizeof(*ps));
	if (!ps)
		return -ENOMEM;
	z->pagesets = ps;
	p->ps = &ps[z->npagesets++];
	pageset_init(p->ps, (int)cpu);
	return 0;
}

/* "count:", "high:", "batch:", "high_min:", "high_max:" inside a "cpu: N" block */
static int64_t *pageset_field(struct cgctl_zone_pageset *ps, const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} f[] = {
		{ "count:", offsetof(struct cgctl_zone_pageset, count) },
		{ "high:", offsetof(struct cgctl_zone_pageset, high) },
		{ "batch:", offsetof(struct cgctl_zone_pageset, batch) },
		{ "high_min:", offsetof(struct cgctl_zone_pageset, high_min) },
		{ "high_max:", offsetof(struct cgctl_zone_pageset, high_max) },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (strcmp(key, f[i].key) == 0)
			return (int64_t *)((char *)ps + f[i].off);
	return NULL;
}

/* watermark and size lines: "min 57", "present 3998", "pages free 3840" */
static int64_t *zone_field(struct cgctl_zone *z, const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} f[] = {
		{ "min", offsetof(struct cgctl_zone, min) },
		{ "low", offsetof(struct cgctl_zone, low) },
		{ "high", offsetof(struct cgctl_zone, high) },
		{ "spanned", offsetof(struct cgctl_zone, spanned) },
		{ "present", offsetof(struct cgctl_zone, present) },
		{ "managed", offsetof(struct cgctl_zone, managed) },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (strcmp(key, f[i].key) == 0)
			return (int64_t *)((char *)z + f[i].off);
	return NULL;
}

static int set_field(int64_t *field, const char *val)
{
	if (!field)
		return 0;	/* a line we do not model */
	return parse_i64(val, field) < 0 ? -EINVAL : 0;
}

static int zone_line(struct zi_parser *p, char *key, char *val)
{
	if (strcmp(key, "pagesets") == 0) {
		p->ps = NULL;
		return 0;
	}
	if (strcmp(key, "cpu:") == 0)
		return new_pageset(p, val);
	if (p->ps && key[strlen(key) - 1] == ':')
		return set_field(pageset_field(p->ps, key), val);
	if (strcmp(key, "pages") == 0 && strncmp(val, "free", 4) == 0)
		return set_field(&p->zone->free, val + 4);
	return set_field(zone_field(p->zone, key), val);
}

static int parse_line(struct zi_parser *p, char *line)
{
	char *key = line, *val;

	if (strncmp(line, "Node ", 5) == 0)
		return new_zone(p, line);
	if (!p->zone)
		return 0;
	while (*key == ' ' || *key == '\t')
		key++;
	if (*key == '\0')
		return 0;
	val = key + strcspn(key, " \t");
	if (*val)
		*val++ = '\0';
	return zone_line(p, key, val);
}

int cgctl_zoneinfo_parse(const char *buf, struct cgctl_zoneinfo **ret)
{
	struct zi_parser p = { 0 };
	char *copy, *line, *save = NULL;
	int r = 0;

	if (!buf || !ret)
		return -EINVAL;
	copy = strdup(buf);
	p.zi = calloc(1, sizeof(*p.zi));
	if (!copy || !p.zi) {
		r = -ENOMEM;
		goto out;
	}
	for (line = strtok_r(copy, "\n", &save); line && r >= 0;
	     line = strtok_r(NULL, "\n", &save))
		r = parse_line(&p, line);
	if (r >= 0 && p.zi->nzones == 0)
		r = -EINVAL;
out:
	free(copy);
	if (r < 0) {
		cgctl_zoneinfo_free(p.zi);
		return r;
	}
	*ret = p.zi;
	return 0;
}

int cgctl_zoneinfo_read(struct cgctl_ctx *ctx, struct cgctl_zoneinfo **ret)
{
	char *buf = NULL;
	size_t len;
	int r;

	if (!ret)
		return -EINVAL;
	r = cgctl_read_sys(ctx, "/proc/zoneinfo", &buf, &len);
	if (r < 0)
		return r;
	r = cgctl_zoneinfo_parse(buf, ret);
	free(buf);
	return r;
}

int cgctl_zone_to_pcp(const struct cgctl_zone *z, unsigned int node_ncpu,
				   unsigned int high_fraction, struct cgctl_pcp_zone *ret)
{
	if (!z || !ret || z->low < 0 || z->present < 0)
		return -EINVAL;
	*ret = (struct cgctl_pcp_zone){
		.present_pages = (uint64_t)z->present,
		/* kernels before 3.x print no "managed": present is the closest figure */
		.managed_pages = (uint64_t)(z->managed >= 0 ? z->managed : z->present),
		.low_wmark = (uint64_t)z->low,
		.node_ncpu = node_ncpu,
		.high_fraction = high_fraction,
	};
	return 0;
}

static int read_int_file(struct cgctl_ctx *ctx, const char *path)
{
	char *buf = NULL;
	size_t len;
	int64_t v;
	int r;

	r = cgctl_read_sys(ctx, path, &buf, &len);
	if (r < 0)
		return r;
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	r = parse_i64(buf, &v);
	free(buf);
	if (r < 0 || v < 0 || v > INT32_MAX)
		return -EINVAL;
	return (int)v;
}

int cgctl_pcp_fraction_read(struct cgctl_ctx *ctx)
{
	int r = read_int_file(ctx, "/proc/sys/vm/percpu_pagelist_high_fraction");

	if (r == -ENOENT)
		r = read_int_file(ctx, "/proc/sys/vm/percpu_pagelist_fraction");
	return r == -ENOENT ? 0 : r;
}
