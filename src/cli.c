/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every command uses: one-line errors, PID lists, path resolution, units. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgctl.h"
#include "systemd-scope.h"

/* A ring of buffers: one message may name two errors (a failed write and its failed
 * rollback), and each must keep its own text. */
const char *cli_strerror(int neg_errno)
{
	static char ring[4][128];
	static unsigned int next;
	char *buf = ring[next++ % 4];
	int e = neg_errno < 0 ? -neg_errno : neg_errno;

	switch (e) {
	case ENODEV:
		return "no such controller or hierarchy";
	case ELOOP:
		return "refusing to follow a symbolic link";
	default:
		break;
	}
	snprintf(buf, sizeof(ring[0]), "%s", strerror(e));
	buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

/* @s with every control character as "\n", "\t" or "\xHH": an error is one line, even
 * about a path or value that holds a newline (issue 15's catalogue found two). */
static void put_escaped(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			fputs("\\n", stderr);
		else if (c == '\t')
			fputs("\\t", stderr);
		else if (c < 0x20 || c == 0x7f)
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
}

/* Whether a progress line is on the terminal (erase it before other output). */
static bool progress_shown;

void cli_progress_clear(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = false;
}

static void vline(struct cli *cli, const char *obj, const char *fmt, va_list ap,
		  int neg_errno)
{
	char msg[2048];

	cli_progress_clear();
	fputs("cgctl: ", stderr);
	if (cli->cmdname[0])
		fprintf(stderr, "%s: ", cli->cmdname);
	if (obj) {
		put_escaped(obj);
		fputs(": ", stderr);
	}
	if (fmt) {
		vsnprintf(msg, sizeof(msg), fmt, ap);
		put_escaped(msg);
	} else {
		fputs(cli_strerror(neg_errno), stderr);
	}
	fputc('\n', stderr);
}

int cli_error(struct cli *cli, const char *obj, int neg_errno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(cli, obj, fmt, ap, neg_errno);
	va_end(ap);
	return neg_errno ? cgctl_errno_to_exit(neg_errno) : EXIT_FAIL;
}

int cli_usage(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(cli, NULL, fmt, ap, 0);
	va_end(ap);
	return EXIT_USAGE;
}

void cli_warn(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	if (cli->quiet)
		return;
	cli_progress_clear();
	fputs("cgctl: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_progress(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	char msg[512];

	if (cli->quiet || !cli->stderr_tty)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!msg[0]) {
		cli_progress_clear();
		return;
	}
	fputs("\r\033[K", stderr);
	fputs(msg, stderr);
	fflush(stderr);
	progress_shown = true;
}

int cli_parse_seed(struct cli *cli, const char *opt, const char *s, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return cli_usage(cli, "%s: '%s' is not a number", opt, s);
	*ret = v;
	return EXIT_OK;
}

int cli_parse_decimal(const char *s, double *ret)
{
	const char *p = s;
	size_t digits = 0;
	char *end;

	/* strtod() also takes " 1", "+1", "0x10", "1e3", "inf" and "nan" */
	for (; isdigit((unsigned char)*p); p++)
		digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	if (!digits || *p)
		return -EINVAL;
	errno = 0;
	*ret = strtod(s, &end);
	return errno || *end ? -ERANGE : 0;
}

int cli_parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > INT_MAX)
		return -EINVAL;
	*pid = (pid_t)v;
	return 0;
}

/* A growing PID list: doubling, so 10,000 PIDs on stdin cost a dozen reallocs. */
struct pid_list {
	pid_t **v;
	size_t *n;
	size_t cap;
};

static int add_pid(struct pid_list *l, pid_t p)
{
	if (*l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		pid_t *np = realloc(*l->v, cap * sizeof(**l->v));

		if (!np)
			return -ENOMEM;
		*l->v = np;
		l->cap = cap;
	}
	(*l->v)[(*l->n)++] = p;
	return 0;
}

