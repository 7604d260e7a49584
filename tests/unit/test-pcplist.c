/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-cpu page lists: batch/high per era against hand-computed and measured zones,
 * nr_pcp_free, free_pcppages_bulk splits, the verdict, the /proc/zoneinfo parser. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"
#include "engine/pcplist.h"
#include "kernel/zoneinfo.h"
#include "testutil.h"

#define K CGCTL_KVER

static struct cgctl_pcp_pred predict(uint32_t kver, unsigned int ncpu, uint64_t present,
				     uint64_t managed, uint64_t low, unsigned int node_ncpu,
				     unsigned int fraction)
{
	struct cgctl_pcp_zone z = { .present_pages = present, .managed_pages = managed,
				    .low_wmark = low, .node_ncpu = node_ncpu,
				    .high_fraction = fraction };
	struct cgctl_pcp_pred p;

	ck_assert_int_eq(cgctl_pcp_predict(kver, ncpu, &z, &p), 0);
	return p;
}

/* kernel-memory-model.md 5, measured on 6.18 with 2 CPUs */
START_TEST(measured_618)
{
	struct cgctl_pcp_pred p;

	p = predict(K(6, 18, 44), 2, 782336, 772798, 11142, 2, 0);
	ck_assert_int_eq(p.batch, 63);
	ck_assert_int_eq(p.high_min, 5571);
	ck_assert_int_eq(p.high_max, 48299);
	ck_assert(p.autotune);
	ck_assert_int_eq(p.nr_lists, 14);
	p = predict(K(6, 18, 44), 2, 5505024, 688128, 9921, 2, 0);
	ck_assert_int_eq(p.batch, 63);
	ck_assert_int_eq(p.high_min, 4960);
	ck_assert_int_eq(p.high_max, 43008);
	/* DMA: 3840 managed pages -> zone_batchsize 0 -> batch 1 */
	p = predict(K(6, 18, 44), 2, 3998, 3840, 55, 2, 0);
	ck_assert_int_eq(p.batch, 1);
	ck_assert_int_eq(p.high_min, 27);
	ck_assert_int_eq(p.high_max, 240);
	/* later on the same machine the watermarks were 14353 / 6693 / 71 */
	p = predict(K(6, 18, 44), 2, 782336, 772798, 14353, 2, 0);
	ck_assert_int_eq(p.high_min, 7176);
	p = predict(K(6, 18, 44), 2, 5505024, 360448, 6693, 2, 0);
	ck_assert_int_eq(p.high_min, 3346);
	ck_assert_int_eq(p.high_max, 22528);
}
END_TEST

START_TEST(fraction_and_memoryless_618)
{
	struct cgctl_pcp_pred p;

	/* the sysctl disables auto-tuning: high_min = high_max = managed / f / cpus */
	p = predict(K(6, 18, 0), 2, 782336, 772798, 11142, 2, 8);
	ck_assert(!p.autotune);
	ck_assert_int_eq(p.high_min, 48299);
	ck_assert_int_eq(p.high_max, 48299);
	/* memoryless node: split over all online CPUs */
	p = predict(K(6, 18, 0), 4, 782336, 772798, 11142, 0, 0);
	ck_assert_int_eq(p.high_min, 2785);
	ck_assert_int_eq(p.high_max, 24149);
	/* never below 4 * batch */
	p = predict(K(6, 18, 0), 64, 782336, 772798, 11142, 64, 0);
	ck_assert_int_eq(p.high_min, 252);
}
END_TEST

START_TEST(era_514_to_66)
{
	struct cgctl_pcp_pred p;

	p = predict(K(6, 1, 0), 2, 782336, 772798, 11142, 2, 0);
	ck_assert_int_eq(p.batch, 63);
	ck_assert_int_eq(p.high_min, 5571);
	ck_assert_int_eq(p.high_max, 5571);
	ck_assert(!p.autotune);
	p = predict(K(5, 14, 0), 2, 3998, 3840, 4, 2, 0);
	ck_assert_int_eq(p.batch, 1);
	ck_assert_int_eq(p.high_max, 4);
	p = predict(K(6, 6, 0), 2, 782336, 772798, 11142, 2, 100);
	ck_assert_int_eq(p.high_min, 3863);
}
END_TEST

