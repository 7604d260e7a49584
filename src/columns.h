/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The human columns of the commands that print tables (cgctl(1) TABLE OPTIONS): one
 * out_table per list a command prints, its columns named for humans (upper case,
 * hyphens) and mapped to the flattened keys the command's rows carry.
 */
#ifndef CGCTL_COLUMNS_H
#define CGCTL_COLUMNS_H

#include "output.h"

extern const struct out_table stat_tables[2];		/* cgroups, processes */
extern const struct out_table tree_tables[1];		/* cgroups */
extern const struct out_table move_tables[1];		/* moves */
extern const struct out_table move_tree_tables[1];	/* moves, with --tree */
extern const struct out_table memwhere_tables[2];	/* charged, tasks */
extern const struct out_table memwhere_ino_tables[2];	/* with --inodes */

#define N_TABLES(t) (sizeof(t) / sizeof((t)[0]))

#endif
