// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * nltool: drive the netlink part of libcgctl from the kernel-tier tests.
 *
 *   nltool move MODE CTRL:PATH[,CTRL:PATH...] PID...
 *	MODE: tree (cgctl_move_tree), walk (same without the connector), oneshot (one walk,
 *	like a tool given a PID list), tids (one walk, each TID written to v1 "tasks", like
 *	cgclassify on v1), freeze (tree with CGCTL_MOVE_TREE_FREEZE).  Prints the result
 *	as key=value.
 *   nltool taskstats PID|-t TGID     key=value of cgctl_taskstats_get()
 *   nltool cgroupstats CTRL:PATH      key=value of cgctl_cgroupstats_get()
 *   nltool spin-check SPINNER MS      run SPINNER -s MS; its rusage against its taskstats
 *   nltool events N                   print the next N proc connector events
 *   nltool delayacct                  1/0 and the explanation
 *   nltool raw-taskstats PID          hex of the kernel's reply (canned test data)
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "libcgctl.h"
#include "kernel/netlink-msg.h"
#include "kernel/proctree.h"

#define MAX_TARGETS 8

static struct cgctl_ctx *ctx;

static int die(const char *what, int r, const struct cgctl_error *e)
{
	fprintf(stderr, "nltool: %s: %s\n", what, e && e->msg[0] ? e->msg : strerror(-r));
	return 1;
}

/* "cpu:/a/b,memory:/x" -> targets */
static int parse_targets(char *spec, struct cgctl_move_target *t, size_t *n)
{
	char *save = NULL, *tok;
	int r;

	*n = 0;
	for (tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');

		if (!colon || *n == MAX_TARGETS)
			return -EINVAL;
		*colon = '\0';
		r = cgctl_mount_find(ctx, tok, &t[*n].m);
		if (r < 0)
			return r;
		t[*n].path = colon + 1;
		(*n)++;
	}
	return *n ? 0 : -EINVAL;
}

static ssize_t read_tids(const char *path, pid_t **ret)
{
	size_t n = 0, cap = 64;
	pid_t *v = malloc(cap * sizeof(*v));
	struct dirent *de;
	DIR *d = opendir(path);

	while (d && v && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (n == cap)
			v = realloc(v, (cap *= 2) * sizeof(*v));
		if (v)
			v[n++] = atoi(de->d_name);
	}
	if (d)
		closedir(d);
	*ret = v;
	return v ? (ssize_t)n : 0;
}

/* v1 "tasks", one TID at a time, over one walk of the tree (what cgclassify does). */
static int move_tids(struct cgctl_move_target *t, size_t nt, pid_t root, size_t *moved,
		     size_t *failed)
{
	struct cgctl_proc_snap snap = { 0 };
	pid_t *todo;
	size_t have = 1, i, j, first, k;
	int r = 0;

	if (cgctl_proc_snap_take(ctx, &snap) < 0)
		return -EIO;
	todo = calloc(snap.n + 1, sizeof(*todo));
	todo[0] = root;
	for (i = 0; i < have; i++) {	/* breadth first over the snapshot */
		k = cgctl_proc_snap_children(&snap, todo[i], &first);
		for (j = first; j < first + k; j++)
			todo[have++] = snap.v[j].pid;
	}
	for (i = 0; i < have; i++) {
		char path[64];
		pid_t *tids;
		ssize_t nt_ = 0;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)todo[i]);
		nt_ = read_tids(path, &tids);	/* the TID list, read once, as a tool would */
		for (k = 0; k < (size_t)nt_; k++) {
			char v[16];

			snprintf(v, sizeof(v), "%d", (int)tids[k]);
			for (j = 0; j < nt; j++) {
				r = cgctl_cg_write(ctx, t[j].m, t[j].path, "tasks", v);
				if (r < 0)
					break;
			}
			if (r < 0)
				(*failed)++;
			else
				(*moved)++;
		}
		free(tids);
	}
	free(todo);
	cgctl_proc_snap_free(&snap);
	return 0;
}

