/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* struct cgctl_ctx: refcounted library context (root prefix, logging, discovered mounts,
 * the taskstats socket, the cgroup locks held). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "ctx.h"

static void log_stderr(void *data, int priority, const char *file, int line, const char *fn,
		       const char *format, va_list args)
{
	fprintf(stderr, "libcgctl: %s: ", fn);
	vfprintf(stderr, format, args);
	fputc('\n', stderr);
}

static int log_priority(const char *s)
{
	static const struct {
		const char *name;
		int prio;
	} names[] = {
		{ "err", LOG_ERR },	    { "error", LOG_ERR }, { "warning", LOG_WARNING },
		{ "notice", LOG_NOTICE }, { "info", LOG_INFO }, { "debug", LOG_DEBUG },
	};
	char *end;
	long v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(s, names[i].name) == 0)
			return names[i].prio;
	v = strtol(s, &end, 10);
	if (*s && !*end && v >= 0 && v <= LOG_DEBUG)
		return (int)v;
	return LOG_ERR;
}

CGCTL_EXPORT int cgctl_new(struct cgctl_ctx **ret, const char *root)
{
	struct cgctl_ctx *ctx;
	const char *env;
	struct stat st;

	/* "" is no root: a caller's empty variable must not silently mean the live
	 * system (NULL does) */
	if (!ret || (root && !*root))
		return -EINVAL;
	if (root && *root && (stat(root, &st) < 0 || !S_ISDIR(st.st_mode)))
		return -ENOENT;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	pthread_mutex_init(&ctx->nl_lock, NULL);
	ctx->log_fn = log_stderr;
	ctx->log_priority = LOG_ERR;
	env = secure_getenv("CGCTL_LOG");
	if (env)
		ctx->log_priority = log_priority(env);
	ctx->root = strdup(root && *root ? root : "");
	if (!ctx->root) {
		pthread_mutex_destroy(&ctx->nl_lock);
		free(ctx);
		return -ENOMEM;
	}
	/* "/fixture/" and "/fixture" are the same prefix */
	while (*ctx->root && ctx->root[strlen(ctx->root) - 1] == '/')
		ctx->root[strlen(ctx->root) - 1] = '\0';
	*ret = ctx;
	return 0;
}

struct cgctl_ctx *cgctl_ref(struct cgctl_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

CGCTL_EXPORT struct cgctl_ctx *cgctl_unref(struct cgctl_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return ctx;
	cgctl_ctx_release_mounts(ctx);
	cgctl_ctx_release_netlink(ctx);
	cgctl_ctx_release_locks(ctx);
	pthread_mutex_destroy(&ctx->nl_lock);
	free(ctx->root);
	free(ctx);
	return NULL;
}

CGCTL_EXPORT const char *cgctl_get_root(const struct cgctl_ctx *ctx)
{
	return ctx ? ctx->root : NULL;
}

CGCTL_EXPORT void cgctl_set_log_fn(struct cgctl_ctx *ctx, cgctl_log_fn fn, void *data)
{
	if (!ctx)
		return;
	ctx->log_fn = fn ? fn : log_stderr;
	ctx->log_data = data;
}

CGCTL_EXPORT int cgctl_get_log_priority(const struct cgctl_ctx *ctx)
{
	return ctx ? ctx->log_priority : LOG_ERR;
}

CGCTL_EXPORT void cgctl_set_log_priority(struct cgctl_ctx *ctx, int priority)
{
	if (ctx)
		ctx->log_priority = priority;
}

void cgctl_log(const struct cgctl_ctx *ctx, int priority, const char *file, int line,
	       const char *fn, const char *format, ...)
{
	va_list ap;

	if (!ctx)
		return;
	va_start(ap, format);
	ctx->log_fn(ctx->log_data, priority, file, line, fn, format, ap);
	va_end(ap);
}
