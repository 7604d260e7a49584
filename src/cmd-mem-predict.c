/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl mem predict [PATH] (--anon SIZE | --file SIZE) [--threads N] [--rate SIZE]
 *                   [--chunk SIZE] [--high SIZE] [--max SIZE] [--swap-max SIZE]
 *                   [--swap SIZE] [--online-cpus M] [--hz N] [--page-time DUR]
 *                   [--kernel VERSION] [--timeline] [--ascii]
 * Runs the memory.high model (lib/engine/memcg-high-*.c: lib/libcgctl-memhigh.la, linked
 * into cgctl, not exported) and prints what memory.current, memory.peak and
 * memory.events would read once the workload has ended, how long its tasks slept
 * throttled and whether the OOM killer ended it.  The memory twin of `cgctl bw predict`.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/libcgctl-memhigh.h"
#include "mem-util.h"

#define PG CGCTL_PAGE_SIZE
#define ROWS 40

static const char *opt_anon, *opt_file, *opt_rate, *opt_chunk, *opt_high, *opt_max;
static const char *opt_swap_max, *opt_swap, *opt_page_time, *opt_kernel, *opt_lru;
static int opt_threads = 1, opt_cpus = -1, opt_hz = 250, opt_timeline, opt_ascii;

static const struct poptOption options[] = {
    {"anon", '\0', POPT_ARG_STRING, &opt_anon, 0,
     "each thread faults in this much anonymous memory and keeps it", "SIZE"},
    {"file", '\0', POPT_ARG_STRING, &opt_file, 0,
     "each thread reads this much of a file into the page cache", "SIZE"},
    {"threads", '\0', POPT_ARG_INT, &opt_threads, 0, "number of threads (default 1)",
     "N"},
    {"rate", '\0', POPT_ARG_STRING, &opt_rate, 0,
     "bytes per second per thread (default: as fast as the CPU)", "SIZE"},
    {"chunk", '\0', POPT_ARG_STRING, &opt_chunk, 0,
     "read() size of --file (default 128K; anon faults one page)", "SIZE"},
    {"high", '\0', POPT_ARG_STRING, &opt_high, 0,
     "memory.high (default: PATH's, else max)", "SIZE"},
    {"max", '\0', POPT_ARG_STRING, &opt_max, 0, "memory.max (default: PATH's, else max)",
     "SIZE"},
    {"swap-max", '\0', POPT_ARG_STRING, &opt_swap_max, 0,
     "memory.swap.max (default: PATH's, else max)", "SIZE"},
    {"swap", '\0', POPT_ARG_STRING, &opt_swap, 0,
     "free swap space of the system (default 0: no swap)", "SIZE"},
    {"online-cpus", '\0', POPT_ARG_INT, &opt_cpus, 0, "the machine's CPUs (default: online CPUs)", "M"},
    {"hz", '\0', POPT_ARG_INT, &opt_hz, 0, "CONFIG_HZ (default 250, Debian's)", "N"},
    {"page-time", '\0', POPT_ARG_STRING, &opt_page_time, 0,
     "CPU time to fault or read one page (default 250ns)", "DUR"},
    {"kernel", '\0', POPT_ARG_STRING, &opt_kernel, 0,
     "kernel era (default: the running kernel; 6.1 or later)", "VERSION"},
    {"lru", '\0', POPT_ARG_STRING, &opt_lru, 0,
     "reclaim's LRU: gen, classic (default: the running kernel's, or the era's with "
     "--kernel)", "KIND"},
    {"timeline", '\0', POPT_ARG_NONE, &opt_timeline, 0, "draw memory.current over time",
     NULL},
    {"ascii", '\0', POPT_ARG_NONE, &opt_ascii, 0, "plain ASCII timeline", NULL},
    CLI_KV_OPTIONS,
    POPT_TABLEEND};

struct pred {
	struct cgctl_memhigh_config cfg;
	struct cgctl_memhigh_group grp;
	struct cgctl_memhigh_workload wl;
	struct cgctl_memhigh_group_result res;
	struct cgctl_memhigh_sample *samples;
	ssize_t nsamples;
	uint64_t size, rate, chunk, swap;
};

