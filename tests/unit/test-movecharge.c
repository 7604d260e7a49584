/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Move-charge planner: qualification per era, precharge, counters, root, removal. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"

#define K CGCTL_KVER

static struct cgctl_memcg_tree *t;
static int P, A, B;	/* P = parent of siblings A (from) and B (to) */

static struct cgctl_memcg_state st(int id)
{
	struct cgctl_memcg_state s;

	if (cgctl_memcg_get(t, id, &s) < 0)
		abort();
	return s;
}

/* a tree whose A holds @pages true pages with no stock anywhere */
static void mk(uint32_t kver, unsigned int flags, uint64_t pages)
{
	ck_assert_int_eq(cgctl_memcg_tree_new(&t, kver, 1, flags, 3), 0);
	P = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	A = cgctl_memcg_create(t, P);
	B = cgctl_memcg_create(t, P);
	if (kver < K(5, 11, 0))
		ck_assert_int_eq(cgctl_memcg_set_use_hierarchy(t, CGCTL_MEMCG_ROOT, true), -EBUSY);
	if (pages)
		ck_assert_int_eq(cgctl_memcg_charge(t, A, 0, pages, NULL, NULL), 0);
	cgctl_memcg_drain_all(t, CGCTL_MEMCG_ROOT);
}

static void teardown(void)
{
	cgctl_memcg_tree_free(t);
	t = NULL;
}

static const struct cgctl_move_level *level(const struct cgctl_move_plan *p, int id)
{
	for (unsigned int i = 0; i < p->nlevels; i++)
		if (p->levels[i].id == id)
			return &p->levels[i];
	ck_abort_msg("no level %d", id);
	return NULL;
}

static const struct cgctl_move_input mixed = {
	.from = { .anon_excl = 100, .anon_shared2 = 20, .anon_shared_more = 5, .file = 30 },
	.elsewhere = { .file = 7 },
};

/* 2.6.34: bit 0 only, anon pages mapped once; era-A trees are not hierarchical unless
 * asked, so the model's use_hierarchy default of 0 keeps P out of the chain */
START_TEST(era_2_6_34)
{
	struct cgctl_move_plan p;

	mk(K(2, 6, 34), 0, 155);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 3), -EINVAL);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 1), 0);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &mixed, NULL, &p), 0);
	ck_assert(p.moves);
	ck_assert_int_eq(p.err, 0);
	ck_assert_uint_eq(p.qualify.anon_excl, 100);
	ck_assert_uint_eq(p.qualify.anon_shared2, 0);
	ck_assert_uint_eq(p.precharge, 100);
	ck_assert_uint_eq(p.moved, 100);
	ck_assert_uint_eq(p.stays, 55);
	ck_assert_uint_eq(p.elsewhere, 7);
	ck_assert_uint_eq(st(A).memory.usage, 55);
	/* the bulk res_counter precharge stocks nothing; the walk's one-page precharge
	 * after the last moved page charges a stock batch of 32 (CHARGE_SIZE, 2.6.33+),
	 * and clear_mc cancels the page: 100 + 31 */
	ck_assert_uint_eq(st(B).memory.usage, 131);
	ck_assert_int_eq(p.common, P);
	ck_assert_uint_eq(p.nlevels, 3);
}
END_TEST

/* 2.6.35 - 3.4: mapcount <= 2 moves, file with bit 1; the shared-by-many stay */
START_TEST(era_3_0)
{
	struct cgctl_move_plan p;

	mk(K(3, 0, 0), 0, 155);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 3), 0);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &mixed, NULL, &p), 0);
	ck_assert_uint_eq(p.moved, 150);
	ck_assert_uint_eq(p.stays, 5);
	ck_assert_uint_eq(st(A).memory.usage, 5);
	ck_assert_uint_eq(st(B).memory.usage, 150 + 31);	/* the walk's batch of 32, less 1 */
}
END_TEST

