/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* percpu_counter model: batch, fold rule, read vs sum, error bound, compare. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "libcgctl.h"
#include "engine/pcpucounter.h"
#include "testutil.h"

START_TEST(batch_formula)
{
	uint32_t k = CGCTL_KVER(6, 18, 0);

	ck_assert_int_eq(cgctl_pcpuc_batch(k, 1), 32);
	ck_assert_int_eq(cgctl_pcpuc_batch(k, 2), 32);
	ck_assert_int_eq(cgctl_pcpuc_batch(k, 16), 32);
	ck_assert_int_eq(cgctl_pcpuc_batch(k, 17), 34);
	ck_assert_int_eq(cgctl_pcpuc_batch(k, 64), 128);
	ck_assert_int_eq(cgctl_pcpuc_batch(CGCTL_KVER(2, 6, 33), 256), 512);
	ck_assert_int_eq(cgctl_pcpuc_batch(k, 0), -EINVAL);
	ck_assert_int_eq(cgctl_pcpuc_batch(k, CGCTL_PCPUC_MAX_CPUS + 1), -EINVAL);
}
END_TEST

/* the figures of kernel-memory-model.md 4.1 */
START_TEST(error_bound)
{
	ck_assert_uint_eq(cgctl_pcpuc_error_bound(32, 2), 62);
	ck_assert_uint_eq(cgctl_pcpuc_error_bound(cgctl_pcpuc_batch(0x06120000, 64), 64), 8128);
	ck_assert_uint_eq(cgctl_pcpuc_error_bound(512, 256), 130816);
	ck_assert_uint_eq(cgctl_pcpuc_error_bound(1, 8), 0);
}
END_TEST

START_TEST(fold_at_batch)
{
	struct cgctl_pcpuc *c;
	int i;

	ck_assert_int_eq(cgctl_pcpuc_new(&c, 2, 32, 0), 0);
	for (i = 0; i < 31; i++)
		ck_assert_int_eq(cgctl_pcpuc_add(c, 0, 1), 0);
	ck_assert_int_eq(cgctl_pcpuc_read(c), 0);
	ck_assert_int_eq(cgctl_pcpuc_delta(c, 0), 31);
	ck_assert_int_eq(cgctl_pcpuc_sum(c), 31);
	/* |31 + 1| >= 32: the whole delta moves */
	ck_assert_int_eq(cgctl_pcpuc_add(c, 0, 1), 1);
	ck_assert_int_eq(cgctl_pcpuc_read(c), 32);
	ck_assert_int_eq(cgctl_pcpuc_delta(c, 0), 0);
	/* a big add folds at once, carrying the pending delta */
	ck_assert_int_eq(cgctl_pcpuc_add(c, 1, 5), 0);
	ck_assert_int_eq(cgctl_pcpuc_add(c, 1, 100), 1);
	ck_assert_int_eq(cgctl_pcpuc_read(c), 137);
	ck_assert_int_eq(cgctl_pcpuc_delta(c, 1), 0);
	ck_assert_int_eq(cgctl_pcpuc_add(c, 2, 1), -EINVAL);
	cgctl_pcpuc_free(c);
}
END_TEST

START_TEST(negative_and_read_positive)
{
	struct cgctl_pcpuc *c;
	int i;

	ck_assert_int_eq(cgctl_pcpuc_new(&c, 2, 32, 10), 0);
	for (i = 0; i < 31; i++)
		cgctl_pcpuc_add(c, 1, -1);
	ck_assert_int_eq(cgctl_pcpuc_read(c), 10);
	ck_assert_int_eq(cgctl_pcpuc_sum(c), -21);
	ck_assert_int_eq(cgctl_pcpuc_add(c, 1, -1), 1);
	ck_assert_int_eq(cgctl_pcpuc_read(c), -22);
	ck_assert_int_eq(cgctl_pcpuc_read_positive(c), 0);
	ck_assert_int_eq(cgctl_pcpuc_sum(c), -22);
	cgctl_pcpuc_free(c);
}
END_TEST