static uint64_t to_pages(uint64_t bytes)
{
	return bytes == CGCTL_SIZE_MAX ? CGCTL_MEMCG_UNLIMITED : bytes / PG;
}

static uint64_t to_bytes(uint64_t pages)
{
	return pages == CGCTL_MEMCG_UNLIMITED ? UINT64_MAX : pages * PG;
}

/* the group's settings from PATH (v2 only), then the options on top */
static int read_path(struct cli *cli, const char *arg, struct cgctl_memhigh_limits *l)
{
	static const enum cgctl_knob k[] = {
		CGCTL_KNOB_MEM_HIGH, CGCTL_KNOB_MEM_LIMIT, CGCTL_KNOB_MEM_SWAP,
	};
	uint64_t *const to[] = { &l->high, &l->max, &l->swap_max };
	const struct cgctl_mount *m;
	struct cgctl_cgroup *cg = NULL;
	char norm[PATH_MAX];
	int rc, r;

	rc = cli_resolve(cli, "memory", arg, &m, norm, sizeof(norm));
	if (rc)
		return rc;
	if (m->version != 2)
		return cli_error(cli, arg, -EOPNOTSUPP,
				 "memory.high is cgroup v2 only (this "
				 "is a v1 hierarchy; give --high/--max without PATH)");
	r = cgctl_cg_exists(cli->ctx, m, norm);
	if (r <= 0)
		return cli_error(cli, arg, r ? r : -ENOENT, r ? NULL : "no such cgroup");
	/* the knobs through the cgroup object's getters; a file this cgroup lacks (the
	 * root's, memory.swap.max without swap) reads unlimited */
	r = cgctl_cgroup_new(cli->ctx, "memory", norm, &cg);
	for (size_t i = 0; r == 0 && i < sizeof(k) / sizeof(k[0]); i++) {
		uint64_t v;

		r = cgctl_cgroup_get(cg, k[i], &v);
		if (r == -ENODATA) {
			v = UINT64_MAX;
			r = 0;
		}
		*to[i] = to_pages(v);
	}
	cgctl_cgroup_unref(cg);
	if (r < 0)
		return cli_error(cli, arg, r, "cannot read the memory settings: %s",
				 cli_strerror(r));
	return EXIT_OK;
}

static int size_opt(struct cli *cli, const char *name, const char *s, uint64_t *pages)
{
	uint64_t b;
	int rc;

	if (!s)
		return EXIT_OK;
	rc = cli_parse_size(cli, name, s, &b);
	if (!rc)
		*pages = to_pages(b);
	return rc;
}

static int parse_settings(struct cli *cli, int argc, const char **argv, struct pred *p)
{
	struct cgctl_memhigh_limits l = CGCTL_MEMHIGH_NO_LIMITS;
	int rc = EXIT_OK;

	if (argc > 0 && (rc = read_path(cli, argv[0], &l)))
		return rc;
	if ((rc = size_opt(cli, "high", opt_high, &l.high)) ||
	    (rc = size_opt(cli, "max", opt_max, &l.max)) ||
	    (rc = size_opt(cli, "swap-max", opt_swap_max, &l.swap_max)))
		return rc;
	if (!l.max)
		return cli_usage(cli, "--max: a limit below one page leaves no room");
	if (opt_swap) {
		if ((rc = cli_parse_size(cli, "swap", opt_swap, &p->swap)))
			return rc;
		if (p->swap == CGCTL_SIZE_MAX)
			return cli_usage(cli,
					 "--swap: give the free swap space, not max");
	}
	p->grp = (struct cgctl_memhigh_group){.parent = -1, .lim = l};
	return EXIT_OK;
}