/* -z: one PID per NUL-terminated record (find -print0, xargs -0 style). */
static int pids_from_stdin_nul(struct cli *cli, struct pid_list *l)
{
	char *rec = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long n = 0;
	int rc = EXIT_OK;

	while (rc == EXIT_OK && (len = getdelim(&rec, &cap, '\0', stdin)) >= 0) {
		pid_t p;

		n++;
		if (len && rec[len - 1] == '\0')
			len--;
		if (!len)
			continue;	/* "\0\0": an empty record is no PID */
		rec[len] = '\0';
		if (cli_parse_pid(rec, &p) < 0)
			rc = cli_usage(cli, "stdin record %lu: '%s' is not a PID", n,
				       cli_escape(rec));
		else if (add_pid(l, p) < 0)
			rc = cli_error(cli, NULL, -ENOMEM, NULL);
	}
	free(rec);
	return rc;
}

static int pids_from_stdin(struct cli *cli, struct pid_list *l)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int rc = EXIT_OK;

	if (cli->null_sep)
		return pids_from_stdin_nul(cli, l);
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		char *s = line, *e;
		pid_t p;

		lineno++;
		/* strlen() would stop at a NUL and drop what follows it */
		if (memchr(line, '\0', (size_t)len)) {
			rc = cli_usage(cli, "stdin line %lu: a NUL byte is not part of a PID",
				       lineno);
			break;
		}
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len)
			continue;	/* an empty line holds no PID */
		/* one grammar with the arguments (issue 33): a PID is what cli_parse_pid()
		 * takes, and a line holds PIDs one space or tab apart, nothing else
		 * (echo "$P1 $P2" | cgctl move - X): ' 4242' and '4242\r' are refused */
		if (strchr(" \t", line[0]) || strchr(" \t", line[len - 1]) ||
		    strstr(line, "  ") || strstr(line, "\t\t") || strstr(line, " \t") ||
		    strstr(line, "\t ")) {
			rc = cli_usage(cli, "stdin line %lu: '%s': PIDs are one space or tab "
				       "apart, with no blank before or after", lineno,
				       cli_escape(line));
			break;
		}
		for (char *tok = strtok_r(s, " \t", &e); tok; tok = strtok_r(NULL, " \t", &e)) {
			if (cli_parse_pid(tok, &p) < 0) {
				rc = cli_usage(cli, "stdin line %lu: '%s' is not a PID", lineno,
					       cli_escape(tok));
				break;
			}
			if (add_pid(l, p) < 0) {
				rc = cli_error(cli, NULL, -ENOMEM, NULL);
				break;
			}
		}
		if (rc)
			break;
	}
	free(line);
	return rc;
}

const char *cli_escape(const char *s)
{
	static char buf[256];
	size_t n = 0;

	for (; *s && n + 5 < sizeof(buf); s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\\x%02x",
					      (unsigned char)*s);
		else
			buf[n++] = *s;
	}
	buf[n] = '\0';
	return buf;
}

/* Append @s (@len bytes) to the list of @a; Returns: 0 or -ENOMEM. */
static int args_add(struct cli_args *a, const char *s, size_t len)
{
	char *copy;

	if (a->argc % 64 == 0) {
		const char **v = realloc(a->argv, ((size_t)a->argc + 65) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->argv = v;
	}
	copy = strndup(s, len);
	if (!copy)
		return -ENOMEM;
	a->argv[a->argc++] = copy;
	a->argv[a->argc] = NULL;
	return 0;
}

/* In place: "\xHH" -> the byte HH (how -r prints a blank or a backslash in a cell, so
 * that `tree -rn -o path | stat -` reads a name with a space back).  Returns: the new
 * length. */
static size_t unescape_hex(char *s, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
		    isxdigit((unsigned char)s[i + 2]) && isxdigit((unsigned char)s[i + 3])) {
			char hex[3] = { s[i + 2], s[i + 3], '\0' };

			s[o++] = (char)strtoul(hex, NULL, 16);
			i += 3;
			continue;
		}
		s[o++] = s[i];
	}
	return o;
}

