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
	/* writers of settings (lib/kernel/cglock.c): SIGINT, SIGTERM, SIGHUP and SIGQUIT
	 * blocked during a plan (cgctl_set_block_signals()), the cgroup locks held */
	bool block_signals;
	struct cg_lock {
		const struct cgctl_mount *m;
		char *path;
		int fd;
		unsigned int depth;
	} *locks;
	size_t n_locks;
};

void cgctl_ctx_release_mounts(struct cgctl_ctx *ctx);
/* Close the netlink sockets kept in @ctx (lib/kernel/netlink.c). */
void cgctl_ctx_release_netlink(struct cgctl_ctx *ctx);
/* Drop every cgroup lock @ctx holds (lib/kernel/cglock.c). */
void cgctl_ctx_release_locks(struct cgctl_ctx *ctx);

#endif
