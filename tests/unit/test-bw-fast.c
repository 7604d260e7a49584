/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bandwidth simulator's fast paths against plain references: the event heap
 * (8-ary, with a lazily filled root, times relative to a base) and the calendar of
 * wake-ups beside it against a linear scan, the CPUs-by-load bitmaps against the lowest
 * least loaded CPU, the tick division by multiplication against division, the 64-bit
 * jitter against the 128-bit formula, and the inline progress of one thread against
 * bw_cpu_progress_run().
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "libcgctl.h"
#include "engine/bandwidth.h"
#include "testutil.h"

/*
 * Check marks the line of every assertion that passes (_mark_point(): a message packed
 * into its log, an allocation and a write(2) each), so that a crash can name the last
 * line passed.  These loops assert millions of times: that was 20 s of the test's 25 s
 * under ASan (perf: ASan's internal_memmove, ext4 writes).  Passing assertions are not
 * marked here; a failing one still reports its own line and values, and a crash its
 * test (and ASan its stack).
 */
#undef _mark_point
#define _mark_point(file, line) ((void)0)

#define NSLOTS 300

/* reference queue: per slot its key or BW_NO_TIME */
static uint64_t ref[NSLOTS];

static int ref_top(uint64_t *key)
{
	int best = -1;

	for (int i = 0; i < NSLOTS; i++)
		if (ref[i] != BW_NO_TIME && (best < 0 || ref[i] < ref[best]))
			best = i;
	if (best >= 0)
		*key = ref[best];
	return best;
}

START_TEST(heap_matches_reference)
{
	struct bw_heap hp;
	uint64_t rng = 42, now = 0;

	ck_assert_int_eq(bw_heap_init(&hp, NSLOTS), 0);
	for (int i = 0; i < NSLOTS; i++)
		ref[i] = BW_NO_TIME;
	for (int step = 0; step < 200000; step++) {
		uint64_t r = bw_rand(&rng), k1, k2;
		int slot = (int)(r % NSLOTS), s1, s2;
		/* small key ranges make ties (ordered by slot) frequent */
		uint64_t key = now + (r >> 32) % (step % 3 ? 1000 : 8);

		switch ((r >> 16) % 8) {
		case 0: case 1: case 2:
			bw_heap_set(&hp, slot, key);
			ref[slot] = key;
			break;
		case 3:
			bw_heap_del(&hp, slot);
			ref[slot] = BW_NO_TIME;
			break;
		case 4:		/* remove the root, maybe schedule another (the hole) */
			s1 = ref_top(&k1);
			if (s1 < 0)
				break;
			bw_heap_del(&hp, s1);
			ref[s1] = BW_NO_TIME;
			now = k1;
			if (r & 1) {
				bw_heap_set(&hp, slot, now + (r >> 40) % 500);
				ref[slot] = now + (r >> 40) % 500;
			}
			break;
		default:
			s1 = bw_heap_top(&hp, &k1);
			s2 = ref_top(&k2);
			ck_assert_int_eq(s1, s2);
			if (s1 >= 0)
				ck_assert_uint_eq(k1, k2);
			break;
		}
		ck_assert_uint_eq(bw_heap_key(&hp, slot), ref[slot]);
	}
	/* drain: every entry comes out in (time, slot) order */
	for (;;) {
		uint64_t k1, k2;
		int s1 = bw_heap_top(&hp, &k1), s2 = ref_top(&k2);

		ck_assert_int_eq(s1, s2);
		if (s1 < 0)
			break;
		ck_assert_uint_eq(k1, k2);
		bw_heap_del(&hp, s1);
		ref[s1] = BW_NO_TIME;
	}
	bw_heap_free(&hp);
}
END_TEST

/*
 * Times anywhere in 64 bits: entries more than 2^32 ns past the heap's base (held
 * clamped, ordered by slot among themselves until the base moves up to them) and times
 * below its base (the heap rebuilt) come out in (time, slot) order all the same.
 */
