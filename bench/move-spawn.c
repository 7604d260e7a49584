/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * move-spawn N PIDFILE: fork N idle children (they die with the parent), write their
 * PIDs one per line to PIDFILE, then wait for SIGTERM/SIGINT and kill them.
 * move-spawn -w PIDFILE DIR...: the physical floor of a move: write each PID of PIDFILE
 * with one write(2) to DIR/cgroup.procs of every DIR (files opened once), nothing else.
 * Helper of bench/move.sh.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Returns: 0 when every write succeeded. */
static int write_floor(const char *pidfile, int ndirs, char **dirs)
{
	int fds[16], bad = 0;
	char line[32];
	FILE *f = fopen(pidfile, "r");

	if (!f || ndirs < 1 || ndirs > 16)
		return 2;
	for (int i = 0; i < ndirs; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/cgroup.procs", dirs[i]);
		fds[i] = open(path, O_WRONLY | O_CLOEXEC);
		if (fds[i] < 0) {
			perror(path);
			return 1;
		}
	}
	while (fgets(line, sizeof(line), f))
		for (int i = 0; i < ndirs; i++)
			if (write(fds[i], line, strlen(line)) < 0)
				bad++;
	fclose(f);
	return bad ? 1 : 0;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	long n = argc == 3 ? strtol(argv[1], NULL, 10) : 0;
	pid_t *pids;
	FILE *f;

	if (argc >= 4 && strcmp(argv[1], "-w") == 0)
		return write_floor(argv[2], argc - 3, argv + 3);
	pids = calloc((size_t)(n > 0 ? n : 1), sizeof(*pids));
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