/* 3.5+: any mapcount; common ancestor: usage unchanged, watermark jumps by the precharge */
START_TEST(era_6_12_common_ancestor)
{
	struct cgctl_move_plan p;
	const struct cgctl_move_level *lp;

	mk(K(6, 12, 0), 0, 155);
	ck_assert_uint_eq(st(P).memory.watermark, 155);	/* one charge of 155 > batch */
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 1), 0);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &mixed, NULL, &p), 0);
	ck_assert_uint_eq(p.moved, 125);	/* file needs bit 1 */
	ck_assert_uint_eq(p.stays, 30);
	lp = level(&p, P);
	ck_assert(lp->common);
	ck_assert_uint_eq(lp->before.usage, 155);
	/* + the walk's one-page precharge: a batch of 64, the page cancelled, 63 stocked */
	ck_assert_uint_eq(lp->after.usage, 155 + 63);
	ck_assert_uint_eq(lp->after.watermark, 155 + 125 + 64);
	ck_assert_uint_eq(level(&p, A)->after.usage, 30);
	ck_assert_uint_eq(level(&p, B)->after.usage, 125 + 63);
	ck_assert_uint_eq(st(CGCTL_MEMCG_ROOT).memory.usage, 155 + 63);
}
END_TEST

/* bit 1 alone moves file and shmem, not anon */
START_TEST(file_bit)
{
	struct cgctl_move_plan p;
	struct cgctl_move_input in = { .from = { .anon_excl = 10, .file = 20, .shmem = 5 } };

	mk(K(6, 12, 0), 0, 35);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 2), 0);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &in, NULL, &p), 0);
	ck_assert_uint_eq(p.qualify.file, 20);
	ck_assert_uint_eq(p.qualify.shmem, 5);
	ck_assert_uint_eq(p.moved, 25);
	ck_assert_uint_eq(p.stays, 10);
	/* 25 <= 64: the bulk precharge went through the stock logic: batch 64, 39 stocked;
	 * the walk's one-page precharge took 1 of them, and clear_mc cancelled it */
	ck_assert_uint_eq(st(B).memory.usage, 63);
	ck_assert_uint_eq(st(B).stock, 38);
	ck_assert_uint_eq(st(B).charged, 25);
}
END_TEST

/* THP moves whole with bit 0 (3.5+) */
START_TEST(thp_whole)
{
	struct cgctl_move_plan p;
	struct cgctl_move_input in = { .from = { .thp = 1024, .anon_excl = 3 } };

	mk(K(6, 1, 0), 0, 1027);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 1), 0);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &in, NULL, &p), 0);
	ck_assert_uint_eq(p.qualify.thp, 1024);
	ck_assert_uint_eq(p.moved, 1027);
	ck_assert_uint_eq(st(B).memory.usage, 1027 + 63);	/* the walk's batch, less 1 */
	ck_assert_uint_eq(st(A).memory.usage, 0);
}
END_TEST

/* swap entries: to.memory gets M, to.memsw M + W; from.memsw loses M + W */
START_TEST(swap_entries)
{
	struct cgctl_move_plan p;
	struct cgctl_move_input in = { .from = { .anon_excl = 60, .swap = 40 } };

	mk(K(6, 12, 0), CGCTL_MEMCG_SWAP_ACCOUNT, 100);
	ck_assert_int_eq(cgctl_memcg_swapout(t, A, 40), 0);
	ck_assert_int_eq(cgctl_memcg_set_move_charge(t, B, 1), 0);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &in, NULL, &p), 0);
	ck_assert_uint_eq(p.precharge, 100);
	ck_assert_uint_eq(p.moved_swap, 40);
	/* + the walk's batch of 64 on both counters, less the cancelled page */
	ck_assert_uint_eq(st(B).memory.usage, 60 + 63);
	ck_assert_uint_eq(st(B).memsw.usage, 100 + 63);
	ck_assert_uint_eq(st(A).memory.usage, 0);
	ck_assert_uint_eq(st(A).memsw.usage, 0);
	ck_assert_uint_eq(st(P).memsw.usage, 100 + 63);
	ck_assert_uint_eq(st(P).memory.usage, 60 + 63);
}
END_TEST

/* without memsw accounting swap entries carry no memcg id: they stay */
START_TEST(swap_needs_memsw)
{
	struct cgctl_move_plan p;
	struct cgctl_move_input in = { .from = { .anon_excl = 60, .swap = 40 } };

	mk(K(6, 12, 0), 0, 60);
	cgctl_memcg_set_move_charge(t, B, 1);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &in, NULL, &p), 0);
	ck_assert_uint_eq(p.moved_swap, 0);
	ck_assert_uint_eq(p.stays_swap, 40);
}
END_TEST

/* destination limit: bulk fails, one by one fills to the limit, then ENOMEM; all of the
 * precharge is cancelled and nothing moves */