/* The items of stdin: NUL-terminated records (-z), else words between blanks, with
 * \xHH escapes as -r prints them. */
static int stdin_items(struct cli *cli, struct cli_args *a)
{
	char *rec = NULL;
	size_t cap = 0;
	ssize_t len;
	int r = 0;

	while (!r && (len = getdelim(&rec, &cap, cli->null_sep ? '\0' : '\n', stdin)) >= 0) {
		if (cli->null_sep) {
			if (len && rec[len - 1] == '\0')
				len--;
			if (len)
				r = args_add(a, rec, (size_t)len);
			continue;
		}
		if (memchr(rec, '\0', (size_t)len)) {
			free(rec);
			return cli_usage(cli, "stdin: a NUL byte in a line (use -z for "
					      "NUL-separated input)");
		}
		for (char *s = rec, *e = rec + len; !r && s < e;) {
			size_t w;

			s += strspn(s, " \t\r\n\v\f");
			w = strcspn(s, " \t\r\n\v\f");
			if (w)
				r = args_add(a, s, unescape_hex(s, w));
			s += w;
		}
	}
	free(rec);
	return r ? cli_error(cli, NULL, r, NULL) : EXIT_OK;
}

int cli_stdin_args(struct cli *cli, int argc, const char **argv, struct cli_args *a)
{
	bool read = false;
	int rc = EXIT_OK;

	*a = (struct cli_args){ 0 };
	for (int i = 0; i < argc && rc == EXIT_OK; i++) {
		if (strcmp(argv[i], "-") || read) {
			if (args_add(a, argv[i], strlen(argv[i])) < 0)
				rc = cli_error(cli, NULL, -ENOMEM, NULL);
			continue;
		}
		read = true;	/* a second "-" would read an empty stdin: skipped */
		rc = stdin_items(cli, a);
	}
	if (rc == EXIT_OK && !a->argv) {
		a->argv = calloc(1, sizeof(*a->argv));	/* an empty list: { NULL } */
		if (!a->argv)
			rc = cli_error(cli, NULL, -ENOMEM, NULL);
	}
	if (rc)
		cli_args_free(a);
	return rc;
}

int cli_run_paths(struct cli *cli, int argc, const char **argv,
		  int (*fn)(struct cli *cli, int argc, const char **argv))
{
	struct cli_args a;
	int rc = cli_stdin_args(cli, argc, argv, &a);

	if (rc)
		return rc;
	rc = fn(cli, a.argc, a.argv);
	cli_args_free(&a);
	return rc;
}

void cli_args_free(struct cli_args *a)
{
	for (int i = 0; i < a->argc; i++)
		free((char *)a->argv[i]);
	free(a->argv);
	*a = (struct cli_args){ 0 };
}

bool cli_tsv_skip(const struct cli *cli, const char *table)
{
	return cli->fmt == OUT_TSV && cli->tsv_table && strcmp(cli->tsv_table, table) != 0;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return s && len >= n && !strcmp(s + len - n, suffix);
}

/* The spellings of unlimited seen in control files: v1 page counters print
 * PAGE_COUNTER_MAX pages (LONG_MAX rounded down to a page, cgctl_parse_mem_limit()),
 * the res_counter era U64_MAX; v2 prints "max"; v1 cpu.cfs_quota_us and
 * cpu.rt_runtime_us print -1 (kernel/sched/core.c:tg_get_cfs_quota()), and v1
 * *limit_in_bytes take -1 for unlimited when written. */
bool cli_unlimited_text(const char *file, const char *value)
{
	size_t l = strlen(value), f = file ? strlen(file) : 0;
	uint64_t v;

	while (l && value[l - 1] == '\n')
		l--;
	if (l == 3 && !strncmp(value, "max", 3))
		return true;
	if (l == 2 && !strncmp(value, "-1", 2))
		return ends_with(file, f, "cfs_quota_us") || ends_with(file, f, "rt_runtime_us") ||
		       ends_with(file, f, "limit_in_bytes");
	if (!l || strspn(value, "0123456789") != l || l < 19)
		return false;
	return cgctl_parse_mem_limit(value, l, &v) == 0 && v == UINT64_MAX;
}

