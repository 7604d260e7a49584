/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Driver of the move-charge scenarios (memory.move_charge_at_immigrate, v1, 2.6.34 -
 * 6.12; refused since 6.13).  A workload touches pages in cgroup A (anonymous, shared
 * with a child that stays in A, or a mapped file), then is attached to B.  The move
 * planner (cgctl_move_plan) is fed what the workload holds, the flags written and the
 * destination's limit, and predicts how the usage of A and B changes and whether the
 * attach is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "internal.h"
#include "validate/validate.h"
#include "validate/scenarios.h"

#define PG 4096.0
#define TMPFS_MAGIC_ 0x01021994

/* The era table's answer: no move charge on this kernel (6.13+), or before it existed */
static const char *no_move(const struct vrun *run)
{
	struct cgctl_memcg_era era = { .size = sizeof(era) };

	if (cgctl_memcg_era_get(run->kver, &era) < 0)
		return "kernel before 2.6.32";
	return era.move_bits ? NULL : era.move_none;
}

static int move_applies(struct vrun *run, const struct vscenario *s, char *reason, size_t len)
{
	const struct vmove_params *p = s->params;
	const struct cgctl_mount *m;
	const char *none = no_move(run);

	if (cgctl_mount_find(run->ctx, "memory", &m) < 0) {
		snprintf(reason, len, "no cgroup hierarchy carries the memory controller");
		return 1;
	}
	if (m->version == 2) {
		snprintf(reason, len, "cgroup v2 never had memory.move_charge_at_immigrate");
		return 1;
	}
	if (p->kind == VMOVE_REMOVED && !none) {
		snprintf(reason, len, "kernel %s still moves charges", run->release);
		return 1;
	}
	if (p->kind != VMOVE_REMOVED && none) {
		snprintf(reason, len,
			 "kernel %s refuses move_charge_at_immigrate=%u with EINVAL: %s",
			 run->release, p->flags, none);
		return 1;
	}
	/* what the squeeze pushes out, twice over */
	if (p->squeeze && !vrun_have_swap(run, (uint64_t)p->pages * 4 * 2)) {
		snprintf(reason, len, "no swap device with %u KiB free (/proc/swaps)",
			 p->pages * 4 * 2);
		return 1;
	}
	return 0;
}

/* What happened on the live kernel. */
struct move_obs {
	struct cgctl_move_input held;	/* the workload's pages by class, before the move */
	bool inventoried;
	double from0, from1, to0, to1;	/* usage of A and B before/after the attach */
	double sfrom0, sfrom1, sto0, sto1;	/* and their memsw usage */
	bool memsw;			/* v1 swap accounting: memory.memsw.* exist */
	int write_err;			/* writing the flags to B */
	int attach_err;			/* writing the PID to B's cgroup.procs */
	bool shmem;			/* the file lives on tmpfs */
	unsigned long thp_kb;		/* VMOVE_THP: the workload's PMD-mapped THPs */
};

static const char *const kinds[] = {
	[VMOVE_ANON] = "touch", [VMOVE_SHARED] = "fork-touch", [VMOVE_FILE] = "file-touch",
	[VMOVE_REFUSED] = "touch", [VMOVE_REMOVED] = "touch", [VMOVE_THP] = "thp-touch",
};

static int start(struct vrun *run, const struct vmove_params *p, const struct cgctl_mount *m,
		 const char *a, struct vwork *w, struct move_obs *o, char *reason, size_t len)
{
	struct vwork_spec ws = { .m = { m }, .path = { a }, .cpu = 0 };
	char n[16], split[16], file[64], line[128];
	const char *kb;
	struct statfs sf;
	int err;

	snprintf(n, sizeof(n), "%u", p->pages);
	ws.argv[0] = kinds[p->kind];
	ws.argv[1] = n;
	if (p->kind == VMOVE_THP) {
		snprintf(n, sizeof(n), "%u", p->pages / 512);
		snprintf(split, sizeof(split), "%u", p->split);
		ws.argv[2] = split;
	}
	if (p->kind == VMOVE_FILE) {
		/* tmpfs when there is one (the VMs have no disk): shmem, also bit 1 */
		snprintf(file, sizeof(file), "%s/cgctl-validate-%d-%u",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid(),
			 run->seq);
		ws.argv[1] = file;
		ws.argv[2] = n;
		if (p->stride) {
			snprintf(split, sizeof(split), "%u", p->stride);
			ws.argv[3] = split;
		}
	}
	err = vwork_start(run, &ws, w, reason, len);
	if (err >= 0)
		err = vwork_expect(run, w, "ready", line, sizeof(line), 10000, reason, len);
	if (err >= 0)
		err = vwork_send(w, "go\n");
	if (err >= 0)
		err = vwork_expect(run, w, "done", line, sizeof(line), 20000, reason, len);
	if (p->kind == VMOVE_FILE && statfs(file, &sf) == 0)
		o->shmem = sf.f_type == TMPFS_MAGIC_;
	kb = err >= 0 ? strstr(line, "thp_kb=") : NULL;
	if (kb)
		o->thp_kb = strtoul(kb + 7, NULL, 10);
	return err;
}

