// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink message build/parse without I/O (see netlink-msg.h).  Layouts follow the
 * kernel's uapi headers: include/uapi/linux/{connector,cn_proc,taskstats,cgroupstats,
 * genetlink}.h; the senders we decode are drivers/connector/cn_proc.c
 * (proc_fork_connector() ...), kernel/taskstats.c:taskstats_user_cmd() and
 * cgroupstats_user_cmd(), net/netlink/genetlink.c:ctrl_getfamily().
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/cgroupstats.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "internal.h"
#include "kernel/netlink-msg.h"

/* 6.6+ listen request with an event filter (include/uapi/linux/cn_proc.h:proc_input);
 * defined here because build hosts may carry older headers. */
struct cgctl_proc_input {
	uint32_t mcast_op;
	uint32_t event_type;
};

/* Offset of the event union in struct proc_event: what, cpu, timestamp_ns. */
#define PROC_EV_HDR offsetof(struct proc_event, event_data)

/*
 * Every message header of @buf claims no more than what is left.  libmnl 1.0.4's
 * mnl_nlmsg_ok() compares (int)nlmsg_len <= len, so a length >= 2^31 passes and the next
 * header is read from far outside the buffer (found by tests/fuzz/fuzz-netlink); check
 * the chain unsigned before libmnl walks it.  Trailing bytes shorter than a header are
 * allowed (padding).
 */
static bool chain_ok(const void *buf, size_t len)
{
	size_t off = 0;
	uint32_t l;

	while (len - off >= sizeof(struct nlmsghdr)) {
		memcpy(&l, (const uint8_t *)buf + off, sizeof(l));
		if (l < sizeof(struct nlmsghdr) || l > len - off)
			return false;
		if (NLMSG_ALIGN((size_t)l) >= len - off)
			break;
		off += NLMSG_ALIGN((size_t)l);
	}
	return true;
}

/* Is there room for a message of @payload bytes?  If so, zero it: libmnl leaves the
 * padding after an attribute (and any byte it does not set) as it found it, and a
 * request must not send uninitialised bytes to the kernel (valgrind: "Syscall param
 * sendto(msg) points to uninitialised byte(s)"). */
static bool room(void *buf, size_t len, size_t payload)
{
	if (len < mnl_nlmsg_size(payload) || len > UINT32_MAX)
		return false;
	memset(buf, 0, mnl_nlmsg_size(payload));
	return true;
}

ssize_t cgctl_nl_build_proc_mcast(void *buf, size_t len, uint32_t portid, uint32_t seq,
				  bool listen, bool fork_exit_only)
{
	struct cgctl_proc_input in = {
		.mcast_op = listen ? PROC_CN_MCAST_LISTEN : PROC_CN_MCAST_IGNORE,
		.event_type = PROC_EVENT_FORK | PROC_EVENT_EXIT,
	};
	size_t dlen = fork_exit_only ? sizeof(in) : sizeof(in.mcast_op);
	struct nlmsghdr *nlh;
	struct cn_msg *cn;

	if (!room(buf, len, MNL_ALIGN(sizeof(*cn)) + MNL_ALIGN(dlen)))
		return -ENOBUFS;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_DONE;	/* what cn_netlink_send() uses too */
	nlh->nlmsg_pid = portid;
	nlh->nlmsg_seq = seq;
	cn = mnl_nlmsg_put_extra_header(nlh, sizeof(*cn));
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->seq = seq;
	cn->len = dlen;
	memcpy(mnl_nlmsg_put_extra_header(nlh, dlen), &in, dlen);
	return nlh->nlmsg_len;
}

