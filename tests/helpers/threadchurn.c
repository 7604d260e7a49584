// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * threadchurn: N threads (64), each of which starts its replacement and exits, over and
 * over, so the set of TIDs is never the same twice.  Moving it one TID at a time (v1
 * "tasks") loses threads; one write of the PID to cgroup.procs moves the whole group.
 *
 * usage: threadchurn [-n THREADS] [-w WORK_US]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long work_us = 200;
static pthread_attr_t attr;

static void busy_us(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static void *worker(void *arg)
{
	pthread_t t;

	busy_us(work_us);
	/* replace myself; if the kernel is short of threads, try again */
	while (pthread_create(&t, &attr, worker, NULL) != 0)
		busy_us(100);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = 64, c, i;
	pthread_t t;

	while ((c = getopt(argc, argv, "n:w:")) != -1) {
		switch (c) {
		case 'n': n = atoi(optarg); break;
		case 'w': work_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: threadchurn [-n THREADS] [-w WORK_US]\n");
			return 2;
		}
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++)
		if (pthread_create(&t, &attr, worker, NULL) != 0)
			return 1;
	for (;;)
		pause();
}
