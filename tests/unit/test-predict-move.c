/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The move plan of lib/predict on canned page inventories: one class per page
 * (exclusive, shared, PMD-mapped THP, PTE-mapped THP, file, shmem, swap), the plan it
 * gives on a v6.1 model, and the same expected transfer through validate's move driver.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"
#include "predict/moveplan.h"
#include "testutil.h"
#include "validate/scenarios.h"

#define K CGCTL_KVER
#define INO_A 100
#define INO_B 200

static struct cgctl_memcg_tree *t;
static int A, B;

static struct cgctl_inv_group groups[4];
static struct cgctl_inventory inv;

/* an inventory of one task in A whose groups are set by the test */
static void inv_reset(void)
{
	memset(groups, 0, sizeof(groups));
	memset(&inv, 0, sizeof(inv));
	inv.pfn_visible = true;
	inv.task_ino = INO_A;
	inv.groups = groups;
	inv.n_groups = 1;
	groups[0].ino = INO_A;
}

/* A and B below the root on @kver (1 CPU), A holding @pages, B's move flags @flags */
static void mk(uint32_t kver, unsigned int tflags, uint64_t pages, unsigned int flags)
{
	ck_assert_int_eq(cgctl_memcg_tree_new(&t, kver, 1, tflags, 7), 0);
	A = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	B = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	if (pages)
		ck_assert_int_eq(cgctl_memcg_charge(t, A, 0, pages, NULL, NULL), 0);
	cgctl_memcg_drain_all(t, CGCTL_MEMCG_ROOT);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, flags), 0);
}

static void teardown(void)
{
	cgctl_memcg_tree_free(t);
	t = NULL;
}

static struct cgctl_move_input input(void)
{
	struct cgctl_move_input in;

	ck_assert_int_eq(cgctl_move_input_from_inventory(&inv, 0, &in), 1);
	return in;
}

static uint64_t usage(int id)
{
	struct cgctl_memcg_state s;

	ck_assert_int_eq(cgctl_memcg_get(t, id, &s), 0);
	return s.memory.usage;
}

/* The usage changes the kernel reports: -moved/+moved between siblings; none for the end
 * that is an ancestor of the other (the charge stays in its subtree), none for the root
 * (v1 reports its whole tree: mem_cgroup_usage(), v6.1) */
START_TEST(reported_deltas)
{
	struct cgctl_move_expect e;
	struct cgctl_move_input in;
	int C;

	inv_reset();
	groups[0].anon_exclusive = 100;
	in = input();
	mk(K(6, 1, 0), 0, 100, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 100, &e), 0);
	ck_assert_int_eq(e.from_delta_pages, -100);
	/* + the walk's one-page precharge after the last page: batch 64, 1 cancelled */
	ck_assert_int_eq(e.to_delta_pages, 100 + 63);
	teardown();
	/* into a child of the source, and back up to the parent */
	mk(K(6, 1, 0), 0, 100, 0);
	C = cgctl_memcg_create(t, A);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, C, CGCTL_MOVE_CHARGE_ANON), 0);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, C, &in, 100, &e), 0);
	ck_assert_uint_eq(e.plan.moved, 100);
	/* A's usage holds C's, and so the 63 pages C's stock keeps of the walk's batch */
	ck_assert_int_eq(e.from_delta_pages, 63);
	ck_assert_int_eq(e.to_delta_pages, 100 + 63);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, A, CGCTL_MOVE_CHARGE_ANON), 0);
	ck_assert_int_eq(cgctl_move_expect_input(t, C, A, &in, 100, &e), 0);
	ck_assert_uint_eq(e.plan.moved, 100);
	/* back up: the walk's batch for A drains C's stock of 63 on that CPU
	 * (refill_stock() of another memcg), and A's 63 take their place */
	ck_assert_int_eq(e.from_delta_pages, -100 - 63);
	ck_assert_int_eq(e.to_delta_pages, 0);
	teardown();
	/* from the root: its usage is that of its tree */
	mk(K(6, 1, 0), 0, 0, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_memcg_charge(t, CGCTL_MEMCG_ROOT, 0, 100, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_move_expect_input(t, CGCTL_MEMCG_ROOT, B, &in, 100, &e), 0);
	/* the root's usage counts its tree's pages (mem_cgroup_usage(), v6.1), not
	 * charges: the moved pages stay in it, and B's stocked 63 are no pages */
	ck_assert_int_eq(e.from_delta_pages, 0);
	ck_assert_int_eq(e.to_delta_pages, (int64_t)e.plan.moved + 63);
	/* no move charge: nothing changes */
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 0), 0);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 100, &e), 0);
	ck_assert_int_eq(e.from_delta_pages, 0);
	ck_assert_int_eq(e.to_delta_pages, 0);
}
END_TEST

