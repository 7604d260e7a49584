// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * forkstorm: fork a child every INTERVAL_US; each child lives LIFE_MS (and with -g forks
 * one grandchild that lives as long), so a tree mover has to catch children born while
 * it moves.  Becomes its own process group leader so a test can kill -KILL -PGID.
 * Every descendant dies with its parent (PR_SET_PDEATHSIG).
 *
 * With -n COUNT it stops after COUNT children and waits (a static tree for a cost
 * measurement; give a long -l).
 *
 * usage: forkstorm [-i INTERVAL_US] [-l LIFE_MS] [-g] [-n COUNT]
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0)
		;
}

static void child(long life_ms, bool grand)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (grand && fork() == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sleep_us(life_ms * 1000);
		_exit(0);
	}
	sleep_us(life_ms * 1000);
	_exit(0);
}

int main(int argc, char **argv)
{
	long interval_us = 1000, life_ms = 1000;
	bool grand = false;
	struct timespec next;
	long count = 0;
	int c;

	while ((c = getopt(argc, argv, "i:l:gn:")) != -1) {
		switch (c) {
		case 'i': interval_us = atol(optarg); break;
		case 'l': life_ms = atol(optarg); break;
		case 'g': grand = true; break;
		case 'n': count = atol(optarg); break;
		default:
			fprintf(stderr, "usage: forkstorm [-i INTERVAL_US] [-l LIFE_MS] [-g] [-n COUNT]\n");
			return 2;
		}
	}
	setpgid(0, 0);
	signal(SIGCHLD, SIG_IGN);	/* children are reaped by the kernel */
	/* an absolute schedule: a late wake-up forks the missed children at once, so the
	 * rate holds on a loaded machine */
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		struct timespec now;

		if (fork() == 0)
			child(life_ms, grand);
		if (count && --count == 0)
			for (;;)
				pause();
		next.tv_nsec += interval_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec < next.tv_sec ||
		    (now.tv_sec == next.tv_sec && now.tv_nsec < next.tv_nsec))
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL))
				;
	}
}
