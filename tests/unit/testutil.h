/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared helpers of the Check-based unit tests. */
#ifndef CGCTL_TESTUTIL_H
#define CGCTL_TESTUTIL_H

#include <check.h>
#include <stddef.h>

/* Run @s (takes ownership); Returns: the process exit status (0 if all passed). */
int tu_run(Suite *s);
/* A fresh temporary directory (removed with tu_rmtree).  Returns: malloc'ed path. */
char *tu_mkdtemp(void);
/* Write @content to @dir/@rel, creating parent directories.  Returns: 0 / -errno. */
int tu_write(const char *dir, const char *rel, const char *content);
/* Remove a directory tree.  Returns: 0 / -errno. */
int tu_rmtree(const char *dir);
/* Read a whole file (malloc'ed, NUL-terminated) or NULL. */
char *tu_read(const char *dir, const char *rel);
/* Entries of directory @dir other than "." and ".." (open fds, threads under /proc/self).
 * Returns: the count, -1 when @dir cannot be opened. */
int tu_count_entries(const char *dir);

#endif