/* The getters of the opaque expectation read what the plan says, by name. */
START_TEST(expect_getters)
{
	struct cgctl_move_expect e;
	struct cgctl_move_input in;
	int64_t v;

	inv_reset();
	groups[0].anon_exclusive = 100;
	in = input();
	mk(K(6, 1, 0), 0, 100, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 100, &e), 0);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "planned", &v), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "moves", &v), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "moved", &v), 0);
	ck_assert_int_eq(v, (int64_t)e.plan.moved);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "anon", &v), 0);
	ck_assert_int_eq(v, 100);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "file", &v), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "precharge", &v), 0);
	ck_assert_int_eq(v, (int64_t)e.plan.precharge);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "from_delta", &v), 0);
	ck_assert_int_eq(v, -100);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "to_delta", &v), 0);
	ck_assert_int_eq(v, 163);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "resident", &v), 0);
	ck_assert_int_eq(v, 100);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "err", &v), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_ptr_null(cgctl_move_expect_note(&e));
	ck_assert_int_eq(cgctl_move_expect_get(&e, "nope", &v), -EINVAL);
	/* no move charge on B: planned, nothing moves, the note says why */
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 0), 0);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 100, &e), 0);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "moves", &v), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_ptr_nonnull(cgctl_move_expect_note(&e));
	ck_assert_str_eq(cgctl_move_expect_note(&e), e.plan.reason);
	/* no plan: only "planned" answers; the note is the reason */
	memset(&e, 0, sizeof(e));
	e.why_none = "already in the destination";
	ck_assert_int_eq(cgctl_move_expect_get(&e, "planned", &v), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "moved", &v), -ENODATA);
	ck_assert_int_eq(cgctl_move_expect_get(&e, "nope", &v), -EINVAL);
	ck_assert_str_eq(cgctl_move_expect_note(&e), "already in the destination");
}
END_TEST

START_TEST(exclusive)
{
	struct cgctl_move_expect e;
	struct cgctl_move_input in;

	inv_reset();
	groups[0].anon_exclusive = 100;
	in = input();
	ck_assert_uint_eq(in.from.anon_excl, 100);
	mk(K(6, 1, 0), 0, 100, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_move_expect_inventory(t, A, B, &inv, INO_A, &e), 0);
	ck_assert(e.have && e.plan.moves);
	ck_assert_uint_eq(e.plan.moved, 100);
	ck_assert_uint_eq(usage(A), 0);
	ck_assert_uint_eq(usage(B), 100 + 63);	/* the walk's batch, less the cancelled page */
}
END_TEST

/* 3.5+: shared anon moves whatever its mapcount; mc2 is a part of anon_shared */
START_TEST(shared)
{
	struct cgctl_move_expect e;
	struct cgctl_move_input in;

	inv_reset();
	groups[0].anon_shared = 50;
	groups[0].anon_shared_mc2 = 30;
	in = input();
	ck_assert_uint_eq(in.from.anon_shared2, 30);
	ck_assert_uint_eq(in.from.anon_shared_more, 20);
	mk(K(6, 1, 0), 0, 50, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 50, &e), 0);
	ck_assert_uint_eq(e.plan.moved, 50);
}
END_TEST

