/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A crew: the calling thread and up to CREW_MAX - 1 threads kept for several jobs in a
 * row (the page inventory's two phases, per task, and the inventories of one context),
 * instead of a thread created and joined for each.  The threads block every signal.
 * On these paravirtualised 2-CPU machines a thread costs ~0.15 ms to create and more to
 * wake on an idle CPU, so between jobs the threads spin for a short while
 * (CREW_SPIN_NS) before they sleep, or sleep at once while the crew is parked.
 */
#ifndef CGCTL_UTIL_CREW_H
#define CGCTL_UTIL_CREW_H

#include <pthread.h>
#include <stdbool.h>

#define CREW_MAX 8
#define CREW_SPIN_NS 2000000	/* 2 ms: the gap between two phases, and then some */

struct crew;

/* what a thread of the crew starts with */
struct crew_member {
	struct crew *c;
	int id;
};

struct crew {
	int n;			/* workers, the caller's thread (id 0) included */
	pthread_t t[CREW_MAX];
	struct crew_member member[CREW_MAX];
	int active;		/* workers [0, active) take the job */
	void (*fn)(void *arg, int id);
	void *arg;
	unsigned int gen;	/* a new job (or the end): atomic */
	int pending;		/* threads yet to answer the job: atomic */
	unsigned int claimed[CREW_MAX];	/* the last job each thread took, or was left
					 * out of (crew_run_shared()): atomic */
	bool quit;
	bool parked;		/* between jobs, sleep at once (atomic) */
	unsigned int epoch;	/* bumped by crew_unpark(): sleepers spin again (atomic) */
	pthread_mutex_t lock;	/* with @cv: to sleep on either */
	pthread_cond_t cv;
};

/* Start @want - 1 threads (cputhread_create()).  Returns: the workers there are (1 to
 * @want; fewer when a thread could not be created). */
int crew_start(struct crew *c, int want);
/* Run @fn(@arg, id) on workers [0, @m) (at most c->n), id 0 in this thread; returns
 * when all are done. */
void crew_run(struct crew *c, int m, void (*fn)(void *arg, int id), void *arg);
/* The same for a job whose work the workers claim from a shared pool: once the caller's
 * @fn returns (the pool is empty), workers that have not taken the job yet are left out
 * of it, and the call returns without waiting for them to wake. */
void crew_run_shared(struct crew *c, int m, void (*fn)(void *arg, int id), void *arg);
/* Between jobs from now on, the threads sleep at once instead of spinning (a crew kept
 * for later, idle meanwhile). */
void crew_park(struct crew *c);
/* Wake the threads of a parked crew, to spin for the next job for up to CREW_SPIN_NS:
 * called some time before crew_run(), it hides the time an idle CPU takes to wake. */
void crew_unpark(struct crew *c);
/* End the threads. */
void crew_stop(struct crew *c);

#endif
