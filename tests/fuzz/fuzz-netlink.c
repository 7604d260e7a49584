// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink and /proc parsers of the netlink area on arbitrary bytes.  The first byte picks
 * the parser, the rest is the message, copied to an exact-size heap buffer so any read
 * past its end is caught (malloc's alignment stands in for the socket buffer's).
 */
#include "fuzz.h"
#include "kernel/netlink-msg.h"
#include "kernel/proctree.h"

static void one(uint8_t which, const uint8_t *p, size_t n)
{
	struct cgctl_procev ev[4];
	struct cgctl_taskstats ts;
	struct cgctl_cgroupstats cs;
	uint16_t fam;
	uint32_t id;
	size_t stored = 99;
	ssize_t r;
	pid_t pid;

	switch (which % 6) {
	case 0:
		r = cgctl_nl_parse_proc(p, n, ev, 4, &stored);
		FUZZ_CHECK(r == -EBADMSG || (r >= 0 && (size_t)r == stored));
		FUZZ_CHECK(stored <= 4);
		break;
	case 1:
		r = cgctl_nl_parse_family(p, n, 0, 0, &fam);
		FUZZ_CHECK(r <= 0 && r >= -4095);
		FUZZ_CHECK(r < 0 || fam != 0);
		break;
	case 2:
		r = cgctl_nl_parse_taskstats(p, n, 0, 0, &id, &ts);
		FUZZ_CHECK(r <= 0 && r >= -4095);
		FUZZ_CHECK(r < 0 || memchr(ts.comm, '\0', sizeof(ts.comm)));
		break;
	case 3:
		r = cgctl_nl_parse_cgroupstats(p, n, 0, 0, &cs);
		FUZZ_CHECK(r <= 0 && r >= -4095);
		break;
	case 4:
		r = cgctl_proctree_parse_ppid((const char *)p, n, &pid);
		FUZZ_CHECK(r == 0 || r == -EBADMSG);
		FUZZ_CHECK(r < 0 || pid >= 0);
		break;
	default:
		r = cgctl_proctree_parse_tgid((const char *)p, n, &pid);
		FUZZ_CHECK(r == 0 || r == -EBADMSG);
		FUZZ_CHECK(r < 0 || pid > 0);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	if (size < 1)
		return 0;
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	one(data[0], copy, size - 1);
	free(copy);
	return 0;
}