static int cmd_move(int argc, char **argv)
{
	struct cgctl_move_target t[MAX_TARGETS];
	struct cgctl_move_tree_opts o = { .size = sizeof(o) };
	struct cgctl_move_tree_result res;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	pid_t roots[64];
	size_t nt, nr = 0;
	ssize_t r;
	int i;

	if (argc < 3)
		return 2;
	r = parse_targets(argv[1], t, &nt);
	if (r < 0)
		return die("targets", r, NULL);
	for (i = 2; i < argc && nr < 64; i++)
		roots[nr++] = atoi(argv[i]);
	if (!strcmp(argv[0], "tids")) {
		size_t moved = 0, failed = 0;

		r = move_tids(t, nt, roots[0], &moved, &failed);
		printf("tids_moved=%zu tids_failed=%zu\n", moved, failed);
		return r < 0;
	}
	if (!strcmp(argv[0], "walk"))
		o.flags = CGCTL_MOVE_TREE_NO_CONNECTOR;
	else if (!strcmp(argv[0], "oneshot"))
		o.flags = CGCTL_MOVE_TREE_ONE_SHOT;
	else if (!strcmp(argv[0], "freeze"))
		o.flags = CGCTL_MOVE_TREE_FREEZE;
	else if (strcmp(argv[0], "tree"))
		return 2;
	r = cgctl_move_tree_v(ctx, roots, nr, t, nt, &o, &res, &e);
	printf("ret=%zd moved=%zu already=%zu vanished=%zu failed=%zu passes=%zu forks=%zu "
	       "connector=%d overrun=%d elapsed_us=%" PRIu64 "\n", r, res.moved, res.already,
	       res.vanished, res.failed, res.passes, res.fork_events, res.used_connector,
	       res.overrun, res.elapsed_ns / 1000);
	printf("deaf=%d rewalk_moved=%zu stopped=%zu verified=%zu repaired=%zu splits=%zu "
	       "stragglers=%zu\n", res.connector_deaf, res.rewalk_moved, res.stopped,
	       res.verified, res.repaired, res.splits, res.n_stragglers);
	if (res.note[0])
		fprintf(stderr, "nltool: note: %s\n", res.note);
	return r < 0 ? die("move", r, &e) : 0;
}

static void print_ts(const struct cgctl_taskstats *ts)
{
	printf("version=%u pid=%u comm=%s cpu_count=%" PRIu64 " cpu_run_real_total_ns=%" PRIu64
	       " cpu_run_virtual_total_ns=%" PRIu64 " cpu_delay_total_ns=%" PRIu64
	       " blkio_delay_total_ns=%" PRIu64 " utime_ns=%" PRIu64 " stime_ns=%" PRIu64
	       " nvcsw=%" PRIu64 " nivcsw=%" PRIu64 "\n", ts->version, ts->ac_pid, ts->comm,
	       ts->cpu_count, ts->cpu_run_real_total_ns, ts->cpu_run_virtual_total_ns,
	       ts->cpu_delay_total_ns, ts->blkio_delay_total_ns, ts->utime_ns, ts->stime_ns,
	       ts->nvcsw, ts->nivcsw);
}

static int cmd_taskstats(int argc, char **argv)
{
	struct cgctl_taskstats ts = CGCTL_TASKSTATS_INIT;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	bool tgid = argc > 1 && !strcmp(argv[0], "-t");
	int r;

	if (argc < 1)
		return 2;
	r = cgctl_taskstats_get(ctx, atoi(argv[tgid ? 1 : 0]), tgid, &ts, &e);
	if (r < 0)
		return die("taskstats", r, &e);
	print_ts(&ts);
	return 0;
}

static int cmd_cgroupstats(int argc, char **argv)
{
	struct cgctl_move_target t[MAX_TARGETS];
	struct cgctl_cgroupstats cs;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	size_t nt;
	int r;

	if (argc < 1)
		return 2;
	r = parse_targets(argv[0], t, &nt);
	if (r < 0)
		return die("cgroup", r, NULL);
	r = cgctl_cgroupstats_get(ctx, t[0].m, t[0].path, &cs, &e);
	if (r < 0)
		return die("cgroupstats", r, &e);
	printf("nr_sleeping=%" PRIu64 " nr_running=%" PRIu64 " nr_stopped=%" PRIu64
	       " nr_uninterruptible=%" PRIu64 " nr_io_wait=%" PRIu64 "\n", cs.nr_sleeping,
	       cs.nr_running, cs.nr_stopped, cs.nr_uninterruptible, cs.nr_io_wait);
	return 0;
}

