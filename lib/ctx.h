/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The context's private layout; only lib/ctx.c and lib/kernel/ touch it. */
#ifndef CGCTL_CTX_H
#define CGCTL_CTX_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"

struct mnl_socket;

struct cgctl_ctx {
	int refcount;
	char *root;	/* "" or a prefix without trailing '/' */
	cgctl_log_fn log_fn;
	void *log_data;
	int log_priority;
	bool mounts_loaded;
	struct cgctl_mount *mounts;	/* public array, callers index it */
	int *mount_fds;			/* directory fd per mount, -1 until used */
	size_t n_mounts;
	/* the taskstats family socket, kept for repeated cgroupstats queries */
	pthread_mutex_t nl_lock;
	struct mnl_socket *ts_nl;
	uint16_t ts_family;
	uint32_t ts_seq;
};

void cgctl_ctx_release_mounts(struct cgctl_ctx *ctx);
/* Close the netlink sockets kept in @ctx (lib/kernel/netlink.c). */
void cgctl_ctx_release_netlink(struct cgctl_ctx *ctx);

#endif
