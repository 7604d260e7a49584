// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one executor of settings (lib/predict/plan.h): `bw set`, `mem set`, `set`,
 * `bw recommend --apply`, validate's writes and cgctl_cgroup_set() are plans of it
 * (struct cgctl_plan).  A plan is built whole and checked before its
 * first write, under the cgroup lock of each cgroup it writes (lib/kernel/cglock.c),
 * taken before the current state is read and dropped after the rollback.  With the
 * context's flag (cgctl_set_block_signals(), set by cgctl) a plan of several writes
 * runs with SIGINT, SIGTERM, SIGHUP and SIGQUIT blocked: they are delivered after the
 * plan finished or was rolled back.  SIGKILL cannot be blocked; what it can leave is the
 * state after one write of the plan (the lock dies with the process).  A failed write
 * is undone newest first, each file back to what it held before its step: the reverse
 * of a plan whose every state the kernel accepted.  A write that failed after the kernel
 * took it (a short write(2): kernfs_fop_write_iter() hands the whole buffer to the
 * file's handler) is undone too unless its file reads back as before.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/cglock.h"
#include "predict/plan.h"

void plan_init(struct plan *p, struct cgctl_ctx *ctx, const struct predict_writer *wr,
	       struct plan_step *steps, int max)
{
	memset(p, 0, sizeof(*p));
	p->ctx = ctx;
	p->wr = wr;
	p->s = steps;
	p->max = max;
	p->failed = -1;
	p->restored = "the previous setting was restored";
	p->undo_failed = "restoring the previous setting failed too";
}

static int lock_cmp(const struct cgctl_mount *am, const char *ap, const struct cgctl_mount *bm,
		    const char *bp)
{
	int c = strcmp(am->path, bm->path);

	return c ? c : strcmp(ap, bp);
}

int plan_lock(struct plan *p, const struct cgctl_mount *m, const char *path,
	      struct cgctl_error *e)
{
	char eb[96];
	int r;

	for (size_t i = 0; i < p->nl; i++)
		if (p->lm[i] == m && !strcmp(p->lp[i], path))
			return 0;
	if (p->nl == PLAN_LOCKS)
		return cgctl_error_set(e, E2BIG, "too many cgroups in one plan");
	/* two writers of the same cgroups lock them in one order: no deadlock */
	for (size_t i = 0; i < p->locked; i++)
		if (lock_cmp(m, path, p->lm[i], p->lp[i]) < 0)
			return cgctl_error_set(e, EDEADLK, "%s: locked out of order", path);
	r = cgctl_cgroup_lock(p->ctx, m, path);
	if (r < 0)
		return cgctl_error_set(e, -r, "%s: cannot take the cgroup lock: %s", path,
				       strerror_r(-r, eb, sizeof(eb)));
	p->lm[p->nl] = m;
	p->lp[p->nl++] = path;
	p->locked = p->nl;
	return 0;
}

void plan_unlock(struct plan *p)
{
	while (p->nl > 0) {
		p->nl--;
		cgctl_cgroup_unlock(p->ctx, p->lm[p->nl], p->lp[p->nl]);
	}
	p->locked = 0;
}

struct plan_step *plan_add(struct plan *p, const struct cgctl_mount *m, const char *path,
			   const char *file, const char *value, const char *old, size_t item)
{
	struct plan_step *s;

	if (p->n >= p->max)
		return NULL;
	s = &p->s[p->n++];
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->path = path;
	s->file = file;
	s->value = value ? value : s->buf;
	s->item = item;
	s->has_old = old != NULL;
	if (!old)
		s->flags |= CGCTL_PLAN_STEP_IRREVERSIBLE;
	else
		snprintf(s->old, sizeof(s->old), "%s", old);
	return s;
}

int plan_read_old(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		  const char *file, char *buf, size_t len)
{
	char *rb = NULL;
	size_t rl;
	int r = cgctl_cg_read(ctx, m, path, file, &rb, &rl);

	if (r < 0)
		return r;
	while (rl && rb[rl - 1] == '\n')
		rb[--rl] = '\0';
	r = strchr(rb, '\n') || rl >= len ? -EFBIG : 0;
	if (r == 0)
		memcpy(buf, rb, rl + 1);
	free(rb);
	return r;
}

/* ---- running ---- */

static int do_write(struct plan *p, const struct plan_step *s, const char *value)
{
	if (p->wr && p->wr->write)
		return p->wr->write(p->wr->arg, p->ctx, s->m, s->path, s->file, value);
	return cgctl_cg_write(p->ctx, s->m, s->path, s->file, value);
}

static const char *errstr(int err, char *buf, size_t len)
{
	return strerror_r(err < 0 ? -err : err, buf, len);
}

/* Undo steps [0, upto) newest first.  Returns: 0, -errno with the step in @e. */
static int undo(struct plan *p, int upto, struct cgctl_error *e)
{
	for (int i = upto - 1; i >= 0; i--) {
		const struct plan_step *s = &p->s[i];
		char eb[96];
		int r;

		if (!s->has_old)
			continue;
		r = do_write(p, s, s->old);
		if (r < 0)
			return cgctl_error_set(e, -r, "%s=%s: %s", s->file, s->old,
					       errstr(r, eb, sizeof(eb)));
	}
	return 0;
}

/* What the files of steps [0, upto] hold now, " F=V" each once, appended to @out. */
static void holdings(struct plan *p, int upto, char *out, size_t len)
{
	size_t used = strlen(out);

	for (int i = 0; i <= upto && i < p->n && used < len; i++) {
		const struct plan_step *s = &p->s[i];
		char buf[PLAN_OLD_MAX];
		bool dup = false;
		int r;

		for (int k = 0; k < i; k++)
			dup |= p->s[k].m == s->m && !strcmp(p->s[k].path, s->path) &&
			       !strcmp(p->s[k].file, s->file);
		if (dup)
			continue;
		r = plan_read_old(p->ctx, s->m, s->path, s->file, buf, sizeof(buf));
		if (r < 0)
			snprintf(buf, sizeof(buf), "(unreadable)");
		used += (size_t)snprintf(out + used, len - used, " %s=%s", s->file, buf);
	}
	for (size_t k = 0; p->also && p->also[k] && p->n && used < len; k++) {
		char buf[PLAN_OLD_MAX];
		bool dup = false;

		for (int i = 0; i <= upto && i < p->n; i++)
			dup |= !strcmp(p->s[i].file, p->also[k]);
		if (dup)
			continue;
		if (plan_read_old(p->ctx, p->s[0].m, p->s[0].path, p->also[k], buf,
				  sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "(unreadable)");
		used += (size_t)snprintf(out + used, len - used, " %s=%s", p->also[k], buf);
	}
}

/* Does @s's file still hold its old value (trailing newlines and spaces aside)? */
static bool unchanged(struct plan *p, const struct plan_step *s)
{
	char buf[PLAN_OLD_MAX];
	size_t bl, ol = strlen(s->old);

	if (plan_read_old(p->ctx, s->m, s->path, s->file, buf, sizeof(buf)) < 0)
		return false;
	bl = strlen(buf);
	while (bl && buf[bl - 1] == ' ')
		bl--;
	while (ol && (s->old[ol - 1] == '\n' || s->old[ol - 1] == ' '))
		ol--;
	return bl == ol && memcmp(buf, s->old, bl) == 0;
}

static int failed(struct plan *p, int i, int r, struct cgctl_error *e)
{
	const struct plan_step *s = &p->s[i];
	struct cgctl_error ue = CGCTL_ERROR_INIT;
	char eb[96], what[PLAN_OLD_MAX + 64], msg[512];
	int upto = i;

	p->failed = i;
	if (p->name_only)
		snprintf(what, sizeof(what), "%s", s->file);
	else
		snprintf(what, sizeof(what), "%s=%s", s->file, s->value);
	if (s->has_old && !unchanged(p, s))
		upto = i + 1;
	if (undo(p, upto, &ue) == 0) {
		p->rolled_back = true;
		return cgctl_error_set(e, -r, "%s: %s%s%s", what, errstr(r, eb, sizeof(eb)),
				       upto ? "; " : "", upto ? p->restored : "");
	}
	snprintf(msg, sizeof(msg), "now");
	holdings(p, i, msg, sizeof(msg));
	return cgctl_error_set(e, -r, "%s: %s; %s (%s); %s", what, errstr(r, eb, sizeof(eb)),
			       p->undo_failed, ue.msg, msg);
}

int plan_run(struct plan *p, struct cgctl_error *e)
{
	sigset_t set, saved;
	bool blocked = false;
	int r = 0;

	if (p->n > 1 && cgctl_ctx_blocks_signals(p->ctx)) {
		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		sigaddset(&set, SIGHUP);
		sigaddset(&set, SIGQUIT);
		blocked = pthread_sigmask(SIG_BLOCK, &set, &saved) == 0;
	}
	for (int i = 0; i < p->n; i++) {
		r = do_write(p, &p->s[i], p->s[i].value);
		if (r < 0) {
			r = failed(p, i, r, e);
			break;
		}
	}
	if (blocked)
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (r < 0)
		return r;
	cgctl_error_clear(e);
	return p->n;
}
