/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `cgctl move` of many PIDs in the human output: the first MOVE_SUMMARY_ROWS rows of
 * the table (a screenful), then one line per destination with the totals and how to
 * get every row.  --json and --tsv (and -v) keep one row per PID.
 */
#ifndef CGCTL_MOVE_SUMMARY_H
#define CGCTL_MOVE_SUMMARY_H

#include <sys/types.h>

#include "cgctl.h"

#define MOVE_SUMMARY_ROWS 20

struct move_summary {
	const struct cgctl_mount *m;	/* the destination's hierarchy */
	const char *to;
	ssize_t threads_before;		/* threads in @to before the move; < 0: unknown */
	size_t tasks;			/* tasks moved (a dry run: that would move) */
	size_t failed;			/* tasks not moved (each had its line on stderr) */
	size_t expected_n, observed_n;	/* tasks with a plan, with observed counters */
	uint64_t expected_bytes;	/* Σ expected charge moved (plans) */
	int64_t observed_bytes;		/* Σ observed change of the destination's usage */
};

/* True when a move of @n PIDs prints the summary instead of every row. */
bool move_summary_wanted(const struct cli *cli, size_t n);
/* Start @s for the destination @to in @m: its threads counted before the move. */
void move_summary_begin(struct cli *cli, struct move_summary *s,
			const struct cgctl_mount *m, const char *to);
/* The "summary" list (one row for the destination) and the note on the rows left out
 * of the @rows printed @shown. */
void move_summary_emit(struct cli *cli, const struct move_summary *s, size_t shown,
		       size_t rows);

#endif
