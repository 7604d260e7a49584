/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sd-bus, loaded when first needed (libmount loads libcryptsetup the same way, systemd
 * its optional libraries): only the commands that talk to systemd, on hosts whose PID 1
 * is systemd, pay for mapping libsystemd.so.0 and what it needs (libgcrypt, lz4, xz,
 * zstd, libcap: 0.5 ms of every start on these machines; HACKING.md, performance
 * notes).  The types and constants come from <systemd/sd-bus.h>; the functions are
 * called through the sym_ pointers below, valid after sdbus_open_system() succeeded.
 */
#ifndef CGCTL_UTIL_SDBUS_H
#define CGCTL_UTIL_SDBUS_H

#include <systemd/sd-bus.h>

#define SDBUS_SYMBOLS(X) \
	X(sd_bus_open_system) \
	X(sd_bus_flush_close_unref) \
	X(sd_bus_call) \
	X(sd_bus_call_method) \
	X(sd_bus_error_free) \
	X(sd_bus_match_signal) \
	X(sd_bus_message_new_method_call) \
	X(sd_bus_message_append) \
	X(sd_bus_message_open_container) \
	X(sd_bus_message_close_container) \
	X(sd_bus_message_read) \
	X(sd_bus_message_unref) \
	X(sd_bus_process) \
	X(sd_bus_wait)

#define SDBUS_DECLARE(f) extern __typeof__(f) *sym_##f;
SDBUS_SYMBOLS(SDBUS_DECLARE)
#undef SDBUS_DECLARE

/* Load libsystemd.so.0 (once a process, thread-safe) and connect to the system bus.
 * Returns: what sd_bus_open_system() returns; -ELIBACC when the library or one of its
 * functions cannot be loaded (libsystemd0 not installed). */
int sdbus_open_system(sd_bus **ret);

#endif
