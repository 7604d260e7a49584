/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <sched.h>
#include <stdlib.h>

#include "util/cputhread.h"

struct start {
	void *(*fn)(void *);
	void *arg;
	cpu_set_t cpus;		/* the creator's affinity, given back at the start */
};

static void *trampoline(void *p)
{
	struct start st = *(struct start *)p;

	free(p);
	(void)sched_setaffinity(0, sizeof(st.cpus), &st.cpus);
	return st.fn(st.arg);
}

int cputhread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	struct start *st = malloc(sizeof(*st));
	pthread_attr_t attr;
	cpu_set_t other;
	int cpu = sched_getcpu(), r;

	if (!st || cpu < 0 || sched_getaffinity(0, sizeof(st->cpus), &st->cpus) < 0)
		goto plain;
	other = st->cpus;
	CPU_CLR(cpu, &other);
	if (CPU_COUNT(&other) == 0 || pthread_attr_init(&attr) != 0)
		goto plain;
	st->fn = fn;
	st->arg = arg;
	r = pthread_attr_setaffinity_np(&attr, sizeof(other), &other) == 0 ?
		pthread_create(t, &attr, trampoline, st) : -1;
	pthread_attr_destroy(&attr);
	if (r == 0)
		return 0;
plain:
	free(st);
	return pthread_create(t, NULL, fn, arg);
}