START_TEST(precharge_enomem)
{
	struct cgctl_move_plan p;

	mk(K(6, 12, 0), 0, 155);
	cgctl_memcg_set_limit(t, B, CGCTL_MEMCG_MEMORY, 50, NULL, NULL);
	cgctl_memcg_set_move_charge(t, B, 3);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &mixed, NULL, &p), 0);
	ck_assert_int_eq(p.err, -ENOMEM);
	ck_assert(!p.moves);
	ck_assert(p.bulk_failed);
	ck_assert_ptr_nonnull(p.reason);
	ck_assert_uint_eq(p.moved, 0);
	ck_assert_uint_eq(p.stays, 155);
	ck_assert_uint_eq(st(B).memory.usage, 0);
	ck_assert_uint_eq(st(A).memory.usage, 155);
	ck_assert_uint_eq(st(P).memory.usage, 155);
	ck_assert_uint_eq(st(B).memory.watermark, 50);
	/* bulk (1) + 50 failed batches + single + post-drain retry: 54 */
	ck_assert_uint_eq(st(B).memory.failcnt, 54);
}
END_TEST

/* common ancestor near its limit: the move fails although the total would not change */
START_TEST(common_ancestor_limit)
{
	struct cgctl_move_plan p;

	mk(K(6, 12, 0), 0, 155);
	cgctl_memcg_set_limit(t, P, CGCTL_MEMCG_MEMORY, 205, NULL, NULL);
	cgctl_memcg_set_move_charge(t, B, 3);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &mixed, NULL, &p), 0);
	ck_assert_int_eq(p.err, -ENOMEM);
	ck_assert_uint_gt(st(P).memory.failcnt, 0);
	ck_assert_uint_eq(st(B).memory.failcnt, 0);
	ck_assert_uint_eq(st(P).memory.usage, 155);
	ck_assert_uint_eq(st(P).memory.watermark, 205);
	/* the same with room for the transient double charge succeeds */
	cgctl_memcg_set_limit(t, P, CGCTL_MEMCG_MEMORY, 155 + 155, NULL, NULL);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &mixed, NULL, &p), 0);
	ck_assert_int_eq(p.err, 0);
	ck_assert_uint_eq(st(P).memory.watermark, 310);
	ck_assert_uint_eq(st(P).memory.usage, 155);
}
END_TEST

/* root: moving into root charges nothing; moving out of it uncharges nothing */
START_TEST(root_special)
{
	struct cgctl_move_plan p;
	struct cgctl_move_input in = { .from = { .anon_excl = 40 } };

	mk(K(6, 12, 0), 0, 40);
	cgctl_memcg_set_move_charge(t, CGCTL_MEMCG_ROOT, 1);
	ck_assert_int_eq(cgctl_move_plan(t, A, CGCTL_MEMCG_ROOT, 0, &in, NULL, &p), 0);
	ck_assert_uint_eq(p.moved, 40);
	ck_assert_uint_eq(st(A).memory.usage, 0);
	ck_assert_uint_eq(st(P).memory.usage, 0);
	ck_assert_uint_eq(st(CGCTL_MEMCG_ROOT).charged, 40);
	ck_assert_int_eq(p.common, CGCTL_MEMCG_ROOT);
	/* and back out: B is charged, the root's counter is not uncharged */
	cgctl_memcg_set_move_charge(t, B, 1);
	ck_assert_int_eq(cgctl_move_plan(t, CGCTL_MEMCG_ROOT, B, 0, &in, NULL, &p), 0);
	/* 40 + 24 stocked by the batch, 1 of them taken by the walk's one-page precharge
	 * and cancelled */
	ck_assert_uint_eq(st(B).memory.usage, 63);
	ck_assert_uint_eq(st(B).charged, 40);
	ck_assert_uint_eq(st(CGCTL_MEMCG_ROOT).charged, 0);
}
END_TEST

/* 6.13+ and v2: nothing moves, everything stays with the source */
START_TEST(removed_and_v2)
{
	static const struct {
		uint32_t kver;
		unsigned int flags;
		const char *reason;
	} cases[] = {
		{ K(6, 13, 0), 0, "this kernel no longer moves charges; removed in 6.13" },
		{ K(6, 18, 0), 0, "this kernel no longer moves charges; removed in 6.13" },
		{ K(6, 1, 0), CGCTL_MEMCG_V2, "cgroup v2 never moves charges" },
		{ K(2, 6, 33), 0, "move_charge_at_immigrate appeared in 2.6.34" },
	};

	for (unsigned int i = 0; i < 4; i++) {
		struct cgctl_move_plan p;

		mk(cases[i].kver, cases[i].flags, 155);
		ck_assert_int_ne(cgctl_memcg_set_move_charge(t, B, 1), 0);
		ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &mixed, NULL, &p), 0);
		ck_assert(!p.moves);
		ck_assert_str_eq(p.reason, cases[i].reason);
		ck_assert_uint_eq(p.moved, 0);
		ck_assert_uint_eq(p.stays, 155);
		ck_assert_uint_eq(st(A).memory.usage, 155);
		ck_assert_uint_eq(st(B).memory.usage, 0);
		ck_assert_uint_eq(level(&p, P)->after.watermark, level(&p, P)->before.watermark);
		teardown();
	}
}
END_TEST

