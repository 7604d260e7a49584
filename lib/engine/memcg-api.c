/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memcg engine's exported calls.  The engine (lib/libcgctl-memcg.la) is also linked
 * into cgctl after libcgctl.so, for validate and bench: an exported definition inside it
 * would be a second, static copy in cgctl (nm -D lists it), and cgctl's calls would bind
 * to it rather than to the library.  So the exports live here, in libcgctl.so only.
 */
#include "internal.h"
#include "engine/memcg-internal.h"

CGCTL_EXPORT int cgctl_memcg_era_get(uint32_t kver, struct cgctl_memcg_era *ret)
{
	return mg_era_get(kver, ret);
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
