// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink socket I/O: the proc connector (fork/exec/exit events) and generic netlink
 * taskstats/cgroupstats requests.  Messages are built and parsed by netlink-msg.c; this
 * file only opens sockets, sends, waits and receives.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "ctx.h"
#include "internal.h"
#include "kernel/netlink-msg.h"
#include "kernel/proctree.h"

#define ACK_TIMEOUT_MS 1000
#define GENL_TIMEOUT_MS 2000
/* Room for bursts: a fork storm of 1000/s makes ~2000 events/s at ~100 bytes (plus skb
 * overhead); root may exceed net.core.rmem_max with SO_RCVBUFFORCE. */
#define PROCEV_RCVBUF (8 << 20)

struct cgctl_procev_sock {
	struct mnl_socket *nl;
	uint32_t seq;
	bool overrun;			/* an ENOBUFS to report on the next read */
	struct cgctl_procev *early;	/* events that came before the listen ack */
	size_t n_early, cap_early;
};

/* Wait until @fd is readable.  Returns: 1 readable, 0 timed out, -errno. */
static int wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r > 0;
}

/* One datagram, without waiting.  Returns: its length, 0 if none, -errno. */
static ssize_t recv_one(struct mnl_socket *nl, void *buf, size_t len)
{
	ssize_t n;

	do
		n = recv(mnl_socket_get_fd(nl), buf, len, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	return n;
}

static int early_push(struct cgctl_procev_sock *s, const struct cgctl_procev *ev)
{
	if (s->n_early == s->cap_early) {
		size_t cap = s->cap_early ? 2 * s->cap_early : 64;
		struct cgctl_procev *p = reallocarray(s->early, cap, sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->early = p, s->cap_early = cap;
	}
	s->early[s->n_early++] = *ev;
	return 0;
}

/* Wait for the kernel's answer to our listen request; keep the events before it.
 * Returns: 0 subscribed, -errno of the ack, -ETIMEDOUT, -errno. */
static int procev_wait_ack(struct cgctl_procev_sock *s)
{
	uint32_t buf[CGCTL_NL_BUFSZ / 4];
	struct cgctl_procev ev;
	size_t n;
	ssize_t len;
	int r;

	for (;;) {
		r = wait_readable(mnl_socket_get_fd(s->nl), ACK_TIMEOUT_MS);
		if (r <= 0)
			return r == 0 ? -ETIMEDOUT : r;
		len = recv_one(s->nl, buf, sizeof(buf));
		if (len == -ENOBUFS) {
			s->overrun = true;
			continue;
		}
		if (len <= 0)
			continue;
		if (cgctl_nl_parse_proc(buf, len, &ev, 1, &n) < 0 || n == 0)
			continue;
		if (ev.what == CGCTL_PROCEV_ACK)
			return ev.exit_code ? -(int)ev.exit_code : 0;
		r = early_push(s, &ev);
		if (r < 0)
			return r;
	}
}

static int procev_subscribe(struct cgctl_procev_sock *s, bool listen, bool filter)
{
	uint32_t buf[64];
	ssize_t len;

	len = cgctl_nl_build_proc_mcast(buf, sizeof(buf), mnl_socket_get_portid(s->nl),
					++s->seq, listen, filter);
	if (len < 0)
		return len;
	if (mnl_socket_sendto(s->nl, buf, len) < 0)
		return -errno;
	return 0;
}

static int procev_setup(struct cgctl_procev_sock *s, struct cgctl_error *e)
{
	int fd = mnl_socket_get_fd(s->nl), sz = PROCEV_RCVBUF, r;
	/* 6.6+ filters per socket: fork and exit only, half the traffic of a storm */
	bool filter = cgctl_kver_running() >= CGCTL_KVER(6, 6, 0);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (mnl_socket_bind(s->nl, CN_IDX_PROC, MNL_SOCKET_AUTOPID) < 0)
		return cgctl_error_set(e, errno, "proc connector: bind: %s%s", strerror(errno),
				       errno == EPERM ? " (needs CAP_NET_ADMIN)" : "");
	r = procev_subscribe(s, true, filter);
	if (r < 0)
		return cgctl_error_set(e, -r, "proc connector: listen: %s", strerror(-r));
	/* The kernel handles the request inside our sendto() (connector.c:cn_rx_skb() calls
	 * cn_proc_mcast_ctl() directly), so we listen once it returns.  Its ack passes
	 * through the same per-socket filter (cn_proc.c:cn_filter()), which drops what ==
	 * PROC_EVENT_NONE unless all events are wanted: wait for it only then. */
	r = filter ? 0 : procev_wait_ack(s);
	if (r < 0)
		return cgctl_error_set(e, -r, "proc connector: listen refused: %s%s",
				       strerror(-r), r == -EPERM ? " (needs CAP_NET_ADMIN)" : "");
	return 0;
}

int cgctl_procev_open(struct cgctl_ctx *ctx, struct cgctl_procev_sock **ret,
		      struct cgctl_error *e)
{
	struct cgctl_procev_sock *s;
	int r;

	if (!ret)
		return cgctl_error_set(e, EINVAL, "proc connector: no socket pointer");
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->nl = mnl_socket_open2(NETLINK_CONNECTOR, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!s->nl) {
		r = -errno;
		free(s);
		return cgctl_error_set(e, -r, "proc connector: socket: %s%s", strerror(-r),
				       r == -EPROTONOSUPPORT ? " (kernel without CONFIG_CONNECTOR)"
							     : "");
	}
	r = procev_setup(s, e);
	if (r < 0) {
		mnl_socket_close(s->nl);
		free(s);
		return r;
	}
	dbg(ctx, "proc connector: listening, portid %u\n", mnl_socket_get_portid(s->nl));
	*ret = s;
	return 0;
}

int cgctl_procev_fd(const struct cgctl_procev_sock *s)
{
	return s ? mnl_socket_get_fd(s->nl) : -EINVAL;
}

static size_t early_pop(struct cgctl_procev_sock *s, struct cgctl_procev *ev, size_t max)
{
	size_t n = MIN(max, s->n_early);

	memcpy(ev, s->early, n * sizeof(*ev));
	memmove(s->early, s->early + n, (s->n_early - n) * sizeof(*ev));
	s->n_early -= n;
	return n;
}

/* Receive what is queued into @ev.  Returns: count, -ENOBUFS, -errno. */
static ssize_t procev_drain(struct cgctl_procev_sock *s, struct cgctl_procev *ev, size_t max)
{
	uint32_t buf[CGCTL_NL_BUFSZ / 4];
	size_t n = 0, got;
	ssize_t len;

	while (n < max) {
		len = recv_one(s->nl, buf, sizeof(buf));
		if (len == -ENOBUFS) {
			if (n == 0)
				return -ENOBUFS;
			s->overrun = true;
			break;
		}
		if (len < 0)
			return n ? (ssize_t)n : len;
		if (len == 0)
			break;
		/* a malformed datagram is dropped; the re-walk covers what it hid */
		if (cgctl_nl_parse_proc(buf, len, ev + n, max - n, &got) < 0)
			continue;
		/* late acks (our IGNORE, other listeners' requests) are not events */
		if (got == 1 && ev[n].what == CGCTL_PROCEV_ACK)
			continue;
		n += got;
	}
	return n;
}

ssize_t cgctl_procev_read(struct cgctl_procev_sock *s, struct cgctl_procev *ev,
			  size_t max, int timeout_ms)
{
	ssize_t n;
	int r;

	if (!s || (!ev && max))
		return -EINVAL;
	if (s->overrun) {
		s->overrun = false;
		return -ENOBUFS;
	}
	if (max == 0)
		return 0;
	if (s->n_early)
		return early_pop(s, ev, max);
	n = procev_drain(s, ev, max);
	if (n != 0 || timeout_ms == 0)
		return n;
	r = wait_readable(mnl_socket_get_fd(s->nl), timeout_ms);
	if (r <= 0)
		return r;
	return procev_drain(s, ev, max);
}

void cgctl_procev_close(struct cgctl_procev_sock *s)
{
	if (!s)
		return;
	/* tell the kernel, so proc_event_num_listeners drops and forks stop paying */
	(void)procev_subscribe(s, false, false);
	mnl_socket_close(s->nl);
	free(s->early);
	free(s);
}

/* ---- generic netlink ---- */

typedef int (*genl_parse_fn)(const void *buf, size_t len, uint32_t seq, uint32_t portid,
			     void *out);

/* Send @len bytes of @req and parse the reply with @parse.  Returns: its result. */
static int genl_transact(struct mnl_socket *nl, void *req, size_t len, genl_parse_fn parse,
			 void *out)
{
	uint32_t buf[CGCTL_NL_BUFSZ / 4];
	uint32_t seq = ((struct nlmsghdr *)req)->nlmsg_seq;
	ssize_t n;
	int r;

	if (mnl_socket_sendto(nl, req, len) < 0)
		return -errno;
	r = wait_readable(mnl_socket_get_fd(nl), GENL_TIMEOUT_MS);
	if (r <= 0)
		return r == 0 ? -ETIMEDOUT : r;
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	return parse(buf, n, seq, mnl_socket_get_portid(nl), out);
}

static int parse_family(const void *buf, size_t len, uint32_t seq, uint32_t portid,
			void *out)
{
	return cgctl_nl_parse_family(buf, len, seq, portid, out);
}

/* A bound generic netlink socket and the id of family @name.  Returns: 0, -errno. */
static int genl_open(const char *name, struct mnl_socket **ret, uint16_t *family,
		     struct cgctl_error *e)
{
	uint32_t req[64];
	struct mnl_socket *nl;
	ssize_t len;
	int r;

	nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl)
		return cgctl_error_set(e, errno, "generic netlink: socket: %s", strerror(errno));
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = cgctl_error_set(e, errno, "generic netlink: bind: %s", strerror(errno));
		goto fail;
	}
	len = cgctl_nl_build_getfamily(req, sizeof(req), 1, name);
	r = len < 0 ? (int)len : genl_transact(nl, req, len, parse_family, family);
	if (r == -ENOENT) {
		r = cgctl_error_set(e, EPROTONOSUPPORT,
				    "generic netlink: no %s family (kernel without CONFIG_TASKSTATS)",
				    name);
		goto fail;
	}
	if (r < 0) {
		cgctl_error_set(e, -r, "generic netlink: resolving %s: %s", name, strerror(-r));
		goto fail;
	}
	*ret = nl;
	return 0;
fail:
	mnl_socket_close(nl);
	return r;
}