static int parse_workload(struct cli *cli, struct pred *p)
{
	const char *sz = opt_anon ? opt_anon : opt_file;
	int rc;

	if (!!opt_anon == !!opt_file)
		return cli_usage(cli, "give one of --anon SIZE and --file SIZE");
	if ((rc = cli_parse_size(cli, opt_anon ? "anon" : "file", sz, &p->size)))
		return rc;
	if (p->size < PG || p->size == CGCTL_SIZE_MAX || p->size > (1ULL << 52))
		return cli_usage(cli, "--%s: '%s' is not in [4K, 4P]",
				 opt_anon ? "anon" : "file", sz);
	if (opt_threads < 1 || opt_threads > 1024)
		return cli_usage(cli, "--threads: %d is not in 1..1024", opt_threads);
	if (opt_rate && (rc = cli_parse_size(cli, "rate", opt_rate, &p->rate)))
		return rc;
	if (opt_rate && (p->rate < PG || p->rate == CGCTL_SIZE_MAX))
		return cli_usage(cli, "--rate: '%s' is less than a page a second",
				 opt_rate);
	p->chunk = 128 * 1024;
	if (opt_chunk && opt_anon)
		return cli_usage(cli, "--chunk is the read() size of --file");
	if (opt_chunk && (rc = cli_parse_size(cli, "chunk", opt_chunk, &p->chunk)))
		return rc;
	if (p->chunk < PG || p->chunk > 1024 * 1024 * 1024)
		return cli_usage(cli, "--chunk: '%s' is not in [4K, 1G]", opt_chunk);
	p->wl = (struct cgctl_memhigh_workload){
	    .group = 0,
	    .kind = opt_anon ? CGCTL_MEMHIGH_ANON : CGCTL_MEMHIGH_FILE,
	    .threads = (unsigned int)opt_threads,
	    .size_pages = p->size / PG,
	    .rate_pages = p->rate / PG,
	    .chunk_pages = opt_anon ? 1 : p->chunk / PG,
	    .stay = true,
	};
	return EXIT_OK;
}

static int parse_world(struct cli *cli, struct pred *p)
{
	struct cgctl_memhigh_era era;
	uint64_t pt = 250;
	int rc;

	if (opt_cpus == 0 || opt_cpus > 4096 || opt_cpus < -1)
		return cli_usage(cli, "--online-cpus: %d is not in 1..4096", opt_cpus);
	if (opt_hz != 100 && opt_hz != 250 && opt_hz != 300 && opt_hz != 1000)
		return cli_usage(cli, "--hz: %d is not 100, 250, 300 or 1000", opt_hz);
	if (opt_page_time &&
	    (rc = cli_parse_duration(cli, "page-time", opt_page_time, 1000, &pt)))
		return rc;
	if (!pt || pt > 1000000000ULL)
		return cli_usage(cli, "--page-time: '%s' is not in (0, 1s]",
				 opt_page_time);
	if (opt_kernel) {
		if (cgctl_kver_parse(opt_kernel, &p->cfg.kver) < 0)
			return cli_usage(cli,
					 "--kernel: '%s' is not a version (e.g. 6.12)",
					 opt_kernel);
	} else {
		p->cfg.kver = mem_kver(cli);
		if (!p->cfg.kver)
			p->cfg.kver = CGCTL_KVER_NEWEST;
	}
	if (cgctl_memhigh_era_get(p->cfg.kver, &era) < 0)
		return cli_error(cli, NULL, -EOPNOTSUPP,
				 "the memory.high model covers "
				 "kernels 6.1 and later");
	if (opt_lru && !strcmp(opt_lru, "gen")) {
		p->cfg.lru = CGCTL_MEMHIGH_LRU_GEN;
	} else if (opt_lru && !strcmp(opt_lru, "classic")) {
		p->cfg.lru = CGCTL_MEMHIGH_LRU_CLASSIC;
	} else if (opt_lru) {
		return cli_usage(cli, "--lru: '%s' is not gen or classic", opt_lru);
	} else if (!opt_kernel) {
		bool on;

		/* the running kernel's (lru_gen/enabled); an unreadable file leaves
		 * the era's default */
		if (cgctl_lru_gen_read(cli->ctx, &on) == 0)
			p->cfg.lru = on ? CGCTL_MEMHIGH_LRU_GEN : CGCTL_MEMHIGH_LRU_CLASSIC;
	}
	if (p->cfg.lru == CGCTL_MEMHIGH_LRU_DEFAULT)
		p->cfg.lru = era.lru_gen ? CGCTL_MEMHIGH_LRU_GEN : CGCTL_MEMHIGH_LRU_CLASSIC;
	p->cfg.hz = (unsigned int)opt_hz;
	p->cfg.ncpus = opt_cpus > 0 ? (unsigned int)opt_cpus : mem_ncpu(cli);
	p->cfg.alloc_ns = pt;
	p->cfg.swap_free = p->swap / PG;
	p->cfg.ngroups = 1;
	p->cfg.groups = &p->grp;
	p->cfg.nworkloads = 1;
	p->cfg.workloads = &p->wl;
	return EXIT_OK;
}