START_TEST(heap_far_times)
{
	struct bw_heap hp;
	uint64_t rng = 7;

	ck_assert_int_eq(bw_heap_init(&hp, NSLOTS), 0);
	for (int i = 0; i < NSLOTS; i++)
		ref[i] = BW_NO_TIME;
	for (int step = 0; step < 100000; step++) {
		uint64_t r = bw_rand(&rng), k1, k2;
		int slot = (int)(r % NSLOTS), s1, s2;
		/* a magnitude from 1 ns to 2^63 ns; few distinct times in some phases */
		uint64_t key = (bw_rand(&rng) >> 1) >> (r >> 20) % 63;

		if (step / 5000 % 2)
			key = (key & 3) << ((r >> 40) % 4 * 16);
		switch ((r >> 16) % 8) {
		case 0: case 1: case 2:
			bw_heap_set(&hp, slot, key);
			ref[slot] = key;
			break;
		case 3: case 4:
			s1 = bw_heap_top(&hp, &k1);
			s2 = ref_top(&k2);
			ck_assert_int_eq(s1, s2);
			if (s1 < 0)
				break;
			ck_assert_uint_eq(k1, k2);
			bw_heap_del(&hp, s1);
			ref[s1] = BW_NO_TIME;
			break;
		case 5:
			bw_heap_del(&hp, slot);
			ref[slot] = BW_NO_TIME;
			break;
		default:
			s1 = bw_heap_top(&hp, &k1);
			s2 = ref_top(&k2);
			ck_assert_int_eq(s1, s2);
			if (s1 >= 0)
				ck_assert_uint_eq(k1, k2);
			break;
		}
		ck_assert_uint_eq(bw_heap_key(&hp, slot), ref[slot]);
	}
	for (;;) {
		uint64_t k1, k2;
		int s1 = bw_heap_top(&hp, &k1), s2 = ref_top(&k2);

		ck_assert_int_eq(s1, s2);
		if (s1 < 0)
			break;
		ck_assert_uint_eq(k1, k2);
		bw_heap_del(&hp, s1);
		ref[s1] = BW_NO_TIME;
	}
	bw_heap_free(&hp);
}
END_TEST

static struct cgctl_bw_sim *mk_sim(unsigned int ncpus, int nthreads, unsigned int hz)
{
	struct cgctl_bw_sim_config cfg = { .ncpus = ncpus, .hz = hz, .seed = 3 };
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(50000, 100000, 0);
	struct cgctl_bw_sim *s;

	ck_assert_int_eq(cgctl_bw_sim_new(&s, &cfg), 0);
	ck_assert_int_eq(cgctl_bw_sim_add_group(s, -1, &bw), 0);
	for (int i = 0; i < nthreads; i++) {
		struct cgctl_bw_thread t = { .group = 0 };

		ck_assert_int_eq(cgctl_bw_sim_add_thread(s, &t), 0);
	}
	ck_assert_int_eq(bw_sim_setup(s), 0);
	return s;
}

/*
 * The event queue of a simulation, the heap with the calendar of thread wake-ups beside
 * it, against a linear scan: the same (time, slot) order, ties and times past the
 * calendar's window included, with the clock moving forward as the loop moves it.
 */
#define QCPUS 5
#define QTHREADS 200

