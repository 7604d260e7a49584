/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sd-bus loaded at first use: see sdbus.h. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#include "util/sdbus.h"

#define SDBUS_DEFINE(f) __typeof__(f) *sym_##f;
SDBUS_SYMBOLS(SDBUS_DEFINE)
#undef SDBUS_DEFINE

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -ELIBACC;

static void load(void)
{
	/* never closed: the pointers stay valid for the life of the process */
	void *dl = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);

	if (!dl)
		return;
#define SDBUS_LOAD(f) \
	if (!(*(void **)&sym_##f = dlsym(dl, #f))) \
		return;
	SDBUS_SYMBOLS(SDBUS_LOAD)
#undef SDBUS_LOAD
	loaded = 0;
}

int sdbus_open_system(sd_bus **ret)
{
	if (!ret)
		return -EINVAL;
	*ret = NULL;
	pthread_once(&once, load);
	if (loaded < 0)
		return loaded;
	return sym_sd_bus_open_system(ret);
}