/* memory and (with swap accounting) memsw usage of @path, in pages */
static int usage(struct vrun *run, const struct cgctl_mount *m, const char *path, double *v,
		 double *sw, struct move_obs *o, char *reason, size_t len)
{
	const char *const keys[] = {
		"memory.usage", m->version == 2 ? "memory.swap.usage" : "memory.memsw.usage",
	};
	uint64_t c[2];
	unsigned int has;
	int err = vcg_mem_figures(run, path, CGCTL_CGSTAT_MEM_ALL, keys, 2, c, &has, reason,
				  len);

	if (err < 0)
		return err;
	*v = (double)c[0] / PG;
	o->memsw = has & 2;
	*sw = o->memsw ? (double)c[1] / PG : 0;
	return 0;
}

/*
 * Lower A's limit to @p->squeeze pages once the workload is done touching: reclaim
 * (v1 mem_cgroup_resize_max()) swaps the rest of its anon or shmem pages out, and the
 * swap entries stay charged to A (swap_cgroup, memsw).
 */
static int squeeze(struct vrun *run, const struct vmove_params *p, const struct cgctl_mount *m,
		   const char *a, char *reason, size_t len)
{
	char v[32];

	if (!p->squeeze)
		return 0;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)p->squeeze * 4096);
	return vcg_write(run, m, a, "memory.limit_in_bytes", v, reason, len);
}

/*
 * What the workload holds, page by page (pagemap + kpagecgroup): besides the pages it
 * touched, its stack, heap and libraries' data are charged to A and move too.  The
 * classes are the ones `cgctl move` plans with (cgctl_move_input_from_inventory()).
 * Without the owners (no kpagecgroup, no CAP_SYS_ADMIN) the touched pages are used.
 */
static void inventory(struct vrun *run, const struct vmove_params *p,
		      const struct cgctl_mount *m, const char *a, pid_t pid, struct move_obs *o)
{
	struct cgctl_inventory *inv = NULL;
	uint64_t ino;

	memset(&o->held, 0, sizeof(o->held));
	if (cgctl_cg_ino(run->ctx, m, a, &ino) < 0 ||
	    cgctl_inventory_scan(run->ctx, pid, CGCTL_INV_NO_PATHS, &inv, NULL) < 0)
		return;
	o->inventoried = cgctl_move_input_from_inventory(inv, ino, &o->held) == 1;
	cgctl_inventory_free(inv);
	/* with bit 1, the cached pages of the file between the mapped ones, as `move` */
	if (o->inventoried && (p->flags & CGCTL_MOVE_CHARGE_FILE))
		cgctl_move_input_add_cache(run->ctx, &pid, 1, ino, &o->held);
}

static int move_observe(struct vrun *run, const struct vmove_params *p, struct move_obs *o,
			char *reason, size_t len)
{
	const struct cgctl_mount *m;
	struct vwork w = { .pid = -1 };
	const char *a, *b;
	char v[32];
	int err;

	err = vscratch_create(run, "memory", NULL, "from", &m, &a, reason, len);
	if (err >= 0)
		err = vscratch_create(run, "memory", NULL, "to", &m, &b, reason, len);
	if (err >= 0 && p->kind == VMOVE_REFUSED) {
		snprintf(v, sizeof(v), "%u", p->pages / 2 * 4096);
		err = vcg_write(run, m, b, "memory.limit_in_bytes", v, reason, len);
	}
	if (err >= 0) {
		snprintf(v, sizeof(v), "%u", p->flags);
		o->write_err = vcg_set(run, m, b, "memory.move_charge_at_immigrate", v);
		err = start(run, p, m, a, &w, o, reason, len);
	}
	if (err >= 0)
		err = squeeze(run, p, m, a, reason, len);
	if (err >= 0)
		inventory(run, p, m, a, w.pid, o);
	if (err >= 0)
		err = usage(run, m, a, &o->from0, &o->sfrom0, o, reason, len);
	if (err >= 0)
		err = usage(run, m, b, &o->to0, &o->sto0, o, reason, len);
	if (err >= 0) {
		o->attach_err = cgctl_cg_attach(run->ctx, m, b, w.pid);
		err = vrun_sleep(run, 50);
	}
	if (err >= 0)
		err = usage(run, m, a, &o->from1, &o->sfrom1, o, reason, len);
	if (err >= 0)
		err = usage(run, m, b, &o->to1, &o->sto1, o, reason, len);
	if (err >= 0)
		err = vwork_finish(run, &w, 5000, reason, len);
	vwork_kill(run, &w);
	return err;
}

