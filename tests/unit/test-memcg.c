/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* memcg model: charge sequence, failcnt placement, memsw order, files per era, limits. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"

#define K CGCTL_KVER
#define MiB (1024 * 1024 / CGCTL_PAGE_SIZE)

static struct cgctl_memcg_state st(struct cgctl_memcg_tree *t, int id)
{
	struct cgctl_memcg_state s;

	if (cgctl_memcg_get(t, id, &s) < 0)
		abort();
	return s;
}

static const char *file(struct cgctl_memcg_tree *t, int id, const char *name)
{
	static char buf[256];

	if (cgctl_memcg_file(t, id, name, buf, sizeof(buf)) < 0)
		return "ENOENT";
	return buf;
}

/*
 * The measured hierarchy case (kernel-memory-model.md appendix A): parent limit 32 MiB
 * holding 4 pages of its own, child unlimited faulting one page at a time on one CPU.
 * Hand count for the model (6.18, batch 64): 127 batches fill the child to 8128; each of
 * the next 60 faults fails its batch at the parent (failcnt 60) and charges one page;
 * the fault at 8188 fails batch + single + the post-drain retry + 16 retries = 19.
 * The child's watermark is 8188 + 64 = 8252 (measured 8252), the parent's 8192.
 */
START_TEST(failcnt_lands_on_parent)
{
	struct cgctl_memcg_tree *t;
	struct cgctl_memcg_charge_result r;
	int p, c, rc = 0;
	uint64_t faults = 0;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 2, 0, 1), 0);
	p = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	c = cgctl_memcg_create(t, p);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, p, CGCTL_MEMCG_MEMORY, 32 * MiB, NULL, NULL),
			 0);
	ck_assert_int_eq(cgctl_memcg_charge(t, p, 1, 4, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_memcg_drain_all(t, p), 60);
	while (rc == 0 && faults < 64 * MiB) {
		rc = cgctl_memcg_charge(t, c, 0, 1, NULL, &r);
		faults++;
	}
	ck_assert_int_eq(rc, -ENOMEM);
	ck_assert_uint_eq(faults, 8189);
	ck_assert_int_eq(r.over, p);
	ck_assert_uint_eq(r.failures, 19);
	ck_assert(r.drained);
	ck_assert_uint_eq(r.ooms, 1);
	ck_assert_uint_eq(st(t, p).memory.failcnt, 79);
	ck_assert_uint_eq(st(t, c).memory.failcnt, 0);
	ck_assert_uint_eq(st(t, c).memory.watermark, 8252);
	ck_assert_uint_eq(st(t, p).memory.watermark, 8192);
	ck_assert_str_eq(file(t, c, "memory.max_usage_in_bytes"), "33800192\n");
	ck_assert_str_eq(file(t, p, "memory.max_usage_in_bytes"), "33554432\n");
	ck_assert_str_eq(file(t, c, "memory.failcnt"), "0\n");
	cgctl_memcg_tree_free(t);
}
END_TEST

/* 2.6.32: no batch, 1 + 5 retries per failing fault, res_counter failcnt on the leaf */
START_TEST(era_2_6_32_retries)
{
	struct cgctl_memcg_tree *t;
	struct cgctl_memcg_charge_result r;
	int c;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(2, 6, 32), 1, 0, 1), 0);
	c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 10, NULL, NULL), 0);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(cgctl_memcg_charge(t, c, 0, 1, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_memcg_charge(t, c, 0, 1, NULL, &r), -ENOMEM);
	ck_assert_uint_eq(r.failures, 6);
	ck_assert_uint_eq(st(t, c).memory.failcnt, 6);
	ck_assert_str_eq(file(t, c, "memory.usage_in_bytes"), "40960\n");
	cgctl_memcg_tree_free(t);
}
END_TEST

/* reclaim that frees pages lets the charge succeed; rounds and events counted */
START_TEST(reclaim_then_success)
{
	struct cgctl_memcg_tree *t;
	struct cgctl_memcg_charge_opts o = { .reclaim_per_round = 2 };
	struct cgctl_memcg_charge_result r;
	int c;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 1, CGCTL_MEMCG_V2, 1), 0);
	c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 100, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_memcg_charge(t, c, 0, 100, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_memcg_charge(t, c, 0, 1, &o, &r), 0);
	ck_assert_uint_eq(r.failures, 2);	/* batch, single */
	ck_assert_uint_eq(r.reclaim_rounds, 1);
	ck_assert_uint_eq(r.reclaimed, 2);
	ck_assert_uint_eq(st(t, c).memory.usage, 99);
	ck_assert_uint_eq(st(t, c).charged, 99);
	ck_assert_str_eq(file(t, c, "memory.events"),
			 "low 0\nhigh 0\nmax 1\noom 0\noom_kill 0\n");
	ck_assert_str_eq(file(t, c, "memory.max"), "409600\n");
	ck_assert_str_eq(file(t, c, "memory.current"), "405504\n");
	ck_assert_str_eq(file(t, CGCTL_MEMCG_ROOT, "memory.current"), "ENOENT");
	ck_assert_str_eq(file(t, c, "memory.failcnt"), "ENOENT");
	cgctl_memcg_tree_free(t);
}
END_TEST