bool cli_args_have_stdin(int argc, const char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-"))
			return true;
	return false;
}

int cli_collect_pids(struct cli *cli, int argc, const char **argv, pid_t **pids, size_t *n)
{
	struct pid_list l = { pids, n, 0 };
	int i, rc;

	*pids = NULL;
	*n = 0;
	for (i = 0; i < argc; i++) {
		pid_t p;

		if (strcmp(argv[i], "-") == 0) {
			rc = pids_from_stdin(cli, &l);
		} else if (cli_parse_pid(argv[i], &p) < 0) {
			rc = cli_usage(cli, "'%s' is not a PID", argv[i]);
		} else {
			rc = add_pid(&l, p) < 0 ? cli_error(cli, NULL, -ENOMEM, NULL) : 0;
		}
		if (rc) {
			free(*pids);
			*pids = NULL;
			*n = 0;
			return rc;
		}
	}
	return EXIT_OK;
}

int cli_resolve(struct cli *cli, const char *controller, const char *path,
		const struct cgctl_mount **m, char *norm, size_t len)
{
	int r = cgctl_mount_find(cli->ctx, controller, m);

	if (r == -ENODEV)
		return cli_error(cli, controller ? controller : "cgroup2", r,
				 "no hierarchy has this controller");
	if (r < 0)
		return cli_error(cli, NULL, r, "cannot discover cgroup hierarchies: %s",
				 cli_strerror(r));
	return cli_path(cli, *m, path, norm, len);
}

int cli_parse_size(struct cli *cli, const char *opt, const char *s, uint64_t *ret)
{
	int r = cgctl_parse_size(s, ret);

	if (r == -ERANGE)
		return cli_usage(cli, "--%s: '%s' is too large", opt, s);
	if (r < 0)
		return cli_usage(cli, "--%s: '%s' is not a size (e.g. 4096, 512K, 1.5G, "
				      "512MiB, max)", opt, s);
	return EXIT_OK;
}

int cli_parse_duration(struct cli *cli, const char *opt, const char *s, uint64_t plain_ns,
		       uint64_t *ret)
{
	int r;

	/*
	 * One unit for a bare number of every duration option: microseconds, the unit
	 * of the kernel's files and of --json (issue 29).  Where a bare number meant
	 * milliseconds or seconds (@plain_ns), it is refused rather than read anew.
	 */
	if (plain_ns != 1000 && s && *s && strspn(s, "0123456789.") == strlen(s) &&
	    strspn(s, "0.") != strlen(s))	/* 0 is 0 in any unit */
		return cli_usage(cli, "--%s: '%s' needs a unit (e.g. %s%s): a bare number is "
				 "microseconds in cgctl, and was %s here", opt, s, s,
				 plain_ns == 1000000 ? "ms" : "s",
				 plain_ns == 1000000 ? "milliseconds" : "seconds");
	r = cgctl_parse_duration(s, 1000, ret);
	if (r == -ERANGE)
		return cli_usage(cli, "--%s: '%s' is too large", opt, s);
	if (r < 0)
		return cli_usage(cli, "--%s: '%s' is not a duration (e.g. 500us, 50ms, 1.5s)",
				 opt, s);
	return EXIT_OK;
}