/* The planner's input: what the workload holds, charged to A. */
static void move_input(const struct vmove_params *p, const struct move_obs *o,
		       struct cgctl_move_input *in)
{
	if (o->inventoried) {
		*in = o->held;
		return;
	}
	memset(in, 0, sizeof(*in));
	if (p->kind == VMOVE_SHARED)
		in->from.anon_shared2 = p->pages;
	else if (p->kind == VMOVE_FILE && o->shmem)
		in->from.shmem = p->pages;
	else if (p->kind == VMOVE_FILE)
		in->from.file = p->pages;
	else if (p->kind == VMOVE_THP) {
		in->from.thp = o->thp_kb / 4;
		in->from.thp_pte = p->pages - in->from.thp;
		in->from.thp_pte_counted = in->from.thp_pte / 512;	/* whole THPs */
	} else
		in->from.anon_excl = p->pages;
}

/* The change of @id's memsw usage in @e's plan (0 where the plan does not reach it). */
static int64_t memsw_delta(const struct cgctl_move_expect *e, int id)
{
	for (unsigned int i = 0; i < e->plan.nlevels; i++)
		if (e->plan.levels[i].id == id)
			return (int64_t)e->plan.levels[i].memsw_after.usage -
			       (int64_t)e->plan.levels[i].memsw_before.usage;
	return 0;
}

/*
 * The model of the scenario: A charged with what the workload holds (one page at a time,
 * through the stock), its swap entries swapped out, B with the flags and limit written,
 * and the plan `cgctl move` makes (cgctl_move_expect_input()).  With @memsw, @memsw_delta
 * (may be NULL) gets the change of A's and B's memsw usage.  Returns: 0 or -errno.
 */
int vmove_predict(uint32_t kver, unsigned int ncpu, uint64_t seed, bool memsw,
		  const struct vmove_params *p, const struct cgctl_move_input *in,
		  struct cgctl_move_expect *e, int *write_err, int64_t memsw_delta_out[2])
{
	struct cgctl_memcg_tree *t = NULL;
	int a = -1, b = -1, err;
	uint64_t i, n;

	err = cgctl_memcg_tree_new(&t, kver, ncpu, memsw ? CGCTL_MEMCG_SWAP_ACCOUNT : 0, seed);
	if (err >= 0)
		err = a = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	if (err >= 0)
		err = b = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	if (err >= 0 && p->kind == VMOVE_REFUSED)
		err = cgctl_memcg_set_limit(t, b, CGCTL_MEMCG_MEMORY, p->pages / 2, NULL, NULL);
	n = in->from.anon_excl + in->from.anon_shared2 + in->from.anon_shared_more +
	    in->from.file + in->from.shmem + in->from.thp + in->from.thp_pte +
	    in->from.file_large + in->from.swap + in->from.shmem_swap;
	/* the workload charged A on a CPU other than the one cgctl attaches from (the
	 * plan's CPU 0): the precharge's batch refills B's stock there and leaves A's
	 * alone.  Measured on 6.1 (validate --sweep 20 --kind move --target vm:6.1-v1):
	 * in the cases that precharged less than a batch, A lost only the moved pages */
	for (i = 0; err >= 0 && i < n; i++)
		err = cgctl_memcg_charge(t, a, ncpu > 1 ? 1 : 0, 1, NULL, NULL);
	/* the swap entries were pages charged to A until reclaim swapped them out */
	if (err >= 0)
		err = cgctl_memcg_swapout(t, a, in->from.swap + in->from.shmem_swap);
	if (err >= 0) {
		*write_err = cgctl_memcg_set_move_charge(t, b, p->flags);
		err = cgctl_move_expect_input(t, a, b, in, n, e);
	}
	if (err >= 0 && memsw_delta_out) {
		memsw_delta_out[0] = memsw_delta(e, a);
		memsw_delta_out[1] = memsw_delta(e, b);
	}
	cgctl_memcg_tree_free(t);
	return err;
}