struct ts_out {
	uint32_t id;
	struct cgctl_taskstats *ts;
};

static int parse_ts(const void *buf, size_t len, uint32_t seq, uint32_t portid, void *out)
{
	struct ts_out *o = out;

	return cgctl_nl_parse_taskstats(buf, len, seq, portid, &o->id, o->ts);
}

/* A thread group's comm and faults from /proc/@pid/stat: the kernel's reply for a tgid
 * (kernel/taskstats.c:fill_stats_for_tgid(), v6.1) sums only delays, CPU times and
 * context switches, where the whole-group /proc/PID/stat (fs/proc/array.c:do_task_stat()
 * with whole=1) sums every thread's faults.  A process whose stat cannot be read keeps
 * the reply's comm and faults. */
void cgctl_taskstats_proc(struct cgctl_ctx *ctx, pid_t pid, struct cgctl_taskstats *ts)
{
	struct cgctl_proc_stat st;

	if (cgctl_proc_stat_read(ctx, pid, &st) < 0)
		return;
	snprintf(ts->comm, sizeof(ts->comm), "%s", st.comm);
	ts->minflt = st.minflt;
	ts->majflt = st.majflt;
}

CGCTL_EXPORT int cgctl_taskstats_get(struct cgctl_ctx *ctx, pid_t id, bool tgid,
				     struct cgctl_taskstats *ret, struct cgctl_error *e)
{
	struct cgctl_taskstats ts;
	struct mnl_socket *nl;
	struct ts_out o = { .ts = &ts };
	uint32_t req[64];
	uint16_t family;
	ssize_t len;
	int r;

