/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `cgctl move`: the CPU throttling the destination's cpu cgroup will see once the moved
 * tasks join it.  Every thread of the moving tasks and of the tasks already in the
 * destination (and below it) is sampled over a window (its on-CPU time from
 * /proc/TID/schedstat, else utime+stime of /proc/TID/stat); each becomes a worker of the
 * bandwidth engine with the demand it showed (always busy, or busy demand x period then
 * idle for the rest, start phases spread, 20% jitter); the engine runs the destination's
 * quota/period/burst under its limited ancestors (each level its own pool, as
 * tg_set_cfs_bandwidth() configures them), once with the current tasks (before) and
 * once with both (after).  Threads elsewhere under the ancestors are not sampled.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd-bw.h"
#include "kernel/proctree.h"
#include "move-throttle.h"

#define MS		1000000ULL
#define BUSY_ALWAYS	0.95	/* a thread this busy is modelled always runnable */
#define BUSY_MIN	0.005	/* below this a thread is idle for the model */

struct tids {
	pid_t *v;
	size_t n, cap;
};

static int tids_add(struct tids *t, pid_t tid)
{
	if (t->n == t->cap) {
		size_t c = t->cap ? 2 * t->cap : 64;
		pid_t *nv = realloc(t->v, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		t->v = nv;
		t->cap = c;
	}
	t->v[t->n++] = tid;
	return 0;
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static void tids_sort(struct tids *t)
{
	size_t o = 0;

	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), pid_cmp);
	for (size_t i = 0; i < t->n; i++)
		if (!o || t->v[o - 1] != t->v[i])
			t->v[o++] = t->v[i];
	t->n = o;
}

/* Numbers, one per line (tasks, cgroup.threads, cgroup.procs), appended to @t. */
static int add_numbers(struct tids *t, const char *buf)
{
	for (const char *p = buf; *p;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v > 0 && tids_add(t, (pid_t)v) < 0)
			return -ENOMEM;
		p = end;
		while (*p == '\n' || *p == ' ')
			p++;
	}
	return 0;
}

/* The threads of thread group @pid (/proc/PID/task/). */
static int threads_of(struct cli *cli, pid_t pid, struct tids *t)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int r = 0;

	snprintf(path, sizeof(path), "%s/proc/%d/task", cgctl_get_root(cli->ctx), (int)pid);
	dir = opendir(path);
	if (!dir)
		return tids_add(t, pid);	/* no task/ (fixture, exited): the PID alone */
	while ((d = readdir(dir)) && r == 0) {
		long v = strtol(d->d_name, NULL, 10);

		if (v > 0)
			r = tids_add(t, (pid_t)v);
	}
	closedir(dir);
	return r;
}

