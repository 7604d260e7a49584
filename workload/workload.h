/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of cgctl-workload's files (protocol lines, numbers). */
#ifndef CGCTL_WORKLOAD_H
#define CGCTL_WORKLOAD_H

#include <stdint.h>
#include <time.h>

uint64_t wl_clock_ns(clockid_t id);
/* One protocol line on stdout.  Returns: 0, -1. */
int wl_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Read stdin until a line "go" (0) or EOF (-1). */
int wl_wait_go(void);
/* Until the parent closes our stdin. */
void wl_wait_eof(void);
/* A decimal in 0..@max.  Returns: 0, -1. */
int wl_num(const char *s, unsigned long max, unsigned long *v);

/* bench-loops.c: the loops of `cgctl bench` (cgctl-bench(1)) */
int wl_bench_fault(int argc, const char **argv);
int wl_bench_alloc(int argc, const char **argv);
int wl_bench_pipe(int argc, const char **argv);
int wl_bench_procread(int argc, const char **argv);

#endif