	if (id <= 0)
		return cgctl_error_set(e, EINVAL, "taskstats: invalid %s %d", tgid ? "PID" : "TID",
				       (int)id);
	if (!ret || ret->size < sizeof(*ret))
		return cgctl_error_set(e, EINVAL, "taskstats: struct cgctl_taskstats of %zu bytes, "
				       "%zu needed (CGCTL_TASKSTATS_INIT)", ret ? ret->size : 0,
				       sizeof(*ret));
	r = genl_open(TASKSTATS_GENL_NAME, &nl, &family, e);
	if (r < 0)
		return r;
	len = cgctl_nl_build_taskstats(req, sizeof(req), family, 2, id, tgid);
	r = len < 0 ? (int)len : genl_transact(nl, req, len, parse_ts, &o);
	mnl_socket_close(nl);
	if (r == 0 && o.id != (uint32_t)id)
		r = -EBADMSG;
	if (r < 0)
		return cgctl_error_set(e, -r, "taskstats: %d: %s", (int)id,
				       r == -ESRCH ? "no such process" : strerror(-r));
	if (tgid)
		cgctl_taskstats_proc(ctx, id, &ts);
	ts.size = sizeof(ts);
	memcpy(ret, &ts, sizeof(ts));
	dbg(ctx, "taskstats %d: v%u run %llu ns\n", (int)id, ret->version,
	    (unsigned long long)ret->cpu_run_real_total_ns);
	return 0;
}