/* measured on 6.18 / 2 CPUs: the approximate rss moves in steps of 32 pages */
START_TEST(steps_of_batch)
{
	struct cgctl_pcpuc_op *ops = calloc(1088, sizeof(*ops));
	struct cgctl_pcpuc_sim r;
	int i;

	for (i = 0; i < 1088; i++)
		ops[i] = (struct cgctl_pcpuc_op){ .cpu = 0, .amount = 1 };
	ck_assert_int_eq(cgctl_pcpuc_sim_run(2, 32, ops, 1000, &r), 0);
	ck_assert_int_eq(r.read, 992);
	ck_assert_int_eq(r.sum, 1000);
	ck_assert_uint_eq(r.folds, 31);
	ck_assert_int_eq(cgctl_pcpuc_sim_run(2, 32, ops, 1088, &r), 0);
	ck_assert_int_eq(r.read, 1088);
	ck_assert_uint_eq(r.folds, 34);
	ck_assert_uint_eq(r.max_abs_err, 31);
	/* alternating CPUs: 500 each, 15 folds each, 20 pending on each */
	for (i = 0; i < 1000; i++)
		ops[i].cpu = (unsigned int)(i & 1);
	ck_assert_int_eq(cgctl_pcpuc_sim_run(2, 32, ops, 1000, &r), 0);
	ck_assert_int_eq(r.read, 960);
	ck_assert_int_eq(r.sum, 1000);
	ck_assert_uint_eq(r.folds, 30);
	ops[3].cpu = 7;
	ck_assert_int_eq(cgctl_pcpuc_sim_run(2, 32, ops, 1000, &r), -EINVAL);
	free(ops);
}
END_TEST

START_TEST(compare_uses_sum_near_rhs)
{
	struct cgctl_pcpuc *c;

	ck_assert_int_eq(cgctl_pcpuc_new(&c, 2, 32, 100), 0);
	cgctl_pcpuc_add(c, 0, 30);
	cgctl_pcpuc_add(c, 1, 30);
	/* rough 100 is within 64 of 160: the exact sum 160 decides */
	ck_assert_int_eq(cgctl_pcpuc_compare(c, 160), 0);
	ck_assert_int_eq(cgctl_pcpuc_compare(c, 150), 1);
	ck_assert_int_eq(cgctl_pcpuc_compare(c, 161), -1);
	/* far away: the rough count decides */
	ck_assert_int_eq(cgctl_pcpuc_compare(c, 1000), -1);
	ck_assert_int_eq(cgctl_pcpuc_compare(c, -1000), 1);
	cgctl_pcpuc_free(c);
}
END_TEST

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* random adds on random CPUs: sum is exact, |read - sum| never above (B-1)*ncpu */
START_TEST(random_within_bound)
{
	unsigned int ncpu = 1 + (unsigned int)_i * 7;
	int32_t batch = cgctl_pcpuc_batch(0, ncpu);
	uint64_t seed = 42 + (uint64_t)_i, bound = cgctl_pcpuc_error_bound(batch, ncpu);
	struct cgctl_pcpuc *c;
	int64_t exact = 0, amt;
	int i;

	ck_assert_int_eq(cgctl_pcpuc_new(&c, ncpu, batch, 0), 0);
	for (i = 0; i < 20000; i++) {
		amt = (int64_t)(lcg(&seed) % 9) - 4;
		if (lcg(&seed) % 100 == 0)
			amt *= 50;
		exact += amt;
		ck_assert_int_ge(cgctl_pcpuc_add(c, (unsigned int)(lcg(&seed) % ncpu), amt), 0);
		ck_assert_int_eq(cgctl_pcpuc_sum(c), exact);
		ck_assert_uint_le((uint64_t)llabs(cgctl_pcpuc_read(c) - exact), bound);
	}
	cgctl_pcpuc_free(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pcpucounter");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, batch_formula);
	tcase_add_test(tc, error_bound);
	tcase_add_test(tc, fold_at_batch);
	tcase_add_test(tc, negative_and_read_positive);
	tcase_add_test(tc, steps_of_batch);
	tcase_add_test(tc, compare_uses_sum_near_rhs);
	tcase_add_loop_test(tc, random_within_bound, 0, 5);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
