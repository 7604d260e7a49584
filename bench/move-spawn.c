/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * move-spawn N PIDFILE: fork N idle children (they die with the parent), write their
 * PIDs one per line to PIDFILE, then wait for SIGTERM/SIGINT and kill them.  Helper of
 * bench/move.sh.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	long n = argc == 3 ? strtol(argv[1], NULL, 10) : 0;
	pid_t *pids = calloc((size_t)(n > 0 ? n : 1), sizeof(*pids));
	FILE *f;

	if (n <= 0 || !pids)
		return 2;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (long i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return 1;
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			signal(SIGTERM, SIG_DFL);
			for (;;)
				pause();
		}
	}
	f = fopen(argv[2], "w");
	if (!f)
		return 1;
	for (long i = 0; i < n; i++)
		fprintf(f, "%d\n", (int)pids[i]);
	fclose(f);
	while (!stop)
		pause();
	for (long i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	return 0;
}