START_TEST(nofail_forces)
{
	struct cgctl_memcg_tree *t;
	struct cgctl_memcg_charge_opts o = { .gfp = CGCTL_MEMCG_GFP_NOFAIL };
	struct cgctl_memcg_charge_result r;
	int c;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 1, 0, 1), 0);
	c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 10, NULL, NULL);
	ck_assert_int_eq(cgctl_memcg_charge(t, c, 0, 15, &o, &r), 0);
	ck_assert(r.forced);
	ck_assert_uint_eq(st(t, c).memory.usage, 15);
	ck_assert_uint_eq(st(t, c).memory.watermark, 15);
	o.gfp = CGCTL_MEMCG_GFP_NOWAIT;
	ck_assert_int_eq(cgctl_memcg_charge(t, c, 0, 1, &o, &r), -ENOMEM);
	ck_assert_uint_eq(r.reclaim_rounds, 0);
	cgctl_memcg_tree_free(t);
}
END_TEST

/* memsw first (3.19+): equal limits fail at memsw, and since 6.15 neither failcnt moves.
 * One failing fault without reclaim = batch attempt + single-page attempt = 2. */
START_TEST(memsw_order_and_failcnt)
{
	static const struct {
		uint32_t kver;
		uint64_t mem_fc, memsw_fc;
	} cases[] = {
		{ K(6, 18, 0), 0, 0 },	/* measured: both stay 0 */
		{ K(6, 1, 0), 0, 2 },	/* memsw fails first, memsw.failcnt counts */
		{ K(2, 6, 33), 2, 0 },	/* res first: the memory counter fails */
	};

	for (unsigned int i = 0; i < 3; i++) {
		struct cgctl_memcg_tree *t;
		struct cgctl_memcg_charge_opts o = { .gfp = CGCTL_MEMCG_GFP_NOWAIT };
		uint64_t n = 0;
		int c;

		ck_assert_int_eq(cgctl_memcg_tree_new(&t, cases[i].kver, 1,
						      CGCTL_MEMCG_SWAP_ACCOUNT, 1), 0);
		c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
		ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 8 * MiB, NULL,
						       NULL), 0);
		ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMSW, 8 * MiB, NULL,
						       NULL), 0);
		while (cgctl_memcg_charge(t, c, 0, 1, &o, NULL) == 0)
			n++;
		ck_assert_uint_eq(n, 8 * MiB);
		ck_assert_uint_eq(st(t, c).memory.failcnt, cases[i].mem_fc);
		ck_assert_uint_eq(st(t, c).memsw.failcnt, cases[i].memsw_fc);
		ck_assert_uint_eq(st(t, c).memsw.usage, 8 * MiB);
		cgctl_memcg_tree_free(t);
	}
}
END_TEST

/* v1 keeps memory.limit <= memsw.limit; a write that breaks it is refused */
START_TEST(memsw_limit_order)
{
	struct cgctl_memcg_tree *t;
	int c;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 1, CGCTL_MEMCG_SWAP_ACCOUNT, 1),
			 0);
	c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	/* memsw below an unlimited memory limit is refused: memory has to go first */
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMSW, 100, NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 80, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMSW, 100, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 101, NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 50, NULL, NULL), 0);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMSW, 49, NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, CGCTL_MEMCG_ROOT, CGCTL_MEMCG_MEMORY, 5, NULL,
					       NULL), -EINVAL);
	ck_assert_str_eq(file(t, c, "memory.memsw.limit_in_bytes"), "409600\n");
	cgctl_memcg_tree_free(t);
	/* no swap accounting: there is no memsw counter to limit */
	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 1, 0, 1), 0);
	c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMSW, 100, NULL, NULL),
			 -EINVAL);
	ck_assert_str_eq(file(t, c, "memory.memsw.usage_in_bytes"), "ENOENT");
	cgctl_memcg_tree_free(t);
}
END_TEST

