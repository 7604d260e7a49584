/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Units for humans and exit codes (lib/util/units.c, errmap.c): in libcgctl-util.la,
 * linked into the library (not exported) and into cgctl, which is their caller
 * (issue 28: formatting and the CLI's exit codes are not the library's API).
 */
#ifndef CGCTL_UTIL_UNITS_H
#define CGCTL_UTIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * cgctl_parse_size: "4096", "512K", "1.5G", "512MiB", "max" (-> CGCTL_SIZE_MAX).
 * K/M/G/T/P/E (also k/m/g/t/p/e, as the kernel's memparse() takes them) and KiB.. are
 * powers of 1024; a fraction must come to a whole number of
 * bytes.  Returns: 0, -EINVAL (empty, negative, junk, fractional bytes), -ERANGE (overflow).
 */
int cgctl_parse_size(const char *s, uint64_t *ret);
/*
 * cgctl_parse_duration: "500us", "50ms", "1.5s", "2m", "100ns"; a plain number is taken
 * in @plain_unit_ns (1000 for files in µs; 0 means 1000).  Result in ns, exact.
 * Returns: 0, -EINVAL, -ERANGE.
 */
int cgctl_parse_duration(const char *s, uint64_t plain_unit_ns, uint64_t *ret);
/* Format for humans, at most two decimals, trailing zeros dropped, in the unit the
 * rounded value stays below 1024 (sizes) or 1000 (durations) of: "512MiB", "1.5GiB",
 * "1MiB" for 1048575 B, "max"; "50ms", "1.5s", "1ms" for 999999 ns.  Returns the length
 * that was (or would have been) written, like snprintf (@buf may be NULL when @len is 0);
 * -EINVAL for a NULL @buf with a @len. */
int cgctl_format_size(char *buf, size_t len, uint64_t bytes);
int cgctl_format_duration(char *buf, size_t len, uint64_t ns);

/* Returns: the exit status the CLI uses for a -errno (see cgctl(1) EXIT STATUS). */
int cgctl_errno_to_exit(int neg_errno);

#endif