START_TEST(flag_zero_and_not_owner)
{
	struct cgctl_move_plan p;
	struct cgctl_move_input in = mixed;

	mk(K(6, 12, 0), 0, 155);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &mixed, NULL, &p), 0);
	ck_assert(!p.moves);
	ck_assert_str_eq(p.reason, "move_charge_at_immigrate of the destination is 0");
	cgctl_memcg_set_move_charge(t, B, 3);
	in.not_mm_owner = true;
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &in, NULL, &p), 0);
	ck_assert(!p.moves);
	ck_assert_int_eq(cgctl_move_plan(t, A, A, 0, &in, NULL, &p), -EINVAL);
	ck_assert_int_eq(cgctl_move_plan(t, A, 99, 0, &in, NULL, &p), -EINVAL);
}
END_TEST

/* Nothing qualifies (only file pages, bit 0): v6.1 still precharges, with 0 pages, and
 * try_charge_memcg(to, 0) charges a batch of 64 into the stock of a CPU that does not
 * cache the destination; a CPU that caches it, a batch over the limit and the
 * res_counter era (3.18) charge nothing.  Then the walk meets a PTE with no precharge
 * left and precharges one page, which clear_mc cancels: taken from that stock (63 left:
 * to_usage_change 63 observed in the 6.1 VM), from a cached stock, as one page under
 * the limit, or in 3.18 as a res_counter batch of 32 (31 stay in the stock) */
START_TEST(nothing_qualifies)
{
	static const struct cgctl_move_input file_only = { .from = { .file = 30 } };
	struct cgctl_move_plan p;

	mk(K(6, 1, 0), 0, 30);
	cgctl_memcg_set_move_charge(t, B, 1);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &file_only, NULL, &p), 0);
	ck_assert(p.moves);
	ck_assert_uint_eq(p.precharge, 0);
	ck_assert_uint_eq(p.moved, 0);
	ck_assert_uint_eq(p.stays, 30);
	ck_assert_uint_eq(st(B).memory.usage, 63);
	ck_assert_int_eq(cgctl_memcg_stock_pages(t, B, 0), 63);
	ck_assert_uint_eq(level(&p, B)->after.usage - level(&p, B)->before.usage, 63);
	ck_assert_uint_eq(st(A).memory.usage, 30);
	ck_assert_uint_eq(st(P).memory.usage, 93);
	/* CPU 0's stock caches B now: consume_stock(B, 0) succeeds, and the walk's page
	 * comes out of it too */
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &file_only, NULL, &p), 0);
	ck_assert_uint_eq(st(B).memory.usage, 62);
	teardown();

	mk(K(6, 1, 0), 0, 30);
	cgctl_memcg_set_move_charge(t, B, 1);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, B, CGCTL_MEMCG_MEMORY, 10, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &file_only, NULL, &p), 0);
	ck_assert(p.moves);
	ck_assert_uint_eq(st(B).memory.usage, 0);
	teardown();

	mk(K(3, 18, 0), 0, 30);
	cgctl_memcg_set_move_charge(t, B, 1);
	ck_assert_int_eq(cgctl_move_plan(t, A, B, 0, &file_only, NULL, &p), 0);
	ck_assert(p.moves);
	ck_assert_uint_eq(st(B).memory.usage, 31);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("movecharge");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, era_2_6_34);
	tcase_add_test(tc, era_3_0);
	tcase_add_test(tc, era_6_12_common_ancestor);
	tcase_add_test(tc, file_bit);
	tcase_add_test(tc, thp_whole);
	tcase_add_test(tc, swap_entries);
	tcase_add_test(tc, swap_needs_memsw);
	tcase_add_test(tc, precharge_enomem);
	tcase_add_test(tc, common_ancestor_limit);
	tcase_add_test(tc, root_special);
	tcase_add_test(tc, removed_and_v2);
	tcase_add_test(tc, flag_zero_and_not_owner);
	tcase_add_test(tc, nothing_qualifies);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
