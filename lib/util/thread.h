/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The second thread of a call (stat's reader, move's follower): started and joined
 * within one library call, never kept. */
#ifndef CGCTL_UTIL_THREAD_H
#define CGCTL_UTIL_THREAD_H
#include <pthread.h>
#include <stdbool.h>

/* Whether this process may run on two CPUs or more (its affinity mask). */
bool util_two_cpus(void);
/* pthread_create() of @fn(@arg) with every signal blocked in the new thread: the
 * caller's signals stay with the caller's threads.  Returns: 0, -errno. */
int util_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);
#endif