/* Decode one proc_event of @len bytes.  Returns: 1 stored, 0 skipped, -EBADMSG. */
static int proc_event_decode(const uint8_t *p, size_t len, struct cgctl_procev *ev)
{
	uint32_t what;
	uint64_t ts;
	int32_t f[6] = { 0 };
	size_t need, flen;

	if (len < PROC_EV_HDR)
		return -EBADMSG;
	memcpy(&what, p, sizeof(what));
	memcpy(&ts, p + offsetof(struct proc_event, timestamp_ns), sizeof(ts));
	flen = MIN(len - PROC_EV_HDR, sizeof(f));
	memcpy(f, p + PROC_EV_HDR, flen);
	memset(ev, 0, sizeof(*ev));
	ev->timestamp_ns = ts;
	switch (what) {
	case PROC_EVENT_NONE:	/* cn_proc_ack(): the answer to our listen request */
		need = sizeof(uint32_t);
		ev->what = CGCTL_PROCEV_ACK;
		ev->exit_code = f[0];
		break;
	case PROC_EVENT_FORK:	/* parent_pid, parent_tgid, child_pid, child_tgid */
		need = sizeof(struct fork_proc_event);
		ev->what = CGCTL_PROCEV_FORK;
		ev->parent_pid = f[0], ev->parent_tgid = f[1];
		ev->pid = f[2], ev->tgid = f[3];
		break;
	case PROC_EVENT_EXEC:	/* process_pid, process_tgid */
		need = sizeof(struct exec_proc_event);
		ev->what = CGCTL_PROCEV_EXEC;
		ev->pid = f[0], ev->tgid = f[1];
		break;
	case PROC_EVENT_EXIT:	/* pid, tgid, exit_code, exit_signal[, parent pid, tgid] */
		need = 4 * sizeof(uint32_t);	/* the parent came in 4.18 */
		ev->what = CGCTL_PROCEV_EXIT;
		ev->pid = f[0], ev->tgid = f[1];
		ev->exit_code = f[2], ev->exit_signal = f[3];
		ev->parent_pid = f[4], ev->parent_tgid = f[5];
		break;
	default:
		ev->what = CGCTL_PROCEV_OTHER;
		return 1;
	}
	return len - PROC_EV_HDR < need ? -EBADMSG : 1;
}

/* One netlink message from the connector.  Returns: 1 stored, 0 skipped, -EBADMSG. */
static int proc_msg_decode(const struct nlmsghdr *nlh, struct cgctl_procev *ev)
{
	size_t plen = mnl_nlmsg_get_payload_len(nlh);
	const uint8_t *p = mnl_nlmsg_get_payload(nlh);
	struct cn_msg cn;

	if (nlh->nlmsg_type != NLMSG_DONE)	/* noop, or not the connector's */
		return 0;
	if (plen < sizeof(cn))
		return -EBADMSG;
	memcpy(&cn, p, sizeof(cn));
	if (cn.id.idx != CN_IDX_PROC || cn.id.val != CN_VAL_PROC)
		return 0;
	if (cn.len > plen - sizeof(cn))
		return -EBADMSG;
	return proc_event_decode(p + sizeof(cn), cn.len, ev);
}

ssize_t cgctl_nl_parse_proc(const void *buf, size_t len, struct cgctl_procev *ev,
			    size_t max, size_t *n_stored)
{
	const struct nlmsghdr *nlh = buf;
	int left = len > INT_MAX ? INT_MAX : (int)len;
	struct cgctl_procev tmp;
	int r;

	*n_stored = 0;
	if (left < (int)sizeof(*nlh) || !chain_ok(buf, left))
		return -EBADMSG;
	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		r = proc_msg_decode(nlh, &tmp);
		if (r < 0)
			return r;
		if (r > 0 && *n_stored < max)
			ev[(*n_stored)++] = tmp;
	}
	/* trailing bytes that are not a whole message: truncated datagram */
	if (left > 0 && (size_t)left >= sizeof(*nlh))
		return -EBADMSG;
	return *n_stored;
}

/* ---- generic netlink ---- */