/* Every task of the cgroup open at @dfd and of its descendants. */
static int tasks_below(int dfd, int version, struct tids *t, int depth)
{
	const char *file = version == 2 ? "cgroup.threads" : "tasks";
	char buf[1 << 16];
	struct dirent *d;
	DIR *dir;
	ssize_t len;
	int fd, r = 0;

	fd = openat(dfd, file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		/* a big group: read in pieces, cut at the last full line */
		size_t have = 0;

		while ((len = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
			char *nl;

			have += (size_t)len;
			buf[have] = '\0';
			nl = strrchr(buf, '\n');
			if (!nl)
				continue;
			*nl = '\0';
			r = add_numbers(t, buf);
			have = strlen(nl + 1);
			memmove(buf, nl + 1, have);
			if (r < 0)
				break;
		}
		buf[have] = '\0';
		if (r == 0)
			r = add_numbers(t, buf);
		close(fd);
	}
	if (r < 0 || depth > 64)
		return r;
	fd = dup(dfd);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((d = readdir(dir)) && r == 0) {
		int sub;

		if (d->d_name[0] == '.' || (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN))
			continue;
		sub = openat(dfd, d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		r = tasks_below(sub, version, t, depth + 1);
		close(sub);
	}
	closedir(dir);
	return r;
}

/* On-CPU time of @tid in ns.  Returns: 0, or -errno (gone). */
static int cpu_ns(struct cli *cli, pid_t tid, uint64_t *ns)
{
	struct cgctl_proc_stat st;
	char path[48], *buf = NULL;
	size_t len;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	r = cgctl_read_sys(cli->ctx, path, &buf, &len);
	if (r == 0) {
		char *end;

		*ns = strtoull(buf, &end, 10);
		r = end == buf ? -EINVAL : 0;
		free(buf);
		if (r == 0)
			return 0;
	}
	r = cgctl_proc_stat_read(cli->ctx, tid, &st);
	if (r < 0)
		return r;
	*ns = (st.utime + st.stime) * (1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK));
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Demand (fraction of one CPU) of each TID of @a and @b over one window. */
static int sample(struct cli *cli, const struct tids *a, const struct tids *b,
		  uint64_t window, double *da, double *db, uint64_t *measured)
{
	size_t n = a->n + b->n;
	uint64_t *t0 = calloc(n ? n : 1, sizeof(*t0)), start, elapsed;
	bool *ok = calloc(n ? n : 1, sizeof(*ok));
	struct timespec ts = { (time_t)(window / 1000000000ULL), (long)(window % 1000000000ULL) };

	if (!t0 || !ok) {
		free(t0);
		free(ok);
		return -ENOMEM;
	}
	start = now_ns();
	for (size_t i = 0; i < n; i++)
		ok[i] = cpu_ns(cli, i < a->n ? a->v[i] : b->v[i - a->n], &t0[i]) == 0;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	for (size_t i = 0; i < n; i++) {
		uint64_t t1;

		if (!ok[i] || cpu_ns(cli, i < a->n ? a->v[i] : b->v[i - a->n], &t1) < 0 ||
		    t1 < t0[i])
			t0[i] = 0, ok[i] = false;
		else
			t0[i] = t1 - t0[i];
	}
	elapsed = now_ns() - start;
	*measured = elapsed;
	for (size_t i = 0; i < n; i++) {
		double d = ok[i] && elapsed ? (double)t0[i] / (double)elapsed : 0;

		if (d > 1)
			d = 1;
		if (i < a->n)
			da[i] = d;
		else
			db[i - a->n] = d;
	}
	free(t0);
	free(ok);
	return 0;
}

/* The limited groups from the top down to @dest (always included). */
static int read_levels(struct cli *cli, const struct cgctl_mount *m, const char *dest,
		       struct cgctl_bw_settings *lv, unsigned int *n, struct move_throttle *mt)
{
	char pfx[PATH_MAX];
	const char *p = dest;
	int r;

	*n = 0;
	mt->limit_cpus = 0;
	for (;;) {
		const char *slash = strchr(p + 1, '/');
		size_t len = slash ? (size_t)(slash - dest) : strlen(dest);
		struct cgctl_cpu_settings cs;
		struct cgctl_bw_settings bw;
		bool last = !slash;

		if (len == 0)
			len = 1;	/* "/" */
		snprintf(pfx, sizeof(pfx), "%.*s", (int)len, dest);
		r = cgctl_cpu_settings_read(cli->ctx, m, pfx, &cs);
		if (r < 0)
			return r;
		bw = cs.bw;
		if (bw.quota_us != CGCTL_BW_INF && bw.period_us) {
			double cpus = (double)bw.quota_us / (double)bw.period_us;

			if (!mt->limit_cpus || cpus < mt->limit_cpus) {
				mt->limit_cpus = cpus;
				snprintf(mt->limit_path, sizeof(mt->limit_path), "%s", pfx);
			}
		}
		if ((bw.quota_us != CGCTL_BW_INF || last) && *n < MOVE_THROTTLE_LEVELS) {
			lv[(*n)++] = bw;
		}
		if (last || !strcmp(dest, "/"))
			break;
		p = slash;
	}
	mt->bw = lv[*n - 1];
	return 0;
}

/* Predict the destination's cpu.stat with the threads of demand @d. */
static int simulate(struct cli *cli, const struct cgctl_bw_settings *lv, unsigned int nlv,
		    const double *d, size_t n, struct move_throttle_side *side)
{
	uint64_t period = lv[nlv - 1].period_us * 1000ULL;
	struct cgctl_bw_sim_config cfg = {
		.kver = cli_kver(cli) ? cli_kver(cli) : CGCTL_KVER_NEWEST,
		.ncpus = cli_ncpu(cli), .seed = 1,
	};
	struct cgctl_bw_sim *s;
	int64_t r;
	int g = -1;
	size_t k = 0;

	side->threads = 0;
	side->demand_cpus = 0;
	for (size_t i = 0; i < n; i++)
		if (d[i] >= BUSY_MIN) {
			side->threads++;
			side->demand_cpus += d[i];
		}
	/* at least 20 periods and 2 s, at most 10 s */
	cfg.duration_ns = 20 * period > 2000 * MS ? 20 * period : 2000 * MS;
	if (cfg.duration_ns > 10000 * MS)
		cfg.duration_ns = 10000 * MS;
	side->run_ns = cfg.duration_ns;
	r = cgctl_bw_sim_new(&s, &cfg);
	if (r < 0)
		return (int)r;
	for (unsigned int i = 0; i < nlv && r >= 0; i++) {
		r = cgctl_bw_sim_add_group(s, g, &lv[i]);
		g = (int)r;
	}
	for (size_t i = 0; i < n && r >= 0; i++) {
		struct cgctl_bw_thread t = { .group = g };

		if (d[i] < BUSY_MIN)
			continue;
		if (d[i] < BUSY_ALWAYS) {
			t.busy_ns = (uint64_t)(d[i] * (double)period);
			t.idle_ns = period - t.busy_ns;
			t.jitter_ppm = 200000;
			t.start_ns = period * (k++ % 16) / 16;	/* phases spread */
		}
		r = cgctl_bw_sim_add_thread(s, &t);
	}
	if (r >= 0)
		r = cgctl_bw_sim_run(s);
	if (r >= 0)
		r = cgctl_bw_sim_stat(s, g, false, &side->st);
	cgctl_bw_sim_free(s);
	return r < 0 ? (int)r : 0;
}

int move_throttle_limits(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 struct move_throttle *mt)
{
	int r;

	memset(mt, 0, sizeof(*mt));
	snprintf(mt->path, sizeof(mt->path), "%s", dest);
	mt->ncpus = cli_ncpu(cli);
	r = read_levels(cli, m, dest, mt->lv, &mt->levels, mt);
	if (r < 0)
		return cli_error(cli, dest, r, "cannot read the CPU bandwidth settings: %s",
				 cli_strerror(r));
	mt->limited = mt->limit_cpus > 0;
	return EXIT_OK;
}

int move_throttle_sample(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 const pid_t *pids, size_t n, uint64_t sample_ns,
			 struct move_throttle *mt)
{
	const struct cgctl_bw_settings *lv = mt->lv;
	unsigned int nlv = mt->levels;
	struct tids mv = { 0 }, in = { 0 };
	double *dmv = NULL, *din = NULL, *dall = NULL;
	size_t o = 0;
	int r = 0, dfd, rc = EXIT_OK;

	for (size_t i = 0; i < n && r >= 0; i++)
		r = threads_of(cli, pids[i], &mv);
	dfd = r < 0 ? r : cgctl_cg_open(cli->ctx, m, dest);
	if (dfd >= 0) {
		r = tasks_below(dfd, m->version, &in, 0);
		close(dfd);
	} else {
		r = dfd;
	}
	if (r < 0) {
		rc = cli_error(cli, dest, r, "cannot list the tasks to sample: %s",
			       cli_strerror(r));
		goto out;
	}
	tids_sort(&mv);
	tids_sort(&in);
	/* a moving thread already in the destination counts once, as moving */
	for (size_t i = 0, j = 0; i < in.n; i++) {
		while (j < mv.n && mv.v[j] < in.v[i])
			j++;
		if (j == mv.n || mv.v[j] != in.v[i])
			in.v[o++] = in.v[i];
	}
	in.n = o;
	dmv = calloc(mv.n + 1, sizeof(*dmv));
	din = calloc(in.n + 1, sizeof(*din));
	dall = calloc(mv.n + in.n + 1, sizeof(*dall));
	if (!dmv || !din || !dall) {
		rc = cli_error(cli, NULL, -ENOMEM, NULL);
		goto out;
	}
	cli_progress(cli, "sampling the CPU use of %zu threads for %.1f s", mv.n + in.n,
		     (double)sample_ns / 1e9);
	r = sample(cli, &mv, &in, sample_ns, dmv, din, &mt->sample_ns);
	if (r == 0) {
		memcpy(dall, din, in.n * sizeof(*din));
		memcpy(dall + in.n, dmv, mv.n * sizeof(*dmv));
		r = simulate(cli, lv, nlv, din, in.n, &mt->before);
	}
	if (r == 0)
		r = simulate(cli, lv, nlv, dall, in.n + mv.n, &mt->after);
	if (r < 0)
		rc = cli_error(cli, dest, r, "cannot predict the throttling: %s",
			       cli_strerror(r));
out:
	free(mv.v);
	free(in.v);
	free(dmv);
	free(din);
	free(dall);
	return rc;
}

static void emit_side(struct cli *cli, const char *key, const struct move_throttle *mt,
		      const struct move_throttle_side *s)
{
	uint64_t period = mt->bw.period_us * 1000ULL;
	double periods = period ? (double)s->run_ns / (double)period : 0;

	out_obj_begin(cli->out, key);
	out_u64(cli->out, "threads", s->threads);
	out_double(cli->out, "demand_cpus", s->demand_cpus, 2);
	out_i64(cli->out, "nr_periods", s->st.nr_periods);
	out_i64(cli->out, "nr_throttled", s->st.nr_throttled);
	out_double(cli->out, "throttled_periods_pct", s->st.nr_periods > 0 ?
		   100.0 * s->st.nr_throttled / s->st.nr_periods : 0, 1);
	out_usec(cli->out, "throttled_usec_per_period", s->st.nr_periods > 0 ?
		 s->st.throttled_ns / (uint64_t)s->st.nr_periods : 0);
	out_usec(cli->out, "usage_usec_per_period", periods > 0 ?
		 (uint64_t)((double)s->st.usage_ns / periods) : 0);
	out_obj_end(cli->out);
}

void move_throttle_emit(struct cli *cli, const struct move_throttle *mt)
{
	out_obj_begin(cli->out, "throttling");
	out_str(cli->out, "cgroup", mt->path);
	out_usec(cli->out, "quota_us", mt->bw.quota_us == CGCTL_BW_INF ? UINT64_MAX :
		 mt->bw.quota_us * 1000);
	out_usec(cli->out, "period_us", mt->bw.period_us * 1000);
	out_usec(cli->out, "burst_us", mt->bw.burst_us * 1000);
	out_bool(cli->out, "limited", mt->limited);
	if (mt->limited) {
		out_str(cli->out, "limited_by", mt->limit_path);
		out_double(cli->out, "limit_cpus", mt->limit_cpus, 2);
	} else {
		out_null(cli->out, "limited_by");
		out_null(cli->out, "limit_cpus");
	}
	out_u64(cli->out, "cpus", mt->ncpus);
	if (mt->limited && mt->sample_ns) {
		out_usec(cli->out, "sample_us", mt->sample_ns);
		emit_side(cli, "before", mt, &mt->before);
		emit_side(cli, "after", mt, &mt->after);
	} else {
		out_null(cli->out, "before");
		out_null(cli->out, "after");
	}
	out_obj_end(cli->out);
}