CGCTL_EXPORT int cgctl_delayacct_enabled(struct cgctl_ctx *ctx, struct cgctl_error *e)
{
	_cleanup_(freep) char *buf = NULL;
	size_t len;
	int r;

	r = cgctl_read_sys(ctx, "/proc/sys/kernel/task_delayacct", &buf, &len);
	if (r < 0)
		return cgctl_error_set(e, -r,
				       "kernel.task_delayacct: %s (delay accounting needs "
				       "CONFIG_TASK_DELAY_ACCT and 5.14+ to switch at run time)",
				       strerror(-r));
	if (len == 0 || (buf[0] != '0' && buf[0] != '1'))
		return cgctl_error_set(e, EINVAL, "kernel.task_delayacct: unexpected \"%.16s\"",
				       buf);
	if (buf[0] == '1')
		return 1;
	cgctl_error_set(e, 0,
			"delay accounting is off: delays other than cpu_delay read 0; "
			"turn it on with `sysctl kernel.task_delayacct=1` (or boot with "
			"delayacct)");
	return 0;
}

static int parse_cs(const void *buf, size_t len, uint32_t seq, uint32_t portid, void *out)
{
	return cgctl_nl_parse_cgroupstats(buf, len, seq, portid, out);
}

/* A readable fd of the cgroup directory: the kernel's fdget() ignores O_PATH fds and then
 * answers nothing at all. */
void cgctl_ctx_release_netlink(struct cgctl_ctx *ctx)
{
	if (ctx->ts_nl)
		mnl_socket_close(ctx->ts_nl);
	ctx->ts_nl = NULL;
}

/*
 * One cgroupstats query on the context's taskstats socket (opened at the first query:
 * socket, bind and the family lookup cost 12 of the 15 syscalls of a query).  Queries
 * from several threads take turns.  A socket that failed for any other reason than the
 * cgroup itself is closed, so a late reply can never answer the next query.
 */
static int cs_query(struct cgctl_ctx *ctx, int fd, const char *path,
		    struct cgctl_cgroupstats *ret, struct cgctl_error *e)
{
	uint32_t req[64];
	ssize_t len;
	int r = 0;

	pthread_mutex_lock(&ctx->nl_lock);
	if (!ctx->ts_nl)
		r = genl_open(TASKSTATS_GENL_NAME, &ctx->ts_nl, &ctx->ts_family, e);
	if (r < 0) {	/* explained by genl_open() */
		ctx->ts_nl = NULL;
		goto out;
	}
	/* 1 went to the family lookup */
	if (++ctx->ts_seq < 2)
		ctx->ts_seq = 2;
	len = cgctl_nl_build_cgroupstats(req, sizeof(req), ctx->ts_family, ctx->ts_seq, fd);
	r = len < 0 ? (int)len : genl_transact(ctx->ts_nl, req, len, parse_cs, ret);
	if (r < 0 && r != -EINVAL && r != -EBADF && r != -ENOENT)
		cgctl_ctx_release_netlink(ctx);
	if (r < 0)
		cgctl_error_set(e, -r, "cgroupstats: %s: %s", path, strerror(-r));
out:
	pthread_mutex_unlock(&ctx->nl_lock);
	return r;
}

int cgctl_cgroupstats_get(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			  const char *path, struct cgctl_cgroupstats *ret,
			  struct cgctl_error *e)
{
	int fd, r;

	if (!ctx || !m || !path || !ret)
		return cgctl_error_set(e, EINVAL, "cgroupstats: a NULL argument");
	if (m->version != 1)
		return cgctl_error_set(e, EINVAL, "cgroupstats: %s: only v1 hierarchies have "
				       "them (the kernel refuses cgroup2 directories)", path);
	/* a readable directory fd: what CGROUPSTATS_CMD_ATTR_FD needs */
	fd = cgctl_cg_open(ctx, m, path);
	if (fd < 0)
		return cgctl_error_set(e, -fd, "cgroupstats: %s: %s", path, strerror(-fd));
	r = cs_query(ctx, fd, path, ret, e);
	close(fd);
	return r;
}