/* taskstats' CPU time against the spinner's own rusage, taken just before it stopped */
static int cmd_spin_check(int argc, char **argv)
{
	struct cgctl_taskstats ts = CGCTL_TASKSTATS_INIT;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	long long ru = 0;
	double ru_ns, diff;
	int st, r, fds[2];
	FILE *f;
	pid_t pid;

	if (argc < 2 || pipe(fds) < 0)
		return 2;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		execl(argv[0], argv[0], "-s", argv[1], (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f || fscanf(f, "rusage_ns=%lld", &ru) != 1)
		return die("spinner", -EIO, NULL);
	if (waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
		return die("spinner", -ECHILD, NULL);
	r = cgctl_taskstats_get(ctx, pid, true, &ts, &e);
	kill(pid, SIGCONT);
	waitpid(pid, &st, 0);
	fclose(f);
	if (r < 0)
		return die("taskstats", r, &e);
	/* cpu_run_virtual_total is sum_exec_runtime, which rusage's utime+stime add up to
	 * (cputime_adjust()); cpu_run_real_total is the tick-sampled sum, shown for info */
	ru_ns = (double)ru;
	diff = ((double)ts.cpu_run_virtual_total_ns - ru_ns) / ru_ns;
	printf("virtual_ns=%" PRIu64 " real_ns=%" PRIu64 " rusage_ns=%.0f diff=%.4f%% "
	       "real_diff=%.2f%%\n", ts.cpu_run_virtual_total_ns, ts.cpu_run_real_total_ns,
	       ru_ns, diff * 100, ((double)ts.cpu_run_real_total_ns - ru_ns) / ru_ns * 100);
	return diff > 0.01 || diff < -0.01;
}

static int cmd_events(int argc, char **argv)
{
	struct cgctl_procev_sock *s;
	struct cgctl_procev ev[16];
	struct cgctl_error e = CGCTL_ERROR_INIT;
	long want = argc ? atol(argv[0]) : 10, got = 0;
	ssize_t n, i;
	int r;

	r = cgctl_procev_open(ctx, &s, &e);
	if (r < 0)
		return die("proc connector", r, &e);
	while (got < want) {
		n = cgctl_procev_read(s, ev, 16, 5000);
		if (n <= 0) {
			fprintf(stderr, "nltool: events: %s\n", n ? strerror(-n) : "timeout");
			break;
		}
		for (i = 0; i < n && got < want; i++, got++)
			printf("what=%d pid=%d tgid=%d ppid=%d ptgid=%d code=%u\n", ev[i].what,
			       ev[i].pid, ev[i].tgid, ev[i].parent_pid, ev[i].parent_tgid,
			       ev[i].exit_code);
		fflush(stdout);
	}
	cgctl_procev_close(s);
	return got < want;
}

static int cmd_delayacct(void)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int r = cgctl_delayacct_enabled(ctx, &e);

	printf("%d %s\n", r, e.msg);
	return r < 0;
}

/* The raw reply of TASKSTATS_CMD_GET for a PID, as C bytes, for canned tests. */
static int cmd_raw_taskstats(int argc, char **argv)
{
	uint32_t buf[CGCTL_NL_BUFSZ / 4], req[64];
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
	uint16_t fam;
	ssize_t n, len, i;

	if (argc < 1 || !nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		return 1;
	len = cgctl_nl_build_getfamily(req, sizeof(req), 1, "TASKSTATS");
	mnl_socket_sendto(nl, req, len);
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0 || cgctl_nl_parse_family(buf, n, 1, 0, &fam) < 0)
		return 1;
	len = cgctl_nl_build_taskstats(req, sizeof(req), fam, 2, atoi(argv[0]), false);
	mnl_socket_sendto(nl, req, len);
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	printf("/* family %u, %zd bytes */\n", fam, n);
	for (i = 0; i < n; i++)
		printf("0x%02x,%s", ((uint8_t *)buf)[i], i % 12 == 11 ? "\n" : " ");
	printf("\n");
	mnl_socket_close(nl);
	return 0;
}

int main(int argc, char **argv)
{
	int r;

	if (argc < 2) {
		fprintf(stderr, "usage: nltool move|taskstats|cgroupstats|spin-check|events|"
				"delayacct|raw-taskstats ...\n");
		return 2;
	}
	r = cgctl_new(&ctx, NULL);
	if (r < 0)
		return die("context", r, NULL);
	if (!strcmp(argv[1], "move"))
		r = cmd_move(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "taskstats"))
		r = cmd_taskstats(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "cgroupstats"))
		r = cmd_cgroupstats(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "spin-check"))
		r = cmd_spin_check(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "events"))
		r = cmd_events(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "delayacct"))
		r = cmd_delayacct();
	else if (!strcmp(argv[1], "raw-taskstats"))
		r = cmd_raw_taskstats(argc - 2, argv + 2);
	else
		r = 2;
	cgctl_unref(ctx);
	return r;
}
