/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGCTL_WORKLOAD_H
#define CGCTL_WORKLOAD_H

/*
 * The built-in workloads of `cgctl validate` (hidden command `cgctl __workload`):
 *   spin THREADS MS                  THREADS busy threads for MS ms of wall time
 *   duty THREADS BUSY_MS IDLE_MS MS  each thread: BUSY_MS of CPU time, sleep IDLE_MS
 *   touch PAGES [THREADS]            fault in PAGES anonymous 4 KiB pages (no THP)
 *   fork-touch PAGES                 touch, then fork a child sharing them (COW)
 *   file-touch PATH PAGES            write a PAGES-page file, map it shared, touch it
 *   touch-timed PAGES                touch, "done ... ns=WALL" (memhigh)
 *   read-file PATH PAGES CHUNK       write, fsync and uncache a file, then read() it
 *                                    CHUNK pages at a time, "done ... ns=WALL" (memhigh)
 * Protocol on stdin/stdout: "ready pid=P" -> waits for a line "go" -> works ->
 * "done key=value..." -> exits 0 when stdin reaches EOF.
 * Returns: the exit status.
 */
int workload_main(int argc, const char **argv);

#endif
