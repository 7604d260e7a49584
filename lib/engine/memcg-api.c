/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memcg engine's exported calls.  The engine (lib/libcgctl-memcg.la) is also linked
 * into cgctl after libcgctl.so, for validate and bench: an exported definition inside it
 * would be a second, static copy in cgctl (nm -D lists it), and cgctl's calls would bind
 * to it rather than to the library.  So the exports live here, in libcgctl.so only.
 */
#include <string.h>

#include "internal.h"
#include "engine/memcg-internal.h"

CGCTL_EXPORT int cgctl_memcg_era_get(uint32_t kver, struct cgctl_memcg_era *ret)
{
	struct cgctl_memcg_era e;
	size_t size;
	int r;

	/* the first release with @size had every member there is now: none may be left
	 * out; a later, larger structure gets what this one knows */
	if (!ret || ret->size < sizeof(e))
		return -EINVAL;
	size = ret->size;
	r = mg_era_get(kver, &e);
	if (r < 0)
		return r;
	e.size = size;
	memcpy(ret, &e, sizeof(e));
	return 0;
}

CGCTL_EXPORT uint64_t cgctl_memcg_stock_max_pages(uint32_t kver, unsigned int ncpu,
						  unsigned int nsubtree)
{
	return mg_stock_max_pages(kver, ncpu, nsubtree);
}

CGCTL_EXPORT int cgctl_memcg_usage_interval(uint32_t kver, unsigned int ncpu,
					    unsigned int nsubtree, uint64_t usage_pages,
					    uint64_t *lo, uint64_t *hi)
{
	return mg_usage_interval(kver, ncpu, nsubtree, usage_pages, lo, hi);
}
