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
struct blkcache;
struct crew;

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
	/* scratch blocks kept between page inventories (lib/util/blkcache.h) */
	struct blkcache *blkcache;
	/* the page inventory's worker threads, parked between inventories */
	struct crew *crew;
	pid_t crew_pid;		/* the process they run in (a fork()ed child has none) */
	bool crew_busy;		/* an inventory holds them (atomic) */
};

void cgctl_ctx_release_mounts(struct cgctl_ctx *ctx);
/* Workers for one page inventory: @want threads in all, the caller's included, at most.
 * The context's kept crew, woken (started on first use), when no other inventory holds
 * it; else @local, started for this inventory only.  Hand it back with
 * cgctl_ctx_crew_put(). */
struct crew *cgctl_ctx_crew_get(struct cgctl_ctx *ctx, int want, struct crew *local);
void cgctl_ctx_crew_put(struct cgctl_ctx *ctx, struct crew *c, struct crew *local);
/* Close the netlink sockets kept in @ctx (lib/kernel/netlink.c). */
void cgctl_ctx_release_netlink(struct cgctl_ctx *ctx);

#endif
