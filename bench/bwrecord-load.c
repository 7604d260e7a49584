/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/bwrecord-load THREADS SECONDS SLEEP_US BUSY_US: threads that sleep SLEEP_US and
 * spin BUSY_US in turn (each cycle is two context switches), for bench/bwrecord.sh.
 * Prints its own user+system CPU time in ms when done.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long secs, sleep_us, busy_us;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	double end = now() + secs;
	volatile unsigned long x = 0;

	(void)arg;
	while (now() < end) {
		double b = now() + busy_us / 1e6;

		usleep((useconds_t)sleep_us);
		while (now() < b)
			x++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[256];
	struct rusage ru;
	long n;

	if (argc != 5)
		return 2;
	n = atol(argv[1]);
	secs = atol(argv[2]);
	sleep_us = atol(argv[3]);
	busy_us = atol(argv[4]);
	if (n < 1 || n > 256)
		return 2;
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, run, NULL);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	getrusage(RUSAGE_SELF, &ru);
	printf("%ld\n", (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000);
	return 0;
}
