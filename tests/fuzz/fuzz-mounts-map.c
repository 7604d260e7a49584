/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The --root mount map, ROOT/cgctl-mounts ("<1|2> /path controllers|-" per line), on
 * arbitrary bytes: cgctl_hier_parse_map() into a context of its own.  Invariants (issue
 * 15's confinement): every hierarchy it accepts is version 1 or 2, its path absolute,
 * normalized to itself ("/../x" and other ".." paths refused, no control character), its
 * controllers a plain list (no blank or control character).  The context's root is an
 * empty directory made once (cgctl_new() refuses a root that does not exist, and then no
 * input would reach the parser); nothing is read from it.
 */
#include <limits.h>
#include <unistd.h>

#include "fuzz.h"
#include "kernel/hier.h"

static char root[] = "/tmp/cgctl-fuzz-root-XXXXXX";

static void remove_root(void)
{
	rmdir(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool made;
	struct cgctl_ctx *ctx = NULL;
	char *s;
	int r;

	if (!made) {
		FUZZ_CHECK(mkdtemp(root) != NULL);
		atexit(remove_root);
		made = true;
	}
	s = fuzz_str(data, size);
	if (!s)
		return 0;
	/* every input reaches the parser: a context that cannot be made is a finding */
	FUZZ_CHECK(cgctl_new(&ctx, root) == 0);
	cgctl_set_log_priority(ctx, 0);	/* the parser's complaints: 100x slower */
	r = cgctl_hier_parse_map(ctx, s);
	FUZZ_CHECK(r == 0 || r == -EINVAL || r == -ENOMEM);
	for (size_t i = 0; i < ctx->n_mounts; i++) {
		const struct cgctl_mount *m = &ctx->mounts[i];
		char norm[PATH_MAX];

		FUZZ_CHECK(m->version == 1 || m->version == 2);
		FUZZ_CHECK(m->path && m->path[0] == '/' && strlen(m->path) <= size);
		FUZZ_CHECK(!strstr(m->path, "/../") && strcmp(m->path, "/..") != 0);
		FUZZ_CHECK(cgctl_path_normalize(m->path, norm, sizeof(norm)) == 0);
		FUZZ_CHECK(m->controllers && strlen(m->controllers) <= size);
		for (const char *c = m->controllers; *c; c++)
			FUZZ_CHECK((unsigned char)*c > 0x20 && *c != 0x7f);
	}
	cgctl_unref(ctx);
	free(s);
	return 0;
}
