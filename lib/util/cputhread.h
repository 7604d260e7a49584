/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CGCTL_UTIL_CPUTHREAD_H
#define CGCTL_UTIL_CPUTHREAD_H

#include <pthread.h>

/*
 * pthread_create() of a thread that starts on another CPU than the caller's.  Left to
 * the scheduler, a thread created by one that goes on running often waits on the
 * creator's CPU for the next load balancing: 1 to 5 ms on these 2-CPU machines, while
 * the other CPU idles.  Once running it may go anywhere again (its affinity is the
 * caller's).  On one CPU, or where affinity cannot be set, a plain pthread_create().
 * Returns: pthread_create()'s result.
 */
int cputhread_create(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