static int move_model(struct vrun *run, const struct vmove_params *p, const struct move_obs *o,
		      struct cgctl_move_expect *e, int *write_err, int64_t sw[2], char *reason,
		      size_t len)
{
	struct cgctl_move_input in;
	int err;

	move_input(p, o, &in);
	err = vmove_predict(run->model_kver, run->ncpu, run->seq, o->memsw, p, &in, e,
			    write_err, sw);
	if (err < 0) {
		snprintf(reason, len, "move-charge model: %s", strerror(-err));
		return err;
	}
	return 0;
}

static void set(struct vsample *o, double obs, double pred, double bound)
{
	o->obs = obs;
	o->pred = pred;
	o->bound = bound;
}

static int move_run_once(struct vrun *run, const struct vscenario *s, struct vsample *out,
			 char *reason, size_t len)
{
	const struct vmove_params *p = s->params;
	struct move_obs o = { 0 };
	struct cgctl_move_expect e;
	int write_err = 0, err;
	int64_t sw[2] = { 0, 0 };
	const char *na = NULL;
	double sb;
	size_t i;

	err = move_observe(run, p, &o, reason, len);
	if (err >= 0)
		err = move_model(run, p, &o, &e, &write_err, sw, reason, len);
	if (err < 0)
		return err;
	if (p->squeeze && !o.memsw)
		na = "no swap accounting (memory.memsw.* absent: swapaccount=0)";
	else if (p->squeeze && !o.inventoried)
		na = "no page inventory (pagemap, kpagecgroup): what was swapped out is unknown";
	else if (p->squeeze && p->kind == VMOVE_FILE && !o.shmem)
		na = "no tmpfs for the file (/dev/shm, /tmp): its pages are not shmem";
	if (na) {
		for (i = 0; i < vscenario_nq(s); i++) {
			out[i].na = true;
			snprintf(out[i].reason, sizeof(out[i].reason), "%s", na);
		}
		return 0;
	}
	/* the kernel gave base pages (THP off, or no free 2 MiB block): not this scenario */
	if (p->kind == VMOVE_THP && o.thp_kb / 4 + p->split * 512 < p->pages) {
		for (i = 0; i < vscenario_nq(s); i++) {
			out[i].na = true;
			snprintf(out[i].reason, sizeof(out[i].reason),
				 "the workload got %lu of its %u pages as PMD-mapped THPs, "
				 "%u expected (transparent_hugepage off or memory fragmented)",
				 o.thp_kb / 4, p->pages, p->pages - p->split * 512);
		}
		return 0;
	}
	/* either cgroup's per-cpu stock may be drained (or refilled) by the attach and by
	 * other memcgs charging on the same CPUs: the model's stock bound of one memcg */
	sb = (double)cgctl_memcg_stock_max_pages(run->model_kver, run->ncpu, 1);
	for (i = 0; i < vscenario_nq(s); i++) {
		const char *n = s->q[i].name;

		if (strcmp(n, "flags_refused") == 0)
			set(&out[i], o.write_err == -EINVAL, write_err == -EINVAL, 0);
		else if (strcmp(n, "attach_refused") == 0)
			set(&out[i], o.attach_err < 0, e.plan.err < 0, 0);
		else if (strcmp(n, "from_usage_change") == 0)
			set(&out[i], o.from1 - o.from0, (double)e.from_delta_pages, sb);
		else if (strcmp(n, "to_usage_change") == 0)
			set(&out[i], o.to1 - o.to0, (double)e.to_delta_pages, sb);
		else if (strcmp(n, "from_memsw_change") == 0)
			set(&out[i], o.sfrom1 - o.sfrom0, (double)sw[0], sb);
		else if (strcmp(n, "to_memsw_change") == 0)
			set(&out[i], o.sto1 - o.sto0, (double)sw[1], sb);
	}
	return 0;
}

const struct vdriver vdriver_move = {
	.applies = move_applies,
	.run_once = move_run_once,
};