/* a PMD-mapped THP is one class, counted once, exclusive or shared
 * (get_mctgt_type_thp(), v6.1, tests no mapcount) */
START_TEST(pmd_thp)
{
	struct cgctl_move_expect e;
	struct cgctl_move_input in;

	inv_reset();
	groups[0].anon_exclusive = 512 + 10;
	groups[0].anon_shared = 512;
	groups[0].anon_shared_mc2 = 512;
	groups[0].thp = groups[0].thp_pmd = 1024;
	in = input();
	ck_assert_uint_eq(in.from.thp, 1024);
	/* which anon class the THPs came out of is not known, and no kernel since 3.5
	 * (THP moved whole) tells them apart */
	ck_assert_uint_eq(in.from.anon_excl + in.from.anon_shared2 + in.from.anon_shared_more,
			  10);
	ck_assert_uint_eq(in.from.thp_pte, 0);
	mk(K(6, 1, 0), 0, 1034, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 1034, &e), 0);
	ck_assert_uint_eq(e.plan.precharge, 1034);
	ck_assert_uint_eq(e.plan.moved, 1034);
	ck_assert_uint_eq(usage(B), 1034 + 63);	/* the walk's batch, less the cancelled page */
}
END_TEST

/* A's 520 pages, 512 of them a PTE-mapped THP, moved to B on @kver: 8 move */
static void pte_thp_move(uint32_t kver, const struct cgctl_move_input *in,
			 uint64_t precharge, uint64_t usage_b)
{
	struct cgctl_move_expect e;

	mk(kver, 0, 520, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, in, 520, &e), 0);
	ck_assert_uint_eq(e.plan.precharge, precharge);
	ck_assert_uint_eq(e.plan.moved, 8);
	ck_assert_uint_eq(e.plan.stays, 512);
	ck_assert_uint_eq(usage(A), 512);
	ck_assert_uint_eq(usage(B), usage_b);
	teardown();
}

/* PTE-mapped parts of a large folio: precharged, not moved, the precharge cancelled
 * (mem_cgroup_move_charge_pte_range(), v6.1: PageTransCompound -> put).  Before 6.6
 * the count takes the folio's head page only (mc_handle_present_pte():
 * get_page_unless_zero() fails on a tail page); from 6.6 (get_page()) every PTE. */
START_TEST(pte_thp)
{
	struct cgctl_move_input in;

	inv_reset();
	groups[0].anon_exclusive = 512 + 8;
	groups[0].thp = 512;
	groups[0].thp_heads = 1;
	in = input();
	ck_assert_uint_eq(in.from.thp_pte, 512);
	ck_assert_uint_eq(in.from.thp_pte_counted, 1);
	ck_assert_uint_eq(in.from.anon_excl, 8);
	ck_assert_uint_eq(in.from.thp, 0);
	/* 6.5: 8 + 1 precharged, a batch of 64 charged (55 to the stock), the head's page
	 * cancelled: B's counter holds 8 moved + 55 stocked */
	pte_thp_move(K(6, 5, 0), &in, 9, 8 + 55);
	/* 6.6: all 520 precharged (more than a batch: charged exactly), 512 cancelled */
	pte_thp_move(K(6, 6, 0), &in, 520, 8);
}
END_TEST

/* the precharge of PTE-mapped pages can make the attach fail although they would not
 * move (6.6+): B has room for what moves, not for what is precharged.  6.1 counts the
 * head only: 9 pages fit */