static struct nlmsghdr *genl_put(void *buf, uint16_t type, uint32_t seq, uint8_t cmd,
				 uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

ssize_t cgctl_nl_build_getfamily(void *buf, size_t len, uint32_t seq, const char *name)
{
	struct nlmsghdr *nlh;

	if (strlen(name) >= GENL_NAMSIZ)
		return -EINVAL;
	if (!room(buf, len, GENL_HDRLEN + MNL_ATTR_HDRLEN + MNL_ALIGN(GENL_NAMSIZ)))
		return -ENOBUFS;
	nlh = genl_put(buf, GENL_ID_CTRL, seq, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	return nlh->nlmsg_len;
}

static ssize_t genl_u32_request(void *buf, size_t len, uint16_t family, uint32_t seq,
				uint8_t cmd, uint16_t attr, uint32_t value)
{
	struct nlmsghdr *nlh;

	if (!room(buf, len, GENL_HDRLEN + MNL_ATTR_HDRLEN + sizeof(uint32_t)))
		return -ENOBUFS;
	nlh = genl_put(buf, family, seq, cmd, TASKSTATS_GENL_VERSION);
	mnl_attr_put_u32(nlh, attr, value);
	return nlh->nlmsg_len;
}

ssize_t cgctl_nl_build_taskstats(void *buf, size_t len, uint16_t family, uint32_t seq,
				 uint32_t id, bool tgid)
{
	return genl_u32_request(buf, len, family, seq, TASKSTATS_CMD_GET,
				tgid ? TASKSTATS_CMD_ATTR_TGID : TASKSTATS_CMD_ATTR_PID, id);
}

ssize_t cgctl_nl_build_cgroupstats(void *buf, size_t len, uint16_t family, uint32_t seq,
				   uint32_t fd)
{
	return genl_u32_request(buf, len, family, seq, CGROUPSTATS_CMD_GET,
				CGROUPSTATS_CMD_ATTR_FD, fd);
}

/* State shared by the reply callbacks below. */
struct genl_reply {
	uint8_t cmd;		/* the reply command we expect */
	bool found;		/* a valid reply was decoded */
	bool bad;		/* a malformed message or attribute was seen */
	uint16_t family;
	uint32_t id;
	struct cgctl_taskstats *ts;
	struct cgctl_cgroupstats *cs;
};

/* Run @cb over the messages of @buf; map libmnl's -1/errno to one -errno. */
static int genl_run(const void *buf, size_t len, uint32_t seq, uint32_t portid,
		    mnl_cb_t cb, struct genl_reply *r)
{
	int ret;

	void *pad = NULL;
	int err;

	if (len > INT_MAX || len < sizeof(struct nlmsghdr) || !chain_ok(buf, len))
		return -EBADMSG;
	/* mnl_attr_parse() ends attributes at NLMSG_ALIGN(nlmsg_len): give an unpadded
	 * last message its padding, or it reads up to 3 bytes past @buf (fuzzer find) */
	if (len % NLMSG_ALIGNTO) {
		pad = calloc(1, NLMSG_ALIGN(len));
		if (!pad)
			return -ENOMEM;
		buf = memcpy(pad, buf, len);
	}
	errno = 0;
	ret = mnl_cb_run(buf, len, seq, portid, cb, r);
	err = errno;	/* NLMSG_ERROR's error; keep it across free() */
	free(pad);
	if (r->bad)
		return -EBADMSG;
	if (ret < 0) {
		/* NLMSG_ERROR's error, or EPROTO/ESRCH for a foreign seq/portid */
		if (err <= 0 || err > 4095)
			return -EBADMSG;
		return -err;
	}
	return r->found ? 0 : -EBADMSG;
}

/* True when @nlh is the reply @r waits for; sets r->bad on a short genl header. */
static bool genl_check(const struct nlmsghdr *nlh, struct genl_reply *r)
{
	const struct genlmsghdr *g;

	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN) {
		r->bad = true;
		return false;
	}
	g = mnl_nlmsg_get_payload(nlh);
	return g->cmd == r->cmd;
}

static int family_attr_cb(const struct nlattr *a, void *data)
{
	struct genl_reply *r = data;

	if (mnl_attr_get_type(a) != CTRL_ATTR_FAMILY_ID)
		return MNL_CB_OK;
	if (mnl_attr_validate(a, MNL_TYPE_U16) < 0) {
		r->bad = true;
		return MNL_CB_ERROR;
	}
	r->family = mnl_attr_get_u16(a);
	r->found = true;
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct genl_reply *r = data;

	if (!genl_check(nlh, r))
		return r->bad ? MNL_CB_ERROR : MNL_CB_OK;
	return mnl_attr_parse(nlh, GENL_HDRLEN, family_attr_cb, r);
}

int cgctl_nl_parse_family(const void *buf, size_t len, uint32_t seq, uint32_t portid,
			  uint16_t *family)
{
	struct genl_reply r = { .cmd = CTRL_CMD_NEWFAMILY };
	int ret = genl_run(buf, len, seq, portid, family_cb, &r);

	if (ret == 0 && r.family == 0)	/* GENL_ID_CTRL is 0x10; 0 is never valid */
		return -EBADMSG;
	if (ret == 0)
		*family = r.family;
	return ret;
}

/* The kernel's struct taskstats (any version) into ours; absent fields stay 0. */
static void taskstats_copy(const void *p, size_t len, struct cgctl_taskstats *ts)
{
	struct taskstats k = { 0 };
	uint64_t irq[2] = { 0 };

	memcpy(&k, p, MIN(len, sizeof(k)));
	/* v14 appended irq_count, irq_delay_total after wpcopy_delay_total */
	if (k.version >= 14 && len >= sizeof(k) + sizeof(irq))
		memcpy(irq, (const uint8_t *)p + sizeof(k), sizeof(irq));
	memset(ts, 0, sizeof(*ts));
	ts->version = k.version;
	ts->ac_pid = k.ac_pid;
	memcpy(ts->comm, k.ac_comm, MIN(sizeof(ts->comm), sizeof(k.ac_comm)));
	ts->comm[sizeof(ts->comm) - 1] = '\0';
	ts->cpu_count = k.cpu_count;
	ts->cpu_run_real_total_ns = k.cpu_run_real_total;
	ts->cpu_run_virtual_total_ns = k.cpu_run_virtual_total;
	ts->cpu_delay_total_ns = k.cpu_delay_total;
	ts->blkio_count = k.blkio_count, ts->blkio_delay_total_ns = k.blkio_delay_total;
	ts->swapin_count = k.swapin_count, ts->swapin_delay_total_ns = k.swapin_delay_total;
	ts->freepages_count = k.freepages_count;
	ts->freepages_delay_total_ns = k.freepages_delay_total;
	ts->thrashing_count = k.thrashing_count;
	ts->thrashing_delay_total_ns = k.thrashing_delay_total;
	ts->compact_count = k.compact_count;
	ts->compact_delay_total_ns = k.compact_delay_total;
	ts->wpcopy_count = k.wpcopy_count, ts->wpcopy_delay_total_ns = k.wpcopy_delay_total;
	ts->irq_count = irq[0], ts->irq_delay_total_ns = irq[1];
	ts->utime_ns = k.ac_utime * 1000, ts->stime_ns = k.ac_stime * 1000;	/* µs */
	ts->nvcsw = k.nvcsw, ts->nivcsw = k.nivcsw;
	ts->minflt = k.ac_minflt, ts->majflt = k.ac_majflt;
	ts->read_bytes = k.read_bytes, ts->write_bytes = k.write_bytes;
}

/* Inside TASKSTATS_TYPE_AGGR_*: the PID/TGID and the stats. */
static int aggr_attr_cb(const struct nlattr *a, void *data)
{
	struct genl_reply *r = data;

	switch (mnl_attr_get_type(a)) {
	case TASKSTATS_TYPE_PID:
	case TASKSTATS_TYPE_TGID:
		if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
			goto bad;
		r->id = mnl_attr_get_u32(a);
		return MNL_CB_OK;
	case TASKSTATS_TYPE_STATS:
		/* at least version 1 of the struct: up to cpu_run_virtual_total */
		if (mnl_attr_get_payload_len(a) < offsetof(struct taskstats, ac_comm))
			goto bad;
		taskstats_copy(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a), r->ts);
		r->found = true;
		return MNL_CB_OK;
	}
	return MNL_CB_OK;
bad:
	r->bad = true;
	return MNL_CB_ERROR;
}