int cli_hierarchies(struct cli *cli, const char *list, const struct cgctl_mount **ms,
		    size_t *n)
{
	char *copy = strdup(list ? list : CLI_DEFAULT_CONTROLLERS), *tok, *save = NULL;
	int rc = EXIT_OK;

	*n = 0;
	if (!copy)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct cgctl_mount *m;
		size_t i;
		int r = cgctl_mount_find(cli->ctx, tok, &m);

		if (r == -ENODEV && !list)
			continue;
		if (r == -ENODEV) {
			rc = cli_error(cli, tok, r, "no hierarchy has this controller");
			break;
		}
		if (r < 0) {
			rc = cli_error(cli, NULL, r, "cannot discover cgroup hierarchies: %s",
				       cli_strerror(r));
			break;
		}
		for (i = 0; i < *n && ms[i] != m; i++)
			;
		if (i == *n && *n < CLI_MAX_MOUNTS)
			ms[(*n)++] = m;
	}
	free(copy);
	if (rc == EXIT_OK && *n == 0)
		rc = cli_error(cli, NULL, -ENODEV, "no hierarchy carries %s",
			       list ? list : CLI_DEFAULT_CONTROLLERS);
	return rc;
}

const char *cli_mount_name(const struct cgctl_mount *m, char *buf, size_t len)
{
	if (m->version == 2)
		snprintf(buf, len, "unified");
	else
		snprintf(buf, len, "%s", m->controllers);
	return buf;
}

/* Our own cgroup in @m, read once per hierarchy; on a systemd host whose cgroup of ours
 * is systemd's alone, the delegated scope of src/systemd-scope.h instead. */
static int self_cgroup(struct cli *cli, const struct cgctl_mount *m, const char **ret)
{
	char scope[PATH_MAX];
	static struct {
		const struct cgctl_mount *m;
		char *path;
	} cache[CLI_MAX_MOUNTS];
	size_t i;
	int r;

	for (i = 0; i < CLI_MAX_MOUNTS && cache[i].m; i++)
		if (cache[i].m == m) {
			*ret = cache[i].path;
			return 0;
		}
	if (i == CLI_MAX_MOUNTS)
		i = 0;
	free(cache[i].path);
	cache[i].m = NULL;
	cache[i].path = NULL;
	r = sd_scope_self(cli, m, scope, sizeof(scope));
	if (r > 0 && !(cache[i].path = strdup(scope)))
		r = -ENOMEM;
	if (r == 0)
		r = cgctl_pid_cgroup(cli->ctx, 0, m, &cache[i].path);
	if (r < 0)
		return r;
	cache[i].m = m;
	*ret = cache[i].path;
	return 0;
}

const char *cli_path_shown(struct cli *cli, const struct cgctl_mount *m, const char *abs,
			   char *buf, size_t len)
{
	const char *self = NULL;
	size_t n;

	snprintf(buf, len, "%s", abs);
	if (!cli->self || !m || self_cgroup(cli, m, &self) < 0 || !self)
		return buf;
	n = strcmp(self, "/") ? strlen(self) : 0;
	if (strncmp(abs, self, n) == 0 && (abs[n] == '/' || abs[n] == '\0'))
		snprintf(buf, len, "%s", abs[n] ? abs + n : "/");
	return buf;
}

int cli_path(struct cli *cli, const struct cgctl_mount *m, const char *path, char *out,
	     size_t len)
{
	char joined[PATH_MAX];
	const char *self = NULL;
	int r;

	if (!*path)	/* not the root: a variable that came out empty */
		return cli_usage(cli, "'': empty cgroup path (the root is '/')");
	if (!cli->self) {
		r = cgctl_path_normalize(path, out, len);
	} else {
		r = self_cgroup(cli, m, &self);	/* systemd: a delegated scope's */
		if (r < 0)
			return cli_error(cli, m->path, r, "cannot find our own cgroup: %s",
					 cli_strerror(r));
		if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", self, path) >=
		    sizeof(joined))
			return cli_error(cli, path, -ENAMETOOLONG, NULL);
		r = cgctl_path_normalize(joined, out, len);
	}
	if (r == -EINVAL)
		return cli_usage(cli, "%s: invalid cgroup path ('..' and control characters "
				      "are refused)", path);
	if (r == -ENAMETOOLONG)
		return cli_usage(cli, "%s: cgroup path too long (a name over %d bytes or the "
				      "path over %zu)", path, NAME_MAX, len - 1);
	if (r < 0)
		return cli_error(cli, path, r, NULL);
	return EXIT_OK;
}

