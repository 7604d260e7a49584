/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <signal.h>
#include <time.h>

#include "util/crew.h"
#include "util/cputhread.h"

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Spin until @done(c, v) for CREW_SPIN_NS, then sleep on c->cv until it is. */
static void await(struct crew *c, bool (*done)(const struct crew *, unsigned int),
		  unsigned int v)
{
	long long end = now_ns() + CREW_SPIN_NS;

	for (unsigned int i = 0; !done(c, v); i++) {
		relax();
		if ((i & 255) == 255 && now_ns() > end) {
			pthread_mutex_lock(&c->lock);
			while (!done(c, v))
				pthread_cond_wait(&c->cv, &c->lock);
			pthread_mutex_unlock(&c->lock);
			return;
		}
	}
}

static bool parked(const struct crew *c)
{
	return __atomic_load_n(&c->parked, __ATOMIC_ACQUIRE);
}

static bool new_gen(const struct crew *c, unsigned int seen)
{
	return __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE) != seen;
}

static bool all_done(const struct crew *c, unsigned int unused)
{
	(void)unused;
	return __atomic_load_n(&c->pending, __ATOMIC_ACQUIRE) == 0;
}

/* Wake whoever sleeps on c->cv (the changes are made before, atomically). */
static void wake(struct crew *c)
{
	pthread_mutex_lock(&c->lock);
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->lock);
}

/*
 * A member between jobs: spin for the next one for CREW_SPIN_NS, unless the crew is
 * parked; then sleep until a job comes, or crew_unpark() sends it spinning again.
 */
static void await_job(struct crew *c, unsigned int seen)
{
	for (;;) {
		unsigned int ep = __atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE);
		long long end = now_ns() + CREW_SPIN_NS;

		for (unsigned int i = 0; !new_gen(c, seen) && !parked(c); i++) {
			relax();
			if ((i & 255) == 255 && now_ns() > end)
				break;
		}
		if (new_gen(c, seen))
			return;
		pthread_mutex_lock(&c->lock);
		while (!new_gen(c, seen) && __atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE) == ep)
			pthread_cond_wait(&c->cv, &c->lock);
		pthread_mutex_unlock(&c->lock);
		if (new_gen(c, seen))
			return;
	}
}

/* Mark job @gen taken in @slot, by the member or (leaving it out) by the caller; false
 * when the other side was first. */
static bool claim(unsigned int *slot, unsigned int gen)
{
	unsigned int cur = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	return cur != gen && __atomic_compare_exchange_n(slot, &cur, gen, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static void *member_main(void *arg)
{
	struct crew_member m = *(struct crew_member *)arg;
	struct crew *c = m.c;
	unsigned int seen = 0;
	sigset_t all;

	/* the process's signals are for its own threads, not for a library's helper */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		await_job(c, seen);
		seen = __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE);
		if (c->quit)
			return NULL;
		/* take the job, unless the caller has left this thread out of it
		 * (crew_run_shared()): then it answered for it and the job is not ours */
		if (!claim(&c->claimed[m.id], seen))
			continue;
		/* every thread that took the job answers it, run or not: until all have, the
		 * job's fields are not written again */
		if (m.id < c->active)
			c->fn(c->arg, m.id);
		if (__atomic_sub_fetch(&c->pending, 1, __ATOMIC_ACQ_REL) == 0)
			wake(c);
	}
}

int crew_start(struct crew *c, int want)
{
	*c = (struct crew){ .n = 1 };
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cv, NULL);
	if (want > CREW_MAX)
		want = CREW_MAX;
	for (int i = 1; i < want; i++) {
		c->member[i] = (struct crew_member){ c, i };
		if (cputhread_create(&c->t[i], member_main, &c->member[i]) != 0)
			break;
		c->n = i + 1;
	}
	return c->n;
}

static void run(struct crew *c, int m, void (*fn)(void *arg, int id), void *arg, bool shared)
{
	unsigned int gen = 0;

	c->active = m < 1 ? 1 : m > c->n ? c->n : m;
	c->fn = fn;
	c->arg = arg;
	if (c->active > 1) {	/* (a job of this thread alone wakes nobody) */
		__atomic_store_n(&c->pending, c->n - 1, __ATOMIC_RELEASE);
		gen = __atomic_add_fetch(&c->gen, 1, __ATOMIC_ACQ_REL);
		wake(c);
	}
	fn(arg, 0);
	if (c->active < 2)
		return;
	/* the pool is empty: who has not taken the job yet would find nothing in it */
	for (int i = 1; shared && i < c->n; i++)
		if (claim(&c->claimed[i], gen))
			__atomic_sub_fetch(&c->pending, 1, __ATOMIC_ACQ_REL);
	await(c, all_done, 0);
}

void crew_run(struct crew *c, int m, void (*fn)(void *arg, int id), void *arg)
{
	run(c, m, fn, arg, false);
}

void crew_run_shared(struct crew *c, int m, void (*fn)(void *arg, int id), void *arg)
{
	run(c, m, fn, arg, true);
}

void crew_park(struct crew *c)
{
	__atomic_store_n(&c->parked, true, __ATOMIC_RELEASE);
}

void crew_unpark(struct crew *c)
{
	__atomic_store_n(&c->parked, false, __ATOMIC_RELEASE);
	if (c->n > 1) {
		pthread_mutex_lock(&c->lock);
		__atomic_add_fetch(&c->epoch, 1, __ATOMIC_ACQ_REL);
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->lock);
	}
}

void crew_stop(struct crew *c)
{
	c->quit = true;
	if (c->n > 1) {
		__atomic_add_fetch(&c->gen, 1, __ATOMIC_ACQ_REL);
		wake(c);
	}
	for (int i = 1; i < c->n; i++)
		pthread_join(c->t[i], NULL);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->lock);
	c->n = 1;
}