START_TEST(calendar_matches_reference)
{
	static uint64_t qref[QCPUS + QTHREADS];
	struct cgctl_bw_sim *s = mk_sim(QCPUS, QTHREADS, 250);
	uint64_t rng = 7, now = 0, k1;
	int nslots = QCPUS + QTHREADS, s1, s2;

	for (int ti = 0; ti < QTHREADS; ti++)
		bw_thread_unqueue(s, ti);
	for (int slot = 0; slot < s->slot_misc + 3; slot++)
		bw_heap_del(&s->heap, slot);
	for (int i = 0; i < nslots; i++)
		qref[i] = BW_NO_TIME;
	for (int step = 0; step < 300000; step++) {
		uint64_t r = bw_rand(&rng), span, key;
		int slot = (int)(r % nslots);

		/* ties, the calendar's buckets, its window (33.6 ms) and past it */
		span = (uint64_t[]){ 4, 20000, 10000000, 200000000 }[(r >> 8) % 4];
		key = now + (r >> 24) % span;
		switch ((r >> 16) % 6) {
		case 0: case 1:
			if (slot < QCPUS) {
				bw_heap_set(&s->heap, slot, key);
			} else {
				if (qref[slot] != BW_NO_TIME)
					break;
				bw_thread_queue(s, slot - QCPUS, key);
			}
			qref[slot] = key;
			break;
		case 2:
			if (slot < QCPUS)
				bw_heap_del(&s->heap, slot);
			else
				bw_thread_unqueue(s, slot - QCPUS);
			qref[slot] = BW_NO_TIME;
			break;
		default:	/* the loop: take the next event, remove it */
			s1 = bw_next_event(s, &k1);
			s2 = -1;
			for (int i = 0; i < nslots; i++)
				if (qref[i] != BW_NO_TIME && (s2 < 0 || qref[i] < qref[s2]))
					s2 = i;
			ck_assert_int_eq(s1, s2);
			if (s1 < 0)
				break;
			ck_assert_uint_eq(k1, qref[s2]);
			ck_assert_uint_ge(k1, now);
			now = k1;
			if (s1 < QCPUS)
				bw_heap_del(&s->heap, s1);
			else
				bw_thread_unqueue(s, s1 - QCPUS);
			qref[s1] = BW_NO_TIME;
			break;
		}
	}
	while ((s1 = bw_next_event(s, &k1)) >= 0) {
		s2 = -1;
		for (int i = 0; i < nslots; i++)
			if (qref[i] != BW_NO_TIME && (s2 < 0 || qref[i] < qref[s2]))
				s2 = i;
		ck_assert_int_eq(s1, s2);
		ck_assert_uint_eq(k1, qref[s2]);
		if (s1 < QCPUS)
			bw_heap_del(&s->heap, s1);
		else
			bw_thread_unqueue(s, s1 - QCPUS);
		qref[s1] = BW_NO_TIME;
	}
	for (int i = 0; i < nslots; i++)
		ck_assert_uint_eq(qref[i], BW_NO_TIME);
	cgctl_bw_sim_free(s);
}
END_TEST