static int taskstats_attr_cb(const struct nlattr *a, void *data)
{
	uint16_t type = mnl_attr_get_type(a);
	struct genl_reply *r = data;

	if (type != TASKSTATS_TYPE_AGGR_PID && type != TASKSTATS_TYPE_AGGR_TGID)
		return MNL_CB_OK;	/* TASKSTATS_TYPE_NULL padding, future types */
	if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0) {
		r->bad = true;
		return MNL_CB_ERROR;
	}
	return mnl_attr_parse_nested(a, aggr_attr_cb, r);
}

static int taskstats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct genl_reply *r = data;

	if (!genl_check(nlh, r))
		return r->bad ? MNL_CB_ERROR : MNL_CB_OK;
	return mnl_attr_parse(nlh, GENL_HDRLEN, taskstats_attr_cb, r);
}

int cgctl_nl_parse_taskstats(const void *buf, size_t len, uint32_t seq, uint32_t portid,
			     uint32_t *id, struct cgctl_taskstats *ts)
{
	struct genl_reply r = { .cmd = TASKSTATS_CMD_NEW, .ts = ts };
	int ret = genl_run(buf, len, seq, portid, taskstats_cb, &r);

	if (ret == 0)
		*id = r.id;
	return ret;
}

static int cgroupstats_attr_cb(const struct nlattr *a, void *data)
{
	struct genl_reply *r = data;

	if (mnl_attr_get_type(a) != CGROUPSTATS_TYPE_CGROUP_STATS)
		return MNL_CB_OK;
	if (mnl_attr_get_payload_len(a) < sizeof(struct cgroupstats)) {
		r->bad = true;
		return MNL_CB_ERROR;
	}
	memcpy(r->cs, mnl_attr_get_payload(a), sizeof(struct cgroupstats));
	r->found = true;
	return MNL_CB_OK;
}

static int cgroupstats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct genl_reply *r = data;

	if (!genl_check(nlh, r))
		return r->bad ? MNL_CB_ERROR : MNL_CB_OK;
	return mnl_attr_parse(nlh, GENL_HDRLEN, cgroupstats_attr_cb, r);
}

int cgctl_nl_parse_cgroupstats(const void *buf, size_t len, uint32_t seq, uint32_t portid,
			       struct cgctl_cgroupstats *cs)
{
	struct genl_reply r = { .cmd = CGROUPSTATS_CMD_NEW, .cs = cs };

	_Static_assert(sizeof(struct cgroupstats) == sizeof(*cs), "cgroupstats layout");
	return genl_run(buf, len, seq, portid, cgroupstats_cb, &r);
}
