// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * spinner: burn CPU until the process has used CPU_MS of it (0: forever); with -s print
 * its own rusage (utime+stime in ns, "rusage_ns=N") and stop itself (SIGSTOP) there, so
 * a parent can read its taskstats with nothing run in between (an exit, with a
 * sanitizer's leak check, costs tens of ms of CPU).
 *
 * spinner -p sleeps in pause() instead (TASK_INTERRUPTIBLE; nanosleep sleeps are
 * TASK_INTERRUPTIBLE|TASK_FREEZABLE since 6.1, which cgroupstats counts nowhere).
 *
 * usage: spinner [-s] [CPU_MS] | spinner -p
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	bool stop = false;
	long long limit;
	volatile unsigned long x = 0;
	int i = 1;

	if (i < argc && !strcmp(argv[i], "-p"))
		for (;;)
			pause();
	if (i < argc && !strcmp(argv[i], "-s"))
		stop = true, i++;
	limit = i < argc ? atoll(argv[i]) * 1000000LL : 0;
	for (;;) {
		int k;

		for (k = 0; k < 100000; k++)
			x += k;
		if (limit && cpu_ns() >= limit)
			break;
	}
	if (stop) {
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		printf("rusage_ns=%lld\n",
		       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL);
		fflush(stdout);
		raise(SIGSTOP);
	}
	return 0;
}
