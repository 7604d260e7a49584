/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct cgctl_move: the destinations of a move and what each PID of its last batch
 * met, the object `cgctl move` moves through (issue 28).  The work is done by
 * cgctl_move_pids_v() (movebatch.c) and cgctl_move_tree_v()
 * (proctree.c); this keeps their arrays out of the installed header.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct cgctl_move {
	struct cgctl_ctx *ctx;
	size_t n_targets;
	struct cgctl_move_target t[CGCTL_MOVE_PIDS_MAX_TARGETS];
	char *paths[CGCTL_MOVE_PIDS_MAX_TARGETS];
	struct cgctl_move_pid *v;	/* the last cgctl_move_pids() */
	size_t n;
};

CGCTL_EXPORT int cgctl_move_new(struct cgctl_ctx *ctx, const struct cgctl_mount *const *ms,
				const char *const *paths, size_t n, struct cgctl_move **ret)
{
	struct cgctl_move *mv;

	if (!ret)
		return -EINVAL;
	*ret = NULL;
	if (!ctx || !ms || !paths || !n || n > CGCTL_MOVE_PIDS_MAX_TARGETS)
		return -EINVAL;
	for (size_t j = 0; j < n; j++)
		if (!ms[j] || !paths[j])
			return -EINVAL;
	mv = calloc(1, sizeof(*mv));
	if (!mv)
		return -ENOMEM;
	mv->ctx = cgctl_ref(ctx);
	for (size_t j = 0; j < n; j++, mv->n_targets++) {
		mv->paths[j] = strdup(paths[j]);
		if (!mv->paths[j]) {
			cgctl_move_free(mv);
			return -ENOMEM;
		}
		mv->t[j] = (struct cgctl_move_target){ ms[j], mv->paths[j] };
	}
	*ret = mv;
	return 0;
}

static void move_results_free(struct cgctl_move *mv)
{
	cgctl_move_pids_free(mv->v, mv->n);
	free(mv->v);
	mv->v = NULL;
	mv->n = 0;
}

CGCTL_EXPORT void cgctl_move_free(struct cgctl_move *mv)
{
	if (!mv)
		return;
	move_results_free(mv);
	for (size_t j = 0; j < mv->n_targets; j++)
		free(mv->paths[j]);
	cgctl_unref(mv->ctx);
	free(mv);
}

CGCTL_EXPORT ssize_t cgctl_move_pids(struct cgctl_move *mv, const pid_t *pids, size_t n,
				     unsigned int flags, struct cgctl_error *e)
{
	if (!mv || (n && !pids))
		return cgctl_error_set(e, EINVAL, "move: no mover, or no PIDs");
	move_results_free(mv);
	if (n) {
		mv->v = calloc(n, sizeof(*mv->v));
		if (!mv->v)
			return cgctl_error_set(e, ENOMEM, "move: out of memory");
	}
	mv->n = n;
	for (size_t i = 0; i < n; i++)
		mv->v[i].pid = pids[i];
	return cgctl_move_pids_v(mv->ctx, mv->t, mv->n_targets, mv->v, n, flags, e);
}

CGCTL_EXPORT int cgctl_move_pid_get(struct cgctl_move *mv, size_t i, int *err, int *kind,
				    uint32_t *held, char **from)
{
	struct cgctl_move_pid *p;

	if (!mv || i >= mv->n)
		return -EINVAL;
	p = &mv->v[i];
	if (err)
		*err = p->err;
	if (kind)
		*kind = p->kind;
	if (held)
		*held = p->held;
	if (from) {
		*from = p->from;
		p->from = NULL;
	}
	return 0;
}

/* the members a caller's result must hold at least: those before the appended ones */
#define TREE_RESULT_MIN offsetof(struct cgctl_move_tree_result, connector_deaf)

CGCTL_EXPORT ssize_t cgctl_move_tree(struct cgctl_move *mv, const pid_t *roots,
				     size_t n_roots, const struct cgctl_move_tree_opts *opts,
				     struct cgctl_move_tree_result *res, struct cgctl_error *e)
{
	struct cgctl_move_tree_result full;
	ssize_t r;

	if (res && res->size < TREE_RESULT_MIN)
		return cgctl_error_set(e, EINVAL, "move: a result of an unknown size %zu",
				       res->size);
	if (!mv)
		return cgctl_error_set(e, EINVAL, "move: no process or no destination given");
	r = cgctl_move_tree_v(mv->ctx, roots, n_roots, mv->t, mv->n_targets, opts, &full, e);
	if (res) {
		size_t size = MIN(res->size, sizeof(full));

		full.size = res->size;
		memcpy(res, &full, size);
	}
	return r;
}
