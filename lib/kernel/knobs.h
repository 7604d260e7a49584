/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one table of cgroup interface files cgctl knows (the libmount optmap way): per
 * knob its v1 and v2 file, unit, spelling of "no limit" and the first kernel that has
 * it.  The readers (settings-read.c), `set`'s syntax check and the executor's order
 * (settings-set.c, settings-apply.c), the memory <= memsw rule and the shell
 * completion of knob names (cgctl_knob_file(), `cgctl set --help`) all use it.
 * Not installed.
 */
#ifndef CGCTL_KERNEL_KNOBS_H
#define CGCTL_KERNEL_KNOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "libcgctl.h"

enum knob_unit {
	KNOB_TEXT,	/* anything without a newline: the kernel judges */
	KNOB_BYTES,	/* memparse() bytes, or the unlimited spelling */
	KNOB_COUNT,	/* decimal */
	KNOB_SIGNED,	/* decimal, may be negative */
	KNOB_MAXCOUNT,	/* "max" or decimal */
	KNOB_BOOL,	/* 0 or 1 */
	KNOB_CPUMAX,	/* "max|QUOTA [PERIOD]", microseconds */
};

#define KNOB_ACTION	(1u << 0)	/* a write is an act: nothing to restore */
#define KNOB_TASKS	(1u << 1)	/* moves tasks: refused, use move */
#define KNOB_NORESTORE	(1u << 2)	/* reads back in a form it does not take */
#define KNOB_BW		(1u << 3)	/* CPU bandwidth: planned against the tree */
#define KNOB_LIMIT	(1u << 4)	/* a memory limit: ordered tighter first */

struct knob {
	const char *name;		/* what the files are, "memory.limit" */
	const char *file[2];		/* v1, v2 interface file; NULL: not on that version */
	enum knob_unit unit[2];
	const char *unlimited[2];	/* v1, v2 spelling of no limit; NULL: none */
	uint32_t since[2];		/* first kernel with the file, v1, v2 */
	unsigned int flags;		/* KNOB_* */
	unsigned int memset;		/* CGCTL_MEMSET_* bit it is read into, 0 */
	int down, up;			/* KNOB_LIMIT: rank when lowered, when raised */
};

/* Returns: the knob whose v1 or v2 file is @file (*@version set to 1 or 2), or NULL. */
const struct knob *knob_by_file(const char *file, int *version);
/* Returns: the knob read into CGCTL_MEMSET_* @bit on cgroup @version, or NULL. */
const struct knob *knob_by_memset(unsigned int bit, int version);
/* Returns: the @i-th knob, NULL past the end. */
const struct knob *knob_at(size_t i);
/* Returns: the file of @k on cgroup @version (1, 2), or NULL. */
const char *knob_file(const struct knob *k, int version);

/* Returns: @kver, or when unknown (0, a fixture without osrelease) the first kernel of
 * page_counter_memparse() (3.19), whose rounding every kernel since keeps. */
uint32_t knob_kver(uint32_t kver);
/*
 * The v1 rule of mem_cgroup_resize_max(): memory.limit_in_bytes must not exceed
 * memory.memsw.limit_in_bytes, compared in the pages the running kernel @kver keeps
 * (cgctl_memcg_limit_pages(): the res_counter era rounds up, page_counter_memparse()
 * down).  UINT64_MAX is unlimited.  Returns: true when @mem and @memsw (bytes) obey it.
 */
bool knob_memsw_ok(uint32_t kver, uint64_t mem, uint64_t memsw);

#endif