/* a limit below true usage: reclaim rounds until it fits, -EBUSY when nothing is freed */
START_TEST(limit_below_usage)
{
	struct cgctl_memcg_tree *t;
	struct cgctl_memcg_charge_opts o = { .reclaim_per_round = 32 };
	struct cgctl_memcg_charge_result lr;
	int c;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 1, 0, 1), 0);
	c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	for (int i = 0; i < 300; i++)
		cgctl_memcg_charge(t, c, 0, 1, NULL, NULL);
	ck_assert_uint_eq(st(t, c).memory.usage, 320);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 200, NULL, &lr),
			 -EBUSY);
	ck_assert(lr.drained);
	ck_assert_uint_eq(lr.reclaim_rounds, 1);
	ck_assert_int_eq(lr.over, -1);		/* a limit write names no charge's memcg */
	ck_assert(!lr.from_stock && !lr.forced && lr.counter_pages == 0);
	ck_assert_uint_eq(st(t, c).memory.usage, 300);
	ck_assert_str_eq(file(t, c, "memory.limit_in_bytes"), "9223372036854771712\n");
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 200, &o, &lr), 0);
	ck_assert_uint_eq(lr.reclaim_rounds, 4);	/* 300 - 4 * 32 = 172 <= 200 */
	ck_assert_uint_eq(st(t, c).memory.usage, 172);
	cgctl_memcg_tree_free(t);
}
END_TEST

/* v2 memory.max below usage: set anyway, drain, 16 futile reclaims, then OOM */
START_TEST(v2_max_oom)
{
	struct cgctl_memcg_tree *t;
	struct cgctl_memcg_charge_opts o = { .oom_frees = 50 };
	struct cgctl_memcg_charge_result lr;
	int c;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 12, 0), 1, CGCTL_MEMCG_V2, 1), 0);
	c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	cgctl_memcg_charge(t, c, 0, 300, NULL, NULL);
	ck_assert_int_eq(cgctl_memcg_set_limit(t, c, CGCTL_MEMCG_MEMORY, 200, &o, &lr), 0);
	ck_assert_uint_eq(lr.reclaim_rounds, 16);
	ck_assert_uint_eq(lr.ooms, 2);
	ck_assert_uint_eq(st(t, c).memory.usage, 200);
	ck_assert_str_eq(file(t, c, "memory.max"), "819200\n");
	ck_assert_str_eq(file(t, c, "memory.events"),
			 "low 0\nhigh 0\nmax 0\noom 2\noom_kill 0\n");
	cgctl_memcg_tree_free(t);
}
END_TEST

/* "unlimited" as printed per era; limit rounding per era */
START_TEST(unlimited_and_rounding)
{
	static const struct {
		uint32_t kver;
		const char *unl;
		uint64_t pages_of_4097;
	} cases[] = {
		{ K(2, 6, 33), "9223372036854775807\n", 2 },
		{ K(3, 18, 0), "9223372036854775807\n", 2 },
		{ K(3, 19, 0), "9223372036854771712\n", 1 },
		{ K(6, 18, 0), "9223372036854771712\n", 1 },
	};

	for (unsigned int i = 0; i < 4; i++) {
		struct cgctl_memcg_tree *t;
		int c;

		ck_assert_int_eq(cgctl_memcg_tree_new(&t, cases[i].kver, 1, 0, 1), 0);
		c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
		ck_assert_str_eq(file(t, c, "memory.limit_in_bytes"), cases[i].unl);
		ck_assert_str_eq(file(t, c, "memory.soft_limit_in_bytes"), cases[i].unl);
		ck_assert_uint_eq(cgctl_memcg_limit_pages(cases[i].kver, 4097),
				  cases[i].pages_of_4097);
		ck_assert_uint_eq(cgctl_memcg_limit_pages(cases[i].kver, CGCTL_SIZE_MAX),
				  CGCTL_MEMCG_UNLIMITED);
		cgctl_memcg_tree_free(t);
	}
}
END_TEST

/* the root's usage file is a statistic: stock-free, global in era B */
START_TEST(root_usage_is_statistic)
{
	struct cgctl_memcg_tree *t;
	int a, b;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 1, 0, 1), 0);
	a = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	b = cgctl_memcg_create(t, a);
	cgctl_memcg_charge(t, b, 0, 10, NULL, NULL);
	cgctl_memcg_charge(t, CGCTL_MEMCG_ROOT, 0, 5, NULL, NULL);
	ck_assert_str_eq(file(t, a, "memory.usage_in_bytes"), "262144\n");	/* 64 pages */
	ck_assert_str_eq(file(t, CGCTL_MEMCG_ROOT, "memory.usage_in_bytes"), "61440\n");
	ck_assert_uint_eq(st(t, CGCTL_MEMCG_ROOT).memory.usage, 64);	/* counter != file */
	cgctl_memcg_tree_free(t);
}
END_TEST