static int run(struct cli *cli, struct pred *p)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_memhigh_run *r;
	const struct cgctl_memhigh_sample *s;
	int err;

	err = cgctl_memhigh_run(&p->cfg, &r, &e);
	if (err < 0)
		return cli_error(cli, NULL, err, "%s",
				 e.msg[0] ? e.msg : cli_strerror(err));
	cgctl_memhigh_run_group(r, 0, &p->res);
	cgctl_memhigh_run_free(r);
	if (!opt_timeline)
		return EXIT_OK;
	/* a second, identical run that samples ROWS times over the first one's length */
	p->cfg.sample_ns = p->res.end_ns / ROWS + 1;
	err = cgctl_memhigh_run(&p->cfg, &r, &e);
	if (err < 0)
		return cli_error(cli, NULL, err, "%s",
				 e.msg[0] ? e.msg : cli_strerror(err));
	p->nsamples = cgctl_memhigh_run_samples(r, 0, &s);
	p->samples = p->nsamples > 0 ? malloc(p->nsamples * sizeof(*s)) : NULL;
	if (p->samples)
		memcpy(p->samples, s, p->nsamples * sizeof(*s));
	else
		p->nsamples = 0;
	cgctl_memhigh_run_free(r);
	return EXIT_OK;
}

static void emit(struct cli *cli, const struct pred *p)
{
	const struct cgctl_memhigh_group_result *r = &p->res;
	struct out *o = cli->out;
	char kv[32];

	out_obj_begin(o, "settings");
	out_bytes(o, "high_bytes", to_bytes(p->grp.lim.high));
	out_bytes(o, "max_bytes", to_bytes(p->grp.lim.max));
	out_bytes(o, "swap_max_bytes", to_bytes(p->grp.lim.swap_max));
	out_bytes(o, "swap_free_bytes", p->swap);
	out_u64(o, "online_cpus", p->cfg.ncpus);
	out_u64(o, "hz", p->cfg.hz);
	out_obj_end(o);
	out_obj_begin(o, "workload");
	out_str(o, "kind", opt_anon ? "anon" : "file");
	out_bytes(o, "size_bytes", p->wl.size_pages * PG);
	out_u64(o, "threads", p->wl.threads);
	if (p->rate)
		out_bytes(o, "rate_bytes", p->wl.rate_pages * PG);
	else
		out_null(o, "rate_bytes");
	out_bytes(o, "chunk_bytes", (uint64_t)p->wl.chunk_pages * PG);
	out_usec_frac(o, "page_time_usec", p->cfg.alloc_ns / 1000.0);
	out_obj_end(o);
	out_str(o, "kernel", mem_kver_str(p->cfg.kver, kv, sizeof(kv)));
	out_str(o, "lru", p->cfg.lru == CGCTL_MEMHIGH_LRU_GEN ? "gen" : "classic");
	out_obj_begin(o, "predicted");
	out_bytes(o, "current_bytes", r->current * PG);
	out_bytes(o, "peak_bytes", r->peak * PG);
	out_bytes(o, "swap_bytes", r->swap * PG);
	out_obj_begin(o, "events");
	out_u64(o, "low", r->ev_low);
	out_u64(o, "high", r->ev_high);
	out_u64(o, "max", r->ev_max);
	out_u64(o, "oom", r->ev_oom);
	out_u64(o, "oom_kill", r->ev_oom_kill);
	out_obj_end(o);
	out_usec(o, "stall_usec", r->stall_ns);
	out_u64(o, "throttle_sleeps", r->sleeps);
	out_usec(o, "reclaim_usec", r->reclaim_ns);
	out_usec(o, "wall_usec", r->end_ns);
	out_bool(o, "oom_killed", r->killed > 0);
	out_obj_end(o);
}

