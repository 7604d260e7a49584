/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Netlink messages of the proc connector, generic netlink's controller, taskstats and
 * cgroupstats: building requests and parsing replies on plain byte buffers, no sockets
 * (lib/kernel/netlink.c does the I/O), so every line here runs in the unit tests and the
 * fuzzer on canned bytes [libmnl: mnl_cb_run() separates parsing from I/O].
 *
 * Parsers take a buffer as received (one datagram, possibly several messages), never
 * read outside it, and return -EBADMSG for truncated or malformed input.  The buffer
 * must be 4-byte aligned (netlink's own alignment); fields wider than that are copied
 * out with memcpy.
 */
#ifndef CGCTL_KERNEL_NETLINK_MSG_H
#define CGCTL_KERNEL_NETLINK_MSG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"

/* Big enough for any request we build and any single reply we expect. */
#define CGCTL_NL_BUFSZ 8192

/* ---- proc connector ---- */
/* The parser reports the kernel's answer to a listen request as an event of this kind
 * with exit_code = the kernel's positive errno (0: subscribed); never seen by callers of
 * cgctl_procev_read(). */
#define CGCTL_PROCEV_ACK ((enum cgctl_procev_what)0x100)
/* Request PROC_CN_MCAST_LISTEN (@listen) or _IGNORE.  @fork_exit_only: send the 6.6+
 * struct proc_input with a filter (fork and exit events only); older kernels ignore a
 * request of that size, so callers pass it only when kver >= 6.6.
 * Returns: the message length, or -ENOBUFS when @len is too small. */
ssize_t cgctl_nl_build_proc_mcast(void *buf, size_t len, uint32_t portid, uint32_t seq,
				  bool listen, bool fork_exit_only);
/* Decode the connector messages in @buf into @ev (at most @max; the kernel sends one
 * event per datagram, so more are dropped).  Messages of other connector ids are
 * skipped.  *@n_stored (never NULL) is the count stored, also
 * when a later message is malformed.  Returns: *@n_stored, or -EBADMSG. */
ssize_t cgctl_nl_parse_proc(const void *buf, size_t len, struct cgctl_procev *ev,
			    size_t max, size_t *n_stored);

/* ---- generic netlink controller ---- */
/* CTRL_CMD_GETFAMILY by name.  Returns: the length, -ENOBUFS, -EINVAL (name too long). */
ssize_t cgctl_nl_build_getfamily(void *buf, size_t len, uint32_t seq, const char *name);
/* The family id from a CTRL_CMD_NEWFAMILY reply.  Returns: 0, -EBADMSG (truncated,
 * malformed, no id), or the -errno of an NLMSG_ERROR reply (-ENOENT: no such family). */
int cgctl_nl_parse_family(const void *buf, size_t len, uint32_t seq, uint32_t portid,
			  uint16_t *family);

/* ---- taskstats / cgroupstats ---- */
/* TASKSTATS_CMD_GET with TASKSTATS_CMD_ATTR_PID (@tgid false) or _TGID.
 * Returns: the length, -ENOBUFS. */
ssize_t cgctl_nl_build_taskstats(void *buf, size_t len, uint16_t family, uint32_t seq,
				 uint32_t id, bool tgid);
/* The TASKSTATS_TYPE_AGGR_PID/_AGGR_TGID reply: *@id gets the PID/TGID the kernel named
 * and @ts the stats (fields past the kernel's struct length stay 0).
 * Returns: 0, -EBADMSG, or the -errno of an NLMSG_ERROR (-ESRCH). */
int cgctl_nl_parse_taskstats(const void *buf, size_t len, uint32_t seq, uint32_t portid,
			     uint32_t *id, struct cgctl_taskstats *ts);
/* CGROUPSTATS_CMD_GET with CGROUPSTATS_CMD_ATTR_FD.  Returns: the length, -ENOBUFS. */
ssize_t cgctl_nl_build_cgroupstats(void *buf, size_t len, uint16_t family, uint32_t seq,
				   uint32_t fd);
/* Returns: 0, -EBADMSG, or the -errno of an NLMSG_ERROR (-EINVAL: not a v1 cgroup). */
int cgctl_nl_parse_cgroupstats(const void *buf, size_t len, uint32_t seq, uint32_t portid,
			       struct cgctl_cgroupstats *cs);

#endif