START_TEST(pte_thp_refused)
{
	struct cgctl_move_expect e;
	struct cgctl_move_input in;

	inv_reset();
	groups[0].anon_exclusive = 512 + 8;
	groups[0].thp = 512;
	groups[0].thp_heads = 1;
	in = input();
	mk(K(6, 6, 0), 0, 520, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, B, CGCTL_MEMCG_MEMORY, 100, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 520, &e), 0);
	ck_assert_int_eq(e.plan.err, -ENOMEM);
	ck_assert(!e.plan.moves);
	ck_assert_uint_eq(e.plan.moved, 0);
	ck_assert(e.oom_risk);
	ck_assert_uint_eq(e.headroom_pages, 100);
	ck_assert_uint_eq(usage(B), 0);
	teardown();
	mk(K(6, 1, 0), 0, 520, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, B, CGCTL_MEMCG_MEMORY, 100, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 520, &e), 0);
	ck_assert_int_eq(e.plan.err, 0);
	ck_assert(e.plan.moves);
	ck_assert_uint_eq(e.plan.precharge, 9);
	ck_assert_uint_eq(e.plan.moved, 8);
	/* a batch of 64 fits under 100: 8 moved, 55 stocked, the head cancelled */
	ck_assert_uint_eq(usage(B), 8 + 55);
}
END_TEST

/* large file folios that are not PMD THPs: file_large, bit 1, never moved; a 16-page
 * folio mapped by PTEs counts its head before 6.6, all 16 after */
START_TEST(file_and_shmem)
{
	struct cgctl_move_expect e;
	struct cgctl_move_input in;

	inv_reset();
	groups[0].file = 46;
	groups[0].shmem = 40;
	groups[0].thp = 16;	/* a large shmem folio mapped by PTEs */
	groups[0].thp_heads = 1;
	in = input();
	ck_assert_uint_eq(in.from.file, 46);
	ck_assert_uint_eq(in.from.shmem, 24);
	ck_assert_uint_eq(in.from.file_large, 16);
	ck_assert_uint_eq(in.from.file_large_counted, 1);
	ck_assert_uint_eq(in.from.thp_pte_counted, 0);
	mk(K(6, 1, 0), 0, 86, CGCTL_MOVE_CHARGE_ANON);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 86, &e), 0);
	ck_assert_uint_eq(e.plan.moved, 0);	/* bit 0 only: no file page qualifies */
	teardown();
	mk(K(6, 1, 0), 0, 86, CGCTL_MOVE_CHARGE_ANON | CGCTL_MOVE_CHARGE_FILE);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 86, &e), 0);
	ck_assert_uint_eq(e.plan.precharge, 71);
	ck_assert_uint_eq(e.plan.moved, 70);
	ck_assert_uint_eq(e.plan.stays, 16);
	teardown();
	mk(K(6, 6, 0), 0, 86, CGCTL_MOVE_CHARGE_ANON | CGCTL_MOVE_CHARGE_FILE);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 86, &e), 0);
	ck_assert_uint_eq(e.plan.precharge, 86);
	ck_assert_uint_eq(e.plan.moved, 70);
	ck_assert_uint_eq(e.plan.stays, 16);
}
END_TEST

/* anon swap moves with bit 0 and memsw accounting; swapped shmem's charge moves with
 * bit 1 before 5.10 only (mc_handle_file_pte(): find_get_incore_page() since 5.10) */
START_TEST(swap)
{
	struct cgctl_move_input in = { .from = { .swap = 16, .shmem_swap = 8 } };
	struct cgctl_move_expect e;
	unsigned int both = CGCTL_MOVE_CHARGE_ANON | CGCTL_MOVE_CHARGE_FILE;

	inv_reset();
	inv.swap_pages = 16;
	ck_assert_uint_eq(input().from.swap, 16);

	mk(K(6, 1, 0), CGCTL_MEMCG_SWAP_ACCOUNT, 0, both);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 0, &e), 0);
	ck_assert_uint_eq(e.plan.moved_swap, 16);
	ck_assert_uint_eq(e.plan.stays_swap, 8);
	teardown();
	mk(K(5, 4, 0), CGCTL_MEMCG_SWAP_ACCOUNT, 0, both);
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 0, &e), 0);
	ck_assert_uint_eq(e.plan.moved_swap, 24);
	teardown();
	mk(K(6, 1, 0), 0, 0, both);	/* no memsw accounting: no swap charge to move */
	ck_assert_int_eq(cgctl_move_expect_input(t, A, B, &in, 0, &e), 0);
	ck_assert_uint_eq(e.plan.moved_swap, 0);
}
END_TEST