/* era A use_hierarchy=0 makes every memcg an island; 5.11+ refuses 0 */
START_TEST(use_hierarchy)
{
	struct cgctl_memcg_tree *t;
	int p, c, q, d;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(2, 6, 33), 1, 0, 1), 0);
	p = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	c = cgctl_memcg_create(t, p);
	cgctl_memcg_set_limit(t, p, CGCTL_MEMCG_MEMORY, 10, NULL, NULL);
	ck_assert_int_eq(cgctl_memcg_charge(t, c, 0, 100, NULL, NULL), 0);
	ck_assert_uint_eq(st(t, p).memory.usage, 0);
	ck_assert_str_eq(file(t, p, "memory.use_hierarchy"), "0\n");
	ck_assert_int_eq(cgctl_memcg_set_use_hierarchy(t, p, true), -EBUSY);
	q = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	ck_assert_int_eq(cgctl_memcg_set_use_hierarchy(t, q, true), 0);
	d = cgctl_memcg_create(t, q);
	ck_assert_int_eq(cgctl_memcg_set_use_hierarchy(t, d, false), -EINVAL);
	cgctl_memcg_set_limit(t, q, CGCTL_MEMCG_MEMORY, 10, NULL, NULL);
	ck_assert_int_eq(cgctl_memcg_charge(t, d, 0, 100, NULL, NULL), -ENOMEM);
	ck_assert_uint_eq(st(t, q).memory.failcnt, 6);
	cgctl_memcg_tree_free(t);
	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 1, 0, 1), 0);
	p = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	ck_assert_int_eq(cgctl_memcg_set_use_hierarchy(t, p, false), -EINVAL);
	ck_assert_int_eq(cgctl_memcg_set_use_hierarchy(t, p, true), 0);
	cgctl_memcg_tree_free(t);
}
END_TEST

/* swap-out keeps memsw charged; the clone is independent */
START_TEST(swapout_and_clone)
{
	struct cgctl_memcg_tree *t, *u;
	int c;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 1, CGCTL_MEMCG_SWAP_ACCOUNT, 1),
			 0);
	c = cgctl_memcg_create(t, CGCTL_MEMCG_ROOT);
	cgctl_memcg_charge(t, c, 0, 100, NULL, NULL);
	ck_assert_int_eq(cgctl_memcg_tree_clone(t, &u), 0);
	ck_assert_int_eq(cgctl_memcg_swapout(t, c, 40), 0);
	ck_assert_uint_eq(st(t, c).memory.usage, 60);
	ck_assert_uint_eq(st(t, c).memsw.usage, 100);
	ck_assert_uint_eq(st(t, CGCTL_MEMCG_ROOT).memsw.usage, 100);
	ck_assert_uint_eq(st(u, c).memory.usage, 100);
	cgctl_memcg_charge(u, c, 0, 1, NULL, NULL);
	ck_assert_uint_eq(st(u, CGCTL_MEMCG_ROOT).memory.usage, 164);
	ck_assert_uint_eq(st(t, CGCTL_MEMCG_ROOT).memory.usage, 60);
	cgctl_memcg_tree_free(t);
	cgctl_memcg_tree_free(u);
}
END_TEST

START_TEST(bad_arguments)
{
	struct cgctl_memcg_tree *t;

	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(2, 6, 20), 1, 0, 1), -EINVAL);
	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 0, 0, 1), -EINVAL);
	ck_assert_int_eq(cgctl_memcg_tree_new(&t, K(6, 18, 0), 2, 0, 1), 0);
	ck_assert_int_eq(cgctl_memcg_charge(t, 5, 0, 1, NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_memcg_charge(t, 0, 2, 1, NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_memcg_charge(t, 0, 0, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_memcg_create(t, 3), -EINVAL);
	ck_assert_int_eq(cgctl_memcg_file(t, 0, "cpu.max", NULL, 0), -ENOENT);
	ck_assert_int_eq(cgctl_memcg_parent(t, 0), -1);
	cgctl_memcg_tree_free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("memcg");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, failcnt_lands_on_parent);
	tcase_add_test(tc, era_2_6_32_retries);
	tcase_add_test(tc, reclaim_then_success);
	tcase_add_test(tc, nofail_forces);
	tcase_add_test(tc, memsw_order_and_failcnt);
	tcase_add_test(tc, memsw_limit_order);
	tcase_add_test(tc, limit_below_usage);
	tcase_add_test(tc, v2_max_oom);
	tcase_add_test(tc, unlimited_and_rounding);
	tcase_add_test(tc, root_usage_is_statistic);
	tcase_add_test(tc, use_hierarchy);
	tcase_add_test(tc, swapout_and_clone);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