START_TEST(era_2632_to_513)
{
	struct cgctl_pcp_pred p;

	/* 2.6.32: present_pages, 512 KiB cap, high = 6 * batch */
	p = predict(K(2, 6, 32), 2, 1048576, 1048576, 0, 2, 0);
	ck_assert_int_eq(p.batch, 31);
	ck_assert_int_eq(p.high_max, 186);
	ck_assert_int_eq(p.high_min, 186);
	ck_assert_int_eq(p.nr_lists, 3);
	p = predict(K(2, 6, 32), 2, 131072, 60000, 0, 2, 0);
	ck_assert_int_eq(p.batch, 31);
	p = predict(K(2, 6, 32), 2, 65536, 65536, 0, 2, 0);
	ck_assert_int_eq(p.batch, 15);
	ck_assert_int_eq(p.high_max, 90);
	/* 3.9: managed_pages */
	p = predict(K(3, 9, 0), 2, 131072, 60000, 0, 2, 0);
	ck_assert_int_eq(p.batch, 15);
	/* 4.19: 1 MiB cap */
	p = predict(K(4, 18, 0), 2, 262144, 262144, 0, 2, 0);
	ck_assert_int_eq(p.batch, 31);
	p = predict(K(4, 19, 0), 2, 262144, 262144, 0, 2, 0);
	ck_assert_int_eq(p.batch, 63);
	ck_assert_int_eq(p.high_max, 378);
	/* tiny zone: zone_batchsize 0 -> high 0, batch 1 */
	p = predict(K(5, 10, 0), 2, 3998, 3840, 0, 2, 0);
	ck_assert_int_eq(p.batch, 1);
	ck_assert_int_eq(p.high_max, 0);
	/* percpu_pagelist_fraction: high = pages / f, batch = high / 4 capped at 96 */
	p = predict(K(2, 6, 32), 2, 1048576, 1048576, 0, 2, 8);
	ck_assert_int_eq(p.high_max, 131072);
	ck_assert_int_eq(p.batch, 96);
	p = predict(K(2, 6, 32), 2, 1048576, 1048576, 0, 2, 100000);
	ck_assert_int_eq(p.high_max, 10);
	ck_assert_int_eq(p.batch, 2);
}
END_TEST

START_TEST(bad_args)
{
	struct cgctl_pcp_zone z = { .managed_pages = 1 };
	struct cgctl_pcp_pred p;

	ck_assert_int_eq(cgctl_pcp_predict(0, 2, &z, &p), -EINVAL);
	ck_assert_int_eq(cgctl_pcp_predict(K(6, 1, 0), 0, &z, &p), -EINVAL);
	z.page_shift = 40;
	ck_assert_int_eq(cgctl_pcp_predict(K(6, 1, 0), 2, &z, &p), -EINVAL);
}
END_TEST

START_TEST(nr_free)
{
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 18, 0), 6000, 5571, 63, 0), 63);
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 18, 0), 6000, 5571, 63, 1000), 1000);
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 18, 0), 6000, 5571, 63, 10000), 5508);
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 18, 0), 10, 5571, 63, 1000), 10);
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 18, 0), 10, 0, 63, 0), 1);
	/* 5.14-6.6: batch << free_factor */
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 1, 0), 6000, 5571, 63, 0), 63);
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 1, 0), 6000, 5571, 63, 2), 252);
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 1, 0), 6000, 5571, 63, 10), 5508);
	/* high < 2 * batch: the kernel's clamp() lets the upper bound win */
	ck_assert_int_eq(cgctl_pcp_nr_free(K(6, 1, 0), 100, 100, 63, 0), 37);
	/* before 5.14: always pcp->batch */
	ck_assert_int_eq(cgctl_pcp_nr_free(K(5, 10, 0), 400, 378, 63, 5), 63);
}
END_TEST

START_TEST(bulk_split)
{
	int lists[3], taken[3];

	/* 2.6.32: round-robin from list 1, batch_free grows past the empty list */
	memcpy(lists, (int[]){ 10, 0, 10 }, sizeof(lists));
	ck_assert_int_eq(cgctl_pcp_bulk_split(K(2, 6, 32), 6, lists, 3, 0, taken), 6);
	ck_assert_int_eq(taken[0], 2);
	ck_assert_int_eq(taken[1], 0);
	ck_assert_int_eq(taken[2], 4);
	ck_assert_int_eq(cgctl_pcp_bulk_split(K(5, 17, 0), 6, lists, 3, 0, taken), 6);
	ck_assert_int_eq(taken[0], 2);
	ck_assert_int_eq(taken[2], 4);
	ck_assert_int_eq(cgctl_pcp_bulk_split(K(5, 18, 0), 6, lists, 3, 0, taken), 6);
	ck_assert_int_eq(taken[0], 6);
	ck_assert_int_eq(taken[2], 0);
	memcpy(lists, (int[]){ 3, 5, 1 }, sizeof(lists));
	ck_assert_int_eq(cgctl_pcp_bulk_split(K(4, 19, 0), 7, lists, 3, 0, taken), 7);
	ck_assert_int_eq(taken[0], 3);
	ck_assert_int_eq(taken[1], 3);
	ck_assert_int_eq(taken[2], 1);
	/* 5.18+: whole lists, the triggering list first */
	memcpy(lists, (int[]){ 10, 0, 10 }, sizeof(lists));
	ck_assert_int_eq(cgctl_pcp_bulk_split(K(6, 12, 0), 15, lists, 3, 2, taken), 15);
	ck_assert_int_eq(taken[0], 5);
	ck_assert_int_eq(taken[2], 10);
	ck_assert_int_eq(cgctl_pcp_bulk_split(K(6, 12, 0), 15, lists, 3, 0, taken), 15);
	ck_assert_int_eq(taken[0], 10);
	ck_assert_int_eq(taken[2], 5);
	memcpy(lists, (int[]){ 1, 1, 1 }, sizeof(lists));
	ck_assert_int_eq(cgctl_pcp_bulk_split(K(6, 12, 0), 10, lists, 3, 1, taken), 3);
	ck_assert_int_eq(cgctl_pcp_bulk_split(K(6, 12, 0), 10, lists, 3, 3, taken), -EINVAL);
}
END_TEST