/* pages charged elsewhere never move; uncharged ones are in no class; unknown owners
 * are all taken as from's */
START_TEST(owners)
{
	struct cgctl_move_input in;

	inv_reset();
	inv.n_groups = 3;
	groups[0].anon_exclusive = 10;
	groups[1].ino = INO_B;
	groups[1].file = 7;
	groups[2].ino = 0;
	groups[2].file = 3;
	in = input();
	ck_assert_uint_eq(in.from.anon_excl, 10);
	ck_assert_uint_eq(in.elsewhere.file, 7);
	ck_assert_uint_eq(in.from.file, 0);
	inv.unknown = CGCTL_INV_UNKNOWN_OWNER;
	ck_assert_int_eq(cgctl_move_input_from_inventory(&inv, 0, &in), 0);
	ck_assert_uint_eq(in.from.file, 10);
	ck_assert_int_eq(cgctl_move_input_from_inventory(NULL, 0, &in), -EINVAL);
}
END_TEST

/* validate's move driver and `cgctl move` expect the same transfer for one inventory */
START_TEST(driver_equals_cli)
{
	static const unsigned int flags[] = { 1, 3 };
	struct cgctl_move_expect cli, drv;
	struct cgctl_move_input in;
	int werr;

	inv_reset();
	inv.n_groups = 2;
	groups[0].anon_exclusive = 512 + 40;
	groups[0].anon_shared = 512 + 20;
	groups[0].anon_shared_mc2 = 512 + 5;
	groups[0].thp = 1024 + 512;
	groups[0].thp_pmd = 1024;
	groups[0].anon_exclusive += 512;
	groups[0].file = 12;
	groups[0].shmem = 9;
	groups[1].ino = INO_B;
	groups[1].file = 5;
	inv.swap_pages = 3;
	inv.present_pages = 1600;
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct vmove_params p = { .kind = VMOVE_ANON, .pages = 64, .flags = flags[i] };
		uint64_t n;

		ck_assert_int_eq(cgctl_move_input_from_inventory(&inv, INO_A, &in), 1);
		n = in.from.anon_excl + in.from.anon_shared2 + in.from.anon_shared_more +
		    in.from.file + in.from.shmem + in.from.thp + in.from.thp_pte +
		    in.from.file_large + in.from.swap;
		mk(K(6, 1, 0), 0, n, flags[i]);
		ck_assert_int_eq(cgctl_move_expect_inventory(t, A, B, &inv, INO_A, &cli), 0);
		ck_assert_int_eq(vmove_predict(K(6, 1, 0), 1, 7, false, &p, &in, &drv, &werr, NULL), 0);
		ck_assert_int_eq(werr, 0);
		ck_assert(cli.have && drv.have);
		ck_assert_uint_eq(cli.plan.moved, drv.plan.moved);
		ck_assert_uint_eq(cli.plan.moved_swap, drv.plan.moved_swap);
		ck_assert_uint_eq(cli.plan.precharge, drv.plan.precharge);
		/* and each PMD THP once: 1024 + 40 exclusive + 20 shared, plus bit 1's files */
		ck_assert_uint_eq(cli.plan.moved, 1024 + 40 + 20 + (flags[i] & 2 ? 21 : 0));
		teardown();
	}
}
END_TEST

/* one reader of the counters, v1 and v2: unlimited and absent both UINT64_MAX, the
 * present mask tells them apart; a model seeded from them with the ancestors */
