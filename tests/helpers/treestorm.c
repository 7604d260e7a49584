// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * treestorm: a tree in which every process forks: each one forks a child every
 * FORK_MIN..FORK_MAX ms (uniformly random) and every process but the root lives
 * LIFE_MIN..LIFE_MAX ms.  Without a limit it would grow without bound: run it under a
 * pids cgroup limit, where forks fail with EAGAIN and are tried again at the next tick
 * (issue 15's storm: fork every 2-20 ms, live 20-300 ms).
 *
 * The root is its own process group leader and a child subreaper
 * (PR_SET_CHILD_SUBREAPER): an orphan is re-parented to it and stays in the tree, so
 * "every live task of the group is a tree member" holds and a test can count any task
 * left in the source cgroup as a straggler.  Orphans and children are reaped by the
 * kernel (SIGCHLD ignored).
 *
 * usage: treestorm [-f FORK_MIN_MS,FORK_MAX_MS] [-l LIFE_MIN_MS,LIFE_MAX_MS]
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long fork_min = 2, fork_max = 20, life_min = 20, life_max = 300;

static long pick(unsigned int *seed, long lo, long hi)
{
	return lo + (long)(rand_r(seed) % (unsigned int)(hi - lo + 1));
}

static void add_ms(struct timespec *t, long ms)
{
	t->tv_nsec += (ms % 1000) * 1000000;
	t->tv_sec += ms / 1000 + t->tv_nsec / 1000000000;
	t->tv_nsec %= 1000000000;
}

static int before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Fork on schedule; the root forever, every child until its end of life. */
static void run(unsigned int seed)
{
	struct timespec next, now, end;
	bool mortal = false;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		add_ms(&next, pick(&seed, fork_min, fork_max));
		if (mortal && !before(&next, &end))
			next = end;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL))
			;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (mortal && !before(&now, &end))
			_exit(0);
		if (fork() == 0) {	/* the child: a life of its own, forking too */
			seed = seed * 1103515245u + (unsigned int)getpid();
			clock_gettime(CLOCK_MONOTONIC, &end);
			add_ms(&end, pick(&seed, life_min, life_max));
			clock_gettime(CLOCK_MONOTONIC, &next);
			mortal = true;
		}
		/* failed: EAGAIN under the pids limit, tried again at the next tick */
	}
}

static int range(const char *s, long *lo, long *hi)
{
	char *end;

	*lo = strtol(s, &end, 10);
	if (*end != ',')
		return -1;
	*hi = strtol(end + 1, &end, 10);
	return *end || *lo < 1 || *hi < *lo ? -1 : 0;
}

int main(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "f:l:")) != -1) {
		if ((c == 'f' && range(optarg, &fork_min, &fork_max) == 0) ||
		    (c == 'l' && range(optarg, &life_min, &life_max) == 0))
			continue;
		fprintf(stderr, "usage: treestorm [-f MIN_MS,MAX_MS] [-l MIN_MS,MAX_MS]\n");
		return 2;
	}
	setpgid(0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	signal(SIGCHLD, SIG_IGN);
	run((unsigned int)getpid());
	return 0;
}