/* The scheduler's placements and removals, checked against a scan of the loads. */
START_TEST(load_pick_is_lowest_least_loaded)
{
	static const unsigned int ncpus[] = { 1, 3, 64, 65, 130 };
	struct cgctl_bw_sim *s = mk_sim(ncpus[_i], 700, 0);
	int *load = calloc(ncpus[_i], sizeof(*load)), placed = 0;
	uint64_t rng = 9;

	ck_assert_ptr_nonnull(load);
	for (int step = 0; step < 20000; step++) {
		int best = 0, cpu;

		for (unsigned int c = 1; c < ncpus[_i]; c++)
			if (load[c] < load[best])
				best = c;
		ck_assert_int_eq(bw_load_pick(s), best);
		if (placed < 700 && (placed == 0 || bw_rand(&rng) % 3)) {
			bw_load_move(s, best, load[best], load[best] + 1);
			load[best]++;
			placed++;
			continue;
		}
		do
			cpu = (int)(bw_rand(&rng) % ncpus[_i]);
		while (!load[cpu]);
		bw_load_move(s, cpu, load[cpu], load[cpu] - 1);
		load[cpu]--;
		placed--;
	}
	free(load);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(tick_division)
{
	static const unsigned int hz[] = { 1, 100, 250, 300, 1000, 1024, 7919, 100000 };
	uint64_t rng = 5;

	for (size_t h = 0; h < sizeof(hz) / sizeof(hz[0]); h++) {
		struct cgctl_bw_sim *s = mk_sim(2, 1, hz[h]);

		for (int i = 0; i < 100000; i++) {
			uint64_t x = bw_rand(&rng) >> (i % 64), q = x / s->tick;

			ck_assert_uint_eq(bw_tick_div(s, x), q);
			/* the edges: a multiple of the tick and the instant before it */
			ck_assert_uint_eq(bw_tick_div(s, q * s->tick), q);
			if (q)
				ck_assert_uint_eq(bw_tick_div(s, q * s->tick - 1), q - 1);
		}
		ck_assert_uint_eq(bw_tick_div(s, INT64_MAX), INT64_MAX / s->tick);
		ck_assert_uint_eq(bw_tick_div(s, UINT64_MAX), UINT64_MAX / s->tick);
		cgctl_bw_sim_free(s);
	}
}
END_TEST

START_TEST(jitter_64_bit)
{
	static const uint64_t v[] = {
		1, 999, 2000000, 8000000, (1ULL << 43) - 1, 1ULL << 43, 1ULL << 60,
	};
	static const uint32_t ppm[] = { 1, 200000, 999999, 1000000, 5000000 };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		for (size_t j = 0; j < sizeof(ppm) / sizeof(ppm[0]); j++) {
			uint64_t a = 77, b = 77;
			uint32_t p = ppm[j] > BW_CAP_ONE ? BW_CAP_ONE : ppm[j];

			for (int k = 0; k < 1000; k++) {
				uint64_t m = 2 * (uint64_t)p + 1;
				int64_t r = (int64_t)(bw_rand(&b) % m) - p;
				unsigned __int128 w = (unsigned __int128)v[i] *
						      (uint64_t)(BW_CAP_ONE + r);

				ck_assert_uint_eq(bw_jitter(&a, v[i], ppm[j]),
						  (uint64_t)(w / BW_CAP_ONE));
			}
		}
	}
}
END_TEST

START_TEST(invariant_division)
{
	uint64_t rng = 11;

	for (int i = 0; i < 20000; i++) {
		/* jitter divisors (2 ppm + 1), then divisors of every size */
		uint64_t d = i < 10000 ? 2 * (bw_rand(&rng) % 1000001) + 1 :
			     i < 10064 ? 1ULL << (i - 10000) :	/* powers of 2 */
			     (bw_rand(&rng) >> (bw_rand(&rng) % 64)) + 1;
		uint64_t top = UINT64_MAX / d * d;
		uint64_t x[] = { 0, 1, d - 1, d, d + 1, UINT64_MAX, UINT64_MAX - 1, top,
				 top - 1, bw_rand(&rng), bw_rand(&rng) >> (i % 64) };
		struct bw_divu64 dv;

		bw_divu64_init(&dv, d);
		for (size_t k = 0; k < sizeof(x) / sizeof(x[0]); k++)
			ck_assert_uint_eq(bw_divu64(&dv, x[k]), x[k] / d);
	}
}
END_TEST

/* A thread's jitter (its cached divider) draws what bw_jitter() draws. */
START_TEST(thread_jitter_matches)
{
	static const uint32_t ppm[] = { 0, 1, 3, 200000, 999999, 1000000, 7000000 };

	for (size_t j = 0; j < sizeof(ppm) / sizeof(ppm[0]); j++) {
		struct cgctl_bw_sim_config cfg = { .ncpus = 1, .seed = 5 + j };
		struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(CGCTL_BW_INF, 100000, 0);
		struct cgctl_bw_thread th = { .group = 0, .busy_ns = 2000000 + j,
					      .idle_ns = 8000000, .jitter_ppm = ppm[j] };
		struct cgctl_bw_sim *s;
		uint64_t state, got;

		ck_assert_int_eq(cgctl_bw_sim_new(&s, &cfg), 0);
		ck_assert_int_eq(cgctl_bw_sim_add_group(s, -1, &bw), 0);
		ck_assert_int_eq(cgctl_bw_sim_add_thread(s, &th), 0);
		ck_assert_int_eq(bw_sim_setup(s), 0);
		state = s->rng;
		for (int k = 0; k < 5000; k++) {
			ck_assert(bw_thread_next_busy(s, &s->t[0], &got));
			ck_assert_uint_eq(got, bw_jitter(&state, th.busy_ns, ppm[j]));
			ck_assert(bw_thread_next_idle(s, &s->t[0], &got));
			ck_assert_uint_eq(got, bw_jitter(&state, th.idle_ns, ppm[j]));
		}
		cgctl_bw_sim_free(s);
	}
}
END_TEST