static char *counters_root(void)
{
	char *root = tu_mkdtemp();
	const char *m = "sys/fs/cgroup/memory/", *u = "sys/fs/cgroup/unified/";
	static const char *const v1[][2] = {
		{ "memory.usage_in_bytes", "8388608\n" },
		{ "memory.limit_in_bytes", "9223372036854771712\n" },
		{ "memory.use_hierarchy", "1\n" },
		{ "memory.memsw.usage_in_bytes", "8388608\n" },
		{ "a/memory.usage_in_bytes", "4194304\n" },
		{ "a/memory.limit_in_bytes", "1073741824\n" },
		{ "a/memory.failcnt", "3\n" },
		{ "a/memory.max_usage_in_bytes", "5242880\n" },
		{ "a/memory.soft_limit_in_bytes", "9223372036854771712\n" },
		{ "a/memory.move_charge_at_immigrate", "3\n" },
		{ "a/memory.use_hierarchy", "1\n" },
		{ "a/memory.memsw.usage_in_bytes", "4308992\n" },
		{ "a/memory.memsw.limit_in_bytes", "9223372036854771712\n" },
		{ "a/b/memory.usage_in_bytes", "4096\n" },
		{ "a/b/memory.limit_in_bytes", "2097152\n" },
	};
	char rel[256];

	ck_assert_ptr_nonnull(root);
	tu_write(root, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n"
					"2 /sys/fs/cgroup/unified memory\n");
	for (size_t i = 0; i < sizeof(v1) / sizeof(v1[0]); i++) {
		snprintf(rel, sizeof(rel), "%s%s", m, v1[i][0]);
		ck_assert_int_eq(tu_write(root, rel, v1[i][1]), 0);
	}
	snprintf(rel, sizeof(rel), "%sc/memory.current", u);
	tu_write(root, rel, "12288\n");
	snprintf(rel, sizeof(rel), "%sc/memory.max", u);
	tu_write(root, rel, "max\n");
	return root;
}

