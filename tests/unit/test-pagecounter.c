/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Hierarchical page counter: charge walk, roll-back, failcnt placement, watermarks. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "engine/pagecounter.h"

static struct cg_counter root, parent, child;

static void setup(void)
{
	cg_counter_init(&root, NULL, true);
	cg_counter_init(&parent, &root, true);
	cg_counter_init(&child, &parent, true);
}

START_TEST(charge_walks_to_root)
{
	struct cg_counter *fail = &root;

	ck_assert(cg_counter_try_charge(&child, 10, &fail));
	ck_assert_ptr_null(fail);
	ck_assert_uint_eq(child.usage, 10);
	ck_assert_uint_eq(parent.usage, 10);
	ck_assert_uint_eq(root.usage, 10);
	ck_assert_uint_eq(root.watermark, 10);
	cg_counter_uncharge(&child, 4);
	ck_assert_uint_eq(root.usage, 6);
	ck_assert_uint_eq(child.watermark, 10);
}
END_TEST

/* limit hit at the parent: failcnt there, child rolled back, child watermark kept */
START_TEST(failure_at_ancestor)
{
	struct cg_counter *fail = NULL;

	parent.max = 100;
	ck_assert(cg_counter_try_charge(&child, 90, &fail));
	ck_assert(!cg_counter_try_charge(&child, 64, &fail));
	ck_assert_ptr_eq(fail, &parent);
	ck_assert_uint_eq(parent.failcnt, 1);
	ck_assert_uint_eq(child.failcnt, 0);
	ck_assert_uint_eq(root.failcnt, 0);
	ck_assert_uint_eq(child.usage, 90);
	ck_assert_uint_eq(parent.usage, 90);
	ck_assert_uint_eq(root.usage, 90);
	/* the speculative charge raised the child's watermark above the parent's limit */
	ck_assert_uint_eq(child.watermark, 154);
	ck_assert_uint_eq(parent.watermark, 90);
	ck_assert_uint_le(parent.watermark, parent.max);
}
END_TEST

START_TEST(failure_at_leaf)
{
	struct cg_counter *fail = NULL;

	child.max = 5;
	ck_assert(!cg_counter_try_charge(&child, 6, &fail));
	ck_assert_ptr_eq(fail, &child);
	ck_assert_uint_eq(child.failcnt, 1);
	ck_assert_uint_eq(child.usage + parent.usage + root.usage, 0);
	ck_assert(cg_counter_try_charge(&child, 5, &fail));
	ck_assert_uint_eq(cg_counter_margin(&child), 0);
}
END_TEST

/* 6.15+: a leaf that does not track failcnt leaves the failing level's failcnt alone */
START_TEST(failcnt_leaf_flag)
{
	struct cg_counter *fail = NULL;

	child.track_failcnt = false;
	parent.max = 1;
	ck_assert(!cg_counter_try_charge(&child, 2, &fail));
	ck_assert_ptr_eq(fail, &parent);
	ck_assert_uint_eq(parent.failcnt, 0);
	/* the parent's own flag does not matter, only the charging leaf's */
	parent.track_failcnt = false;
	child.track_failcnt = true;
	ck_assert(!cg_counter_try_charge(&child, 2, &fail));
	ck_assert_uint_eq(parent.failcnt, 1);
}
END_TEST

START_TEST(forced_charge_exceeds_limit)
{
	struct cg_counter *fail = NULL;

	parent.max = 10;
	cg_counter_charge(&child, 15);
	ck_assert_uint_eq(parent.usage, 15);
	ck_assert_uint_eq(parent.watermark, 15);
	ck_assert_uint_eq(cg_counter_margin(&parent), 0);
	/* any further try-charge fails at the over-limit level */
	ck_assert(!cg_counter_try_charge(&child, 1, &fail));
	ck_assert_ptr_eq(fail, &parent);
}
END_TEST

START_TEST(uncharge_clamps)
{
	cg_counter_charge(&child, 3);
	cg_counter_uncharge(&child, 10);
	ck_assert_uint_eq(child.usage, 0);
	ck_assert_uint_eq(root.usage, 0);
}
END_TEST

START_TEST(set_max_below_usage)
{
	cg_counter_charge(&child, 50);
	ck_assert_int_eq(cg_counter_set_max(&parent, 49), -EBUSY);
	ck_assert_uint_eq(parent.max, UINT64_MAX);
	ck_assert_int_eq(cg_counter_set_max(&parent, 50), 0);
	ck_assert_uint_eq(parent.max, 50);
}
END_TEST

/* random charges: usage never exceeds max on any level, roll-back keeps levels equal */
START_TEST(random_invariants)
{
	struct cg_counter *fail;
	unsigned int seed = 7;

	parent.max = 1000;
	child.max = 700;
	for (int i = 0; i < 20000; i++) {
		uint64_t n = (uint64_t)(rand_r(&seed) % 70) + 1;

		if (rand_r(&seed) % 3)
			cg_counter_try_charge(&child, n, &fail);
		else
			cg_counter_uncharge(&child, n);
		ck_assert_uint_le(child.usage, child.max);
		ck_assert_uint_eq(child.usage, parent.usage);
		ck_assert_uint_eq(parent.usage, root.usage);
		ck_assert_uint_le(parent.watermark, parent.max);
	}
	ck_assert_uint_gt(child.failcnt, 0);
	ck_assert_uint_eq(parent.failcnt, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pagecounter");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, charge_walks_to_root);
	tcase_add_test(tc, failure_at_ancestor);
	tcase_add_test(tc, failure_at_leaf);
	tcase_add_test(tc, failcnt_leaf_flag);
	tcase_add_test(tc, forced_charge_exceeds_limit);
	tcase_add_test(tc, uncharge_clamps);
	tcase_add_test(tc, set_max_below_usage);
	tcase_add_test(tc, random_invariants);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
