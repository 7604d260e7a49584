/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/bwrecord-load THREADS CYCLES SLEEP_US ITERS: threads that sleep SLEEP_US and then
 * spin ITERS iterations, CYCLES times (each cycle is two context switches), for
 * bench/bwrecord.sh.  The work is fixed, not timed, so what recording adds to the
 * switch path shows up as more CPU time and not as less work in the same time.
 * Prints its own user+system CPU time in ms when done.
 * bench/bwrecord-load --calibrate US: the ITERS that spin about US microseconds here
 * (the fastest of 20 tries, so a preempted try does not count).
 * bench/bwrecord-load --pingpong N: two threads on one CPU hand a byte to each other
 * through pipes N times (2 N context switches, nothing else), then print the CPU time in
 * ms: the recorder's cost per switch without the noise of a workload's own CPU time.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long cycles, sleep_us, iters;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin(long n)
{
	volatile unsigned long x = 0;

	for (long i = 0; i < n; i++)
		x++;
}

static void *run(void *arg)
{
	(void)arg;
	for (long c = 0; c < cycles; c++) {
		usleep((useconds_t)sleep_us);
		spin(iters);
	}
	return NULL;
}

static int pp[2][2];

static void *pong(void *arg)
{
	char c;

	(void)arg;
	while (read(pp[0][0], &c, 1) == 1 && c)
		if (write(pp[1][1], &c, 1) != 1)
			break;
	return NULL;
}

static int pingpong(long n)
{
	struct rusage ru;
	cpu_set_t one;
	pthread_t t;
	char c = 1;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0 || pipe(pp[0]) < 0 || pipe(pp[1]) < 0)
		return 1;
	pthread_create(&t, NULL, pong, NULL);	/* inherits the one CPU */
	for (long i = 0; i < n; i++)
		if (write(pp[0][1], &c, 1) != 1 || read(pp[1][0], &c, 1) != 1)
			return 1;
	c = 0;
	if (write(pp[0][1], &c, 1) != 1)
		return 1;
	pthread_join(t, NULL);
	getrusage(RUSAGE_SELF, &ru);
	printf("%.3f\n", (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3);
	return 0;
}

static int calibrate(long us)
{
	const long n = 1000000;
	double best = 1e9;

	for (int i = 0; i < 20; i++) {
		double a = now();

		spin(n);
		if (now() - a < best)
			best = now() - a;
	}
	printf("%ld\n", (long)(n * (us / 1e6) / best));
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t[256];
	struct rusage ru;
	long n;

	if (argc == 3 && !strcmp(argv[1], "--calibrate"))
		return calibrate(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "--pingpong"))
		return pingpong(atol(argv[2]));
	if (argc != 5)
		return 2;
	n = atol(argv[1]);
	cycles = atol(argv[2]);
	sleep_us = atol(argv[3]);
	iters = atol(argv[4]);
	if (n < 1 || n > 256 || cycles < 1 || iters < 0)
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