START_TEST(counters_and_model)
{
	char *root = counters_root();
	const struct cgctl_mount *mounts, *v1 = NULL, *v2 = NULL;
	struct cgctl_mem_counters c;
	struct cgctl_mem_model mm;
	struct cgctl_memcg_state s;
	struct cgctl_ctx *ctx;
	int n, id;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	n = cgctl_mounts(ctx, &mounts);
	for (int i = 0; i < n; i++)
		*(mounts[i].version == 2 ? &v2 : &v1) = &mounts[i];
	ck_assert(v1 && v2);

	ck_assert_int_eq(cgctl_mem_counters_read(ctx, v1, "/a", &c), 0);
	ck_assert_uint_eq(c.usage, 4194304);
	ck_assert_uint_eq(c.limit, 1073741824);
	ck_assert_uint_eq(c.failcnt, 3);
	ck_assert_uint_eq(c.max_usage, 5242880);
	ck_assert_uint_eq(c.soft_limit, UINT64_MAX);	/* unlimited */
	ck_assert_uint_eq(c.move_charge, 3);
	ck_assert(c.present_memsw);
	ck_assert_uint_eq(c.memsw_limit, UINT64_MAX);
	ck_assert_uint_eq(c.memsw_failcnt, UINT64_MAX);	/* absent */
	ck_assert_uint_eq(c.present, CGCTL_MEMC_USAGE | CGCTL_MEMC_LIMIT | CGCTL_MEMC_FAILCNT |
			  CGCTL_MEMC_MAX_USAGE | CGCTL_MEMC_SOFT_LIMIT | CGCTL_MEMC_MOVE_CHARGE);
	ck_assert_int_eq(cgctl_mem_counters_read(ctx, v1, "/a/b", &c), 0);
	ck_assert(!c.present_memsw);
	ck_assert(!(c.present & CGCTL_MEMC_FAILCNT));
	ck_assert_uint_eq(c.failcnt, UINT64_MAX);
	ck_assert_int_eq(cgctl_mem_counters_read(ctx, v1, "/nope", &c), -ENOENT);

	ck_assert_int_eq(cgctl_mem_counters_read(ctx, v2, "/c", &c), 0);
	ck_assert_uint_eq(c.usage, 12288);
	ck_assert_uint_eq(c.limit, UINT64_MAX);
	ck_assert_uint_eq(c.present, CGCTL_MEMC_USAGE | CGCTL_MEMC_LIMIT);
	ck_assert(!c.present_memsw);
	/* the v2 root has no memory.current: read, nothing present; a missing cgroup fails */
	ck_assert_int_eq(cgctl_mem_counters_read(ctx, v2, "/", &c), 0);
	ck_assert_uint_eq(c.usage, UINT64_MAX);
	ck_assert_uint_eq(c.present, 0);
	ck_assert_int_eq(cgctl_mem_counters_read(ctx, v2, "/nope", &c), -ENOENT);

	ck_assert_int_eq(cgctl_mem_model_init(ctx, v1, K(6, 1, 0), 2, &mm), 0);
	id = cgctl_mem_model_node(ctx, &mm, "/a/b");
	ck_assert_int_eq(id, 2);
	ck_assert_uint_eq(mm.n, 3);
	ck_assert_str_eq(mm.paths[1], "/a");
	ck_assert_int_eq(cgctl_mem_model_node(ctx, &mm, "/a"), 1);
	ck_assert_int_eq(cgctl_memcg_get(mm.tree, 1, &s), 0);
	ck_assert_uint_eq(s.memory.usage, 1024);
	ck_assert_uint_eq(s.memory.max, 262144);
	ck_assert_uint_eq(s.memory.watermark, 1280);
	ck_assert_uint_eq(s.memory.failcnt, 3);
	ck_assert_uint_eq(s.memsw.usage, 1052);
	ck_assert_uint_eq(s.move_charge, 3);
	ck_assert_int_eq(cgctl_memcg_get(mm.tree, 2, &s), 0);
	ck_assert_uint_eq(s.memory.max, 512);
	ck_assert_int_eq(cgctl_memcg_parent(mm.tree, 2), 1);
	ck_assert_int_eq(cgctl_mem_model_node(ctx, &mm, "a"), -EINVAL);
	ck_assert_uint_eq(cgctl_mem_subtree_size(ctx, v1, "/a"), 2);
	/* counted up to a bound: what the stock can hold, not every sibling */
	ck_assert_uint_eq(cgctl_mem_subtree_size(ctx, v1, "/"), 3);
	ck_assert_uint_eq(cgctl_mem_subtree_size_upto(ctx, v1, "/", 100), 3);
	ck_assert_uint_eq(cgctl_mem_subtree_size_upto(ctx, v1, "/", 2), 2);
	ck_assert_uint_eq(cgctl_mem_subtree_size_upto(ctx, v1, "/", 1), 1);
	ck_assert_uint_eq(cgctl_mem_subtree_size_upto(ctx, v1, "/", 0), 1);
	cgctl_mem_model_fini(&mm);
	cgctl_unref(ctx);
	tu_rmtree(root);
	free(root);
}
END_TEST

START_TEST(eras)
{
	ck_assert(cgctl_memcg_moves_charges(K(6, 1, 0)));
	ck_assert(cgctl_memcg_moves_charges(K(6, 12, 0)));
	ck_assert(!cgctl_memcg_moves_charges(K(6, 13, 0)));
	ck_assert(!cgctl_memcg_moves_charges(K(2, 6, 33)));
	ck_assert(!cgctl_memcg_moves_charges(0));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("predict-move");
	TCase *tc = tcase_create("plan");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, exclusive);
	tcase_add_test(tc, reported_deltas);
	tcase_add_test(tc, expect_getters);
	tcase_add_test(tc, shared);
	tcase_add_test(tc, pmd_thp);
	tcase_add_test(tc, pte_thp);
	tcase_add_test(tc, pte_thp_refused);
	tcase_add_test(tc, file_and_shmem);
	tcase_add_test(tc, swap);
	tcase_add_test(tc, owners);
	tcase_add_test(tc, driver_equals_cli);
	tcase_add_test(tc, eras);
	tcase_add_test(tc, counters_and_model);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
