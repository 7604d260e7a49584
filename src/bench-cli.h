/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cgctl bench` internals shared by cmd-bench.c and bench-print.c. */
#ifndef CGCTL_BENCH_CLI_H
#define CGCTL_BENCH_CLI_H

#include "cgctl.h"
#include "bench/bench.h"

/* The human table of a run and of a comparison (CONFIG, WALL/OP, ...). */
extern const struct out_table bench_tables[1];
extern const struct out_table bench_compare_tables[1];

/* A run's result: a row per configuration with mean, stddev, change against the
 * baseline (the first configuration) and Welch's verdict, the model's counts and the
 * kernel's check; --json adds every sample.  Returns: an exit status. */
int bench_print(struct cli *cli, const struct bexp *e, const struct bresult *r);
/* BEFORE against AFTER, per configuration both have.  Returns: an exit status. */
int bench_compare(struct cli *cli, const char *before, const char *after);

#endif
