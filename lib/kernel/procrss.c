// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * RSS figures of one process as the kernel prints them:
 *   /proc/PID/status        fs/proc/task_mmu.c:task_mem()  (mm counters, kB)
 *   /proc/PID/smaps_rollup  fs/proc/task_mmu.c:show_smaps_rollup() (page-table walk, kB;
 *                           4.14+)
 *   /proc/PID/statm         fs/proc/task_mmu.c:task_statm() (pages)
 *   /proc/PID/stat          fs/proc/array.c:do_task_stat() field 24 (pages)
 * Parsers are pure and skip lines they do not know.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/procrss.h"

void procrss_init(struct cgctl_procrss *r)
{
	r->vmrss_kb = r->rssanon_kb = r->rssfile_kb = r->rssshmem_kb = UINT64_MAX;
	r->vmswap_kb = r->smaps_rss_kb = r->smaps_anon_kb = UINT64_MAX;
	r->statm_resident_pages = r->stat_rss_pages = UINT64_MAX;
	r->threads = 0;
}

/* decimal at *s (blanks skipped); *s moves past it */
static int take_u64(const char **s, uint64_t *ret)
{
	const char *p = *s;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	*ret = strtoull(p, &end, 10);
	if (errno)
		return -EINVAL;
	*s = end;
	return 0;
}

/* "Key:   1234 kB" -> 1234; the unit must be kB */
static int kb_value(const char *val, uint64_t *ret)
{
	uint64_t v;

	if (take_u64(&val, &v) < 0)
		return -EINVAL;
	while (*val == ' ' || *val == '\t')
		val++;
	if (strncmp(val, "kB", 2) != 0)
		return -EINVAL;
	*ret = v;
	return 0;
}

struct kb_key {
	const char *key;	/* with the colon */
	size_t off;
};

/* Walk the lines of @buf; lines whose key is in @keys fill the matching field. */
static int parse_kb_lines(const char *buf, const struct kb_key *keys, size_t nkeys,
			  struct cgctl_procrss *r)
{
	const char *line = buf;
	size_t i, klen;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		for (i = 0; i < nkeys; i++) {
			klen = strlen(keys[i].key);
			if (strncmp(line, keys[i].key, klen) != 0)
				continue;
			if (kb_value(line + klen, (uint64_t *)((char *)r + keys[i].off)) < 0)
				return -EINVAL;
			break;
		}
	}
	return 0;
}

static int parse_threads(const char *buf, struct cgctl_procrss *r)
{
	const char *p = strstr(buf, "\nThreads:");
	uint64_t v;

	if (!p)
		return 0;	/* a kernel without the line */
	p += strlen("\nThreads:");
	if (take_u64(&p, &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	r->threads = (unsigned int)v;
	return 0;
}

int cgctl_procrss_parse_status(const char *buf, struct cgctl_procrss *r)
{
	static const struct kb_key keys[] = {
		{ "VmRSS:", offsetof(struct cgctl_procrss, vmrss_kb) },
		{ "RssAnon:", offsetof(struct cgctl_procrss, rssanon_kb) },
		{ "RssFile:", offsetof(struct cgctl_procrss, rssfile_kb) },
		{ "RssShmem:", offsetof(struct cgctl_procrss, rssshmem_kb) },
		{ "VmSwap:", offsetof(struct cgctl_procrss, vmswap_kb) },
	};

	if (!buf || !r)
		return -EINVAL;
	if (parse_kb_lines(buf, keys, ARRAY_SIZE(keys), r) < 0)
		return -EINVAL;
	return parse_threads(buf, r);
}

int cgctl_procrss_parse_smaps_rollup(const char *buf, struct cgctl_procrss *r)
{
	static const struct kb_key keys[] = {
		{ "Rss:", offsetof(struct cgctl_procrss, smaps_rss_kb) },
		{ "Anonymous:", offsetof(struct cgctl_procrss, smaps_anon_kb) },
	};

	if (!buf || !r)
		return -EINVAL;
	return parse_kb_lines(buf, keys, ARRAY_SIZE(keys), r);
}

/* "size resident shared text lib data dt" */
int cgctl_procrss_parse_statm(const char *buf, struct cgctl_procrss *r)
{
	uint64_t size, resident;

	if (!buf || !r)
		return -EINVAL;
	if (take_u64(&buf, &size) < 0 || take_u64(&buf, &resident) < 0)
		return -EINVAL;
	r->statm_resident_pages = resident;
	return 0;
}

/* "pid (comm) state ppid ..." -- comm may hold blanks and ')', so fields are counted
 * from the last ')'; field 24 (rss) is the 22nd after it. */
int cgctl_procrss_parse_stat(const char *buf, struct cgctl_procrss *r)
{
	const char *p;
	int field;

	if (!buf || !r)
		return -EINVAL;
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	p++;
	for (field = 3; field < 24; field++) {
		while (*p == ' ')
			p++;
		if (*p == '\0' || *p == '\n')
			return -EINVAL;
		p += strcspn(p, " \n");
	}
	return take_u64(&p, &r->stat_rss_pages);
}

typedef int (*procrss_parser)(const char *buf, struct cgctl_procrss *r);

static int read_one(struct cgctl_ctx *ctx, pid_t pid, const char *file,
		    procrss_parser parse, struct cgctl_procrss *r)
{
	char path[64], *buf = NULL;
	size_t len;
	int ret;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	else
		snprintf(path, sizeof(path), "/proc/self/%s", file);
	ret = cgctl_read_sys(ctx, path, &buf, &len);
	if (ret < 0)
		return ret == -ENOENT ? -ESRCH : ret;
	ret = parse(buf, r);
	free(buf);
	return ret;
}

int cgctl_procrss_read(struct cgctl_ctx *ctx, pid_t pid,
				    struct cgctl_procrss *ret)
{
	int r;

	if (!ret || pid < 0)
		return -EINVAL;
	procrss_init(ret);
	r = read_one(ctx, pid, "smaps_rollup", cgctl_procrss_parse_smaps_rollup, ret);
	if (r < 0 && r != -ESRCH)
		return r;
	/* no smaps_rollup before 4.14: the exact figures stay "not printed" */
	r = read_one(ctx, pid, "statm", cgctl_procrss_parse_statm, ret);
	if (r < 0)
		return r;
	r = read_one(ctx, pid, "stat", cgctl_procrss_parse_stat, ret);
	if (r < 0)
		return r;
	return read_one(ctx, pid, "status", cgctl_procrss_parse_status, ret);
}