static void emit_timeline_json(struct cli *cli, const struct pred *p)
{
	struct out *o = cli->out;

	out_list_begin(o, "timeline");
	for (ssize_t i = 0; i < p->nsamples; i++) {
		const struct cgctl_memhigh_sample *s = &p->samples[i];

		out_obj_begin(o, NULL);
		out_usec(o, "t_usec", s->t_ns);
		out_bytes(o, "current_bytes", s->current * PG);
		out_u64(o, "events_high", s->ev_high);
		out_usec(o, "stall_usec", s->stall_ns);
		out_u64(o, "sleeping", s->sleeping);
		out_obj_end(o);
	}
	out_list_end(o);
}

#define BAR 36

/* One row per sample: memory.current (#) against the larger of the peak and the high,
 * with the high marked (|); T when a task was asleep throttled at that moment. */
static void draw_rows(FILE *fp, const struct pred *p, bool ascii)
{
	uint64_t h = p->grp.lim.high, top = p->res.peak;
	int hc = -1;

	if (h != CGCTL_MEMCG_UNLIMITED && h > top)
		top = h;
	if (h != CGCTL_MEMCG_UNLIMITED && top)
		hc = (int)(h * BAR / top);
	fprintf(fp, "time        %-*s  current   high ev  stall\n", BAR + 2,
		ascii ? "[# memory.current, | high]" : "[█ memory.current, │ high]");
	for (ssize_t i = 0; i < p->nsamples; i++) {
		const struct cgctl_memhigh_sample *s = &p->samples[i];
		int u = top ? (int)(s->current * BAR / top) : 0;

		fprintf(fp, "%9.3fs  |", s->t_ns / 1e9);
		for (int k = 0; k < BAR; k++)
			fputs(k == hc ? (ascii ? "|" : "│")
			      : k < u ? (ascii ? "#" : "█")
				      : " ",
			      fp);
		fprintf(fp, "| %7.1fM %8" PRIu64 " %6.2fs%s\n",
			s->current * PG / 1048576.0, s->ev_high, s->stall_ns / 1e9,
			s->sleeping ? " T" : "");
	}
}

static int predict(struct cli *cli, int argc, const char **argv)
{
	struct pred p = { .cfg.size = sizeof(p.cfg) };
	int rc;

	rc = cli_kv(cli, NULL, 0);
	if (!rc)
		rc = parse_settings(cli, argc, argv, &p);
	if (!rc)
		rc = parse_workload(cli, &p);
	if (!rc)
		rc = parse_world(cli, &p);
	if (!rc)
		rc = run(cli, &p);
	if (rc)
		goto out;
	emit(cli, &p);
	if (opt_timeline && cli->fmt == OUT_JSON)
		emit_timeline_json(cli, &p);
	if (opt_timeline && cli->fmt == OUT_HUMAN) {
		if (out_render(cli->out, stdout) < 0) {
			rc = cli_error(cli, NULL, -EIO, "cannot write to stdout");
			goto out;
		}
		fputc('\n', stdout);
		draw_rows(stdout, &p, opt_ascii || !isatty(STDOUT_FILENO));
	}
out:
	free(p.samples);
	return rc;
}

const struct cgctl_cmd cmd_mem_predict = {
    .name = "predict",
    .args = "[PATH]",
    .summary = "model a workload under memory.high/max: current, events, stall, OOM",
    .options = options,
    .run = predict,
    .min_args = 0,
    .max_args = 1,
};