/* The inline progress of one thread of one group does what bw_cpu_progress_run()
 * does. */
static void place_one(struct cgctl_bw_sim *s, uint64_t left, uint64_t last)
{
	struct bw_cpu *c = &s->cpu[0];

	c->run[0] = 0;
	c->nrun = 1;
	c->nfinite = left != UINT64_MAX;
	c->grp[0] = 0;
	c->gcnt[0] = 1;
	c->ngrp = 1;
	c->last = last;
	c->pending_any = false;
	s->left[0] = left;
	s->g[0].rq[0].pending = 0;
	s->g[0].usage = 0;
}

START_TEST(one_thread_progress_matches)
{
	struct cgctl_bw_sim_config cfg = { .ncpus = 1, .seed = 3 };
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(2000000, 100000, 0);
	struct cgctl_bw_thread th = { .group = 0, .busy_ns = 2000000, .idle_ns = 8000000 };
	struct cgctl_bw_sim *s;
	uint64_t rng = 11;

	ck_assert_int_eq(cgctl_bw_sim_new(&s, &cfg), 0);
	ck_assert_int_eq(cgctl_bw_sim_add_group(s, -1, &bw), 0);
	ck_assert_int_eq(cgctl_bw_sim_add_thread(s, &th), 0);
	ck_assert_int_eq(bw_sim_setup(s), 0);
	for (int k = 0; k < 20000; k++) {
		uint64_t r = bw_rand(&rng), last = r >> 20, dt = bw_rand(&rng) >> (r % 64);
		uint64_t left = k % 7 ? bw_rand(&rng) >> (r >> 6) % 64 : UINT64_MAX;
		uint64_t l1, p1, u1;

		if (dt > (1ULL << 50))
			dt >>= 14;
		place_one(s, left, last);
		bw_cpu_progress(s, 0, last + dt);
		l1 = s->left[0];
		p1 = s->g[0].rq[0].pending;
		u1 = s->g[0].usage;
		ck_assert_uint_eq(s->cpu[0].last, last + dt);
		ck_assert_int_eq(s->cpu[0].pending_any, dt != 0);
		place_one(s, left, last);
		if (dt)
			bw_cpu_progress_run(s, 0, last + dt);
		ck_assert_uint_eq(s->left[0], l1);
		ck_assert_uint_eq(s->g[0].rq[0].pending, p1);
		ck_assert_uint_eq(s->g[0].usage, u1);
	}
	place_one(s, UINT64_MAX, 0);	/* nothing of the run set is freed */
	s->cpu[0].nrun = 0;
	s->cpu[0].nfinite = 0;
	s->cpu[0].ngrp = 0;
	cgctl_bw_sim_free(s);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("bw-fast");
	TCase *tc = tcase_create("fast");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, heap_matches_reference);
	tcase_add_test(tc, heap_far_times);
	tcase_add_test(tc, calendar_matches_reference);
	tcase_add_loop_test(tc, load_pick_is_lowest_least_loaded, 0, 5);
	tcase_add_test(tc, tick_division);
	tcase_add_test(tc, jitter_64_bit);
	tcase_add_test(tc, invariant_division);
	tcase_add_test(tc, thread_jitter_matches);
	tcase_add_test(tc, one_thread_progress_matches);
	suite_add_tcase(su, tc);
	return tu_run(su);
}