uint32_t cli_kver(struct cli *cli)
{
	return cgctl_kver_of(cli->ctx);
}

unsigned int cli_ncpu(struct cli *cli)
{
	int n = cgctl_online_ncpu(cli->ctx);
	long s;

	if (n > 0)
		return (unsigned int)n;
	s = sysconf(_SC_NPROCESSORS_ONLN);
	return s > 0 ? (unsigned int)s : 1;
}

int cli_check_paths(struct cli *cli, const struct cgctl_mount *const *ms, size_t n, int argc,
		    const char **argv, const char *root_msg)
{
	for (int a = 0; a < argc; a++)
		for (size_t i = 0; i < n; i++) {
			char norm[PATH_MAX];
			int rc = cli_path(cli, ms[i], argv[a], norm, sizeof(norm));

			if (rc)
				return rc;
			if (strcmp(norm, "/") == 0)
				return cli_usage(cli, "%s: %s", argv[a], root_msg);
		}
	return EXIT_OK;
}

struct cli_table_args cli_table_args;

/* "PATH, USAGE, ...": the column names of @t, for the error line. */
static void column_names(const struct out_table *t, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < t[i].n; c++) {
			const char *name = t[i].cols[c].name;
			bool dup = false;

			for (size_t j = 0; j <= i && !dup; j++)
				for (size_t d = 0; d < (j < i ? t[j].n : c) && !dup; d++)
					dup = !strcmp(t[j].cols[d].name, name);
			if (!dup && used < len)
				used += (size_t)snprintf(buf + used, len - used, "%s%s",
							 used ? "," : "", name);
		}
}

int cli_tables(struct cli *cli, const struct out_table *t, size_t n, bool all)
{
	const struct cli_table_args *a = &cli_table_args;
	struct out_table_opts o = {
		.columns = a->output, .all = all || a->all, .noheadings = a->noheadings,
		.bytes = a->bytes, .raw = a->raw,
	};
	char bad[64], names[1024];

	if (a->output && a->all)
		return cli_usage(cli, "--output and --output-all exclude each other");
	if (cli->fmt != OUT_HUMAN && (a->output || a->all || a->noheadings || a->bytes || a->raw))
		return cli_usage(cli, "--output, --output-all, --noheadings, --bytes and --raw "
				      "shape tables: not with --%s", cli->fmt == OUT_JSON ? "json" : "tsv");
	if (out_tables_check(t, n, &o, bad, sizeof(bad)) < 0) {
		column_names(t, n, names, sizeof(names));
		if (!bad[0])
			return cli_usage(cli, "--output: an empty column name (columns: %s)", names);
		return cli_usage(cli, "--output: unknown column '%s' (columns: %s)", bad, names);
	}
	out_set_tables(cli->out, t, n, &o);
	return EXIT_OK;
}

int cli_kv(struct cli *cli, const struct out_table *t, size_t n)
{
	const struct cli_table_args *a = &cli_table_args;
	struct out_table_opts o = {
		.columns = a->output, .all = a->all, .noheadings = a->noheadings,
		.bytes = a->bytes, .raw = a->raw, .kv = true,
	};

	if (t) {
		int rc = cli_tables(cli, t, n, false);

		if (rc == EXIT_OK)
			out_set_kv(cli->out);
		return rc;
	}
	if (cli->fmt != OUT_HUMAN && a->output)
		return cli_usage(cli, "--output picks keys of the human form: not with --%s",
				 cli->fmt == OUT_JSON ? "json" : "tsv");
	out_set_tables(cli->out, NULL, 0, &o);
	return EXIT_OK;
}

void cli_notice(void *data, const char *msg)
{
	struct cli *cli = data;

	if (cli->quiet)
		return;
	if (cli->stderr_tty)
		fputs("\r\033[K", stderr);	/* over the progress line */
	fprintf(stderr, "cgctl: %s: %s\n", cli->cmdname, msg);
}