START_TEST(check_verdict)
{
	struct cgctl_pcp_pred p = { .batch = 63, .high_min = 5571, .high_max = 48299,
				    .autotune = true };
	struct cgctl_zone_pageset ps = { .cpu = 0, .count = 0, .high = 0, .batch = 63,
					 .high_min = 5571, .high_max = 48299 };

	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK);
	/* an empty list keeps the high clamped under older limits (pageset_update() sets
	 * only high_min/high_max): 6.18 DMA32 cpu0 showed 252 under high_min 2905 */
	ps.high = 252;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK);
	ps.count = 1;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK & ~CGCTL_PCP_HIGH_OK);
	ps.high = 0;
	ps.count = 5;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK & ~CGCTL_PCP_HIGH_OK);
	ps.high = 48299;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK);
	ps.high = 48300;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps) & CGCTL_PCP_HIGH_OK, 0);
	ps.high = 6000;
	ps.batch = 31;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK & ~CGCTL_PCP_BATCH_OK);
	ps.batch = 63;
	ps.high_max = 48298;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK & ~CGCTL_PCP_LIMITS_OK);
	/* low watermark above managed / 8: high_min > high_max, clamp() gives high_max */
	p = predict(K(6, 18, 0), 2, 4096, 4096, 1200, 2, 0);
	ck_assert_int_eq(p.high_min, 600);
	ck_assert_int_eq(p.high_max, 256);
	ps = (struct cgctl_zone_pageset){ .count = 3, .high = 256, .batch = 1,
					  .high_min = 600, .high_max = 256 };
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK);
	ps.high = 600;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps) & CGCTL_PCP_HIGH_OK, 0);
	/* before 6.7 nothing but high and batch is printed, and high is fixed */
	p = (struct cgctl_pcp_pred){ .batch = 31, .high_min = 186, .high_max = 186 };
	ps = (struct cgctl_zone_pageset){ .count = 0, .high = 186, .batch = 31,
					  .high_min = -1, .high_max = -1 };
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps), CGCTL_PCP_ALL_OK);
	ps.high = 0;
	ck_assert_int_eq(cgctl_pcp_check(&p, &ps) & CGCTL_PCP_HIGH_OK, 0);
}
END_TEST

static const char zoneinfo_618[] =
	"Node 0, zone      DMA\n"
	"  per-node stats\n"
	"      nr_inactive_anon 2541\n"
	"  pages free     3840\n"
	"        boost    0\n        min      57\n        low      71\n        high     85\n"
	"        promo    99\n        spanned  4095\n        present  3998\n"
	"        managed  3840\n        cma      0\n"
	"        protection: (0, 3018, 4426, 4426, 4426)\n"
	"      nr_free_pages 3840\n"
	"  pagesets\n"
	"    cpu: 0\n              count:    0\n              high:     0\n"
	"              batch:    1\n              high_min: 35\n              high_max: 240\n"
	"  vm stats threshold: 4\n"
	"    cpu: 1\n              count:    7\n              high:     36\n"
	"              batch:    1\n              high_min: 35\n              high_max: 240\n"
	"  vm stats threshold: 4\n"
	"  node_unreclaimable:  0\n  start_pfn:           1\n"
	"Node 0, zone  Movable\n  pages free     0\n        min      32\n        low      32\n"
	"        high     32\n        spanned  0\n        present  0\n        managed  0\n";

/* 2.6.32 layout: no managed, no high_min/high_max */
static const char zoneinfo_2632[] =
	"Node 0, zone   Normal\n  pages free     3969\n        min      5\n        low      6\n"
	"        high     7\n        scanned  0\n        spanned  4080\n        present  3920\n"
	"    nr_free_pages 3969\n        protection: (0, 2003, 2003, 2003)\n  pagesets\n"
	"    cpu: 0\n              count: 12\n              high:  186\n              batch: 31\n"
	"  vm stats threshold: 4\n  all_unreclaimable: 0\n";

START_TEST(zoneinfo_parse)
{
	struct cgctl_zoneinfo *zi;
	struct cgctl_zone *z;

	ck_assert_int_eq(cgctl_zoneinfo_parse(zoneinfo_618, &zi), 0);
	ck_assert_uint_eq(zi->nzones, 2);
	z = &zi->zones[0];
	ck_assert_str_eq(z->name, "DMA");
	ck_assert_int_eq(z->node, 0);
	ck_assert_int_eq(z->free, 3840);
	ck_assert_int_eq(z->min, 57);
	ck_assert_int_eq(z->low, 71);
	ck_assert_int_eq(z->high, 85);
	ck_assert_int_eq(z->present, 3998);
	ck_assert_int_eq(z->managed, 3840);
	ck_assert_uint_eq(z->npagesets, 2);
	ck_assert_int_eq(z->pagesets[1].cpu, 1);
	ck_assert_int_eq(z->pagesets[1].count, 7);
	ck_assert_int_eq(z->pagesets[1].high, 36);
	ck_assert_int_eq(z->pagesets[1].batch, 1);
	ck_assert_int_eq(z->pagesets[1].high_min, 35);
	ck_assert_int_eq(z->pagesets[1].high_max, 240);
	ck_assert_str_eq(zi->zones[1].name, "Movable");
	ck_assert_uint_eq(zi->zones[1].npagesets, 0);
	cgctl_zoneinfo_free(zi);

	ck_assert_int_eq(cgctl_zoneinfo_parse(zoneinfo_2632, &zi), 0);
	z = &zi->zones[0];
	ck_assert_int_eq(z->managed, -1);
	ck_assert_int_eq(z->pagesets[0].high, 186);
	ck_assert_int_eq(z->pagesets[0].batch, 31);
	ck_assert_int_eq(z->pagesets[0].high_min, -1);
	cgctl_zoneinfo_free(zi);

	ck_assert_int_eq(cgctl_zoneinfo_parse("nothing here\n", &zi), -EINVAL);
	ck_assert_int_eq(cgctl_zoneinfo_parse("Node 0, zone DMA\n        low  x1\n", &zi),
			 -EINVAL);
}
END_TEST

/* the parsed DMA zone of 6.18 predicts exactly what that kernel printed */
START_TEST(zoneinfo_roundtrip)
{
	struct cgctl_zoneinfo *zi;
	struct cgctl_pcp_zone pz;
	struct cgctl_pcp_pred p;
	size_t i;

	ck_assert_int_eq(cgctl_zoneinfo_parse(zoneinfo_618, &zi), 0);
	ck_assert_int_eq(cgctl_zone_to_pcp(&zi->zones[0], 2, 0, &pz), 0);
	ck_assert_int_eq(cgctl_pcp_predict(K(6, 18, 44), 2, &pz, &p), 0);
	for (i = 0; i < zi->zones[0].npagesets; i++)
		ck_assert_int_eq(cgctl_pcp_check(&p, &zi->zones[0].pagesets[i]),
				 CGCTL_PCP_ALL_OK);
	cgctl_zoneinfo_free(zi);
}
END_TEST

START_TEST(cpulist)
{
	ck_assert_int_eq(zoneinfo_cpulist_count("0-3,8,10-11\n"), 7);
	ck_assert_int_eq(zoneinfo_cpulist_count("0\n"), 1);
	ck_assert_int_eq(zoneinfo_cpulist_count("\n"), 0);
	ck_assert_int_eq(zoneinfo_cpulist_count("3-1\n"), -EINVAL);
	ck_assert_int_eq(zoneinfo_cpulist_count("a\n"), -EINVAL);
	ck_assert_int_eq(zoneinfo_cpulist_count("1,,2\n"), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pcplist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, measured_618);
	tcase_add_test(tc, fraction_and_memoryless_618);
	tcase_add_test(tc, era_514_to_66);
	tcase_add_test(tc, era_2632_to_513);
	tcase_add_test(tc, bad_args);
	tcase_add_test(tc, nr_free);
	tcase_add_test(tc, bulk_split);
	tcase_add_test(tc, check_verdict);
	tcase_add_test(tc, zoneinfo_parse);
	tcase_add_test(tc, zoneinfo_roundtrip);
	tcase_add_test(tc, cpulist);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
