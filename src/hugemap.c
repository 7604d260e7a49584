/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <sys/mman.h>

#include "hugemap.h"

void *hugemap_new(void)
{
	size_t len = 2 * HUGEMAP_SIZE;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a, *end;

	if (p == MAP_FAILED)
		return NULL;
	/* the aligned 2 MiB inside twice that, the rest given back */
	a = (char *)(((uintptr_t)p + HUGEMAP_SIZE - 1) & ~(uintptr_t)(HUGEMAP_SIZE - 1));
	end = a + HUGEMAP_SIZE;
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (p + len > end)
		munmap(end, (size_t)(p + len - end));
	(void)madvise(a, HUGEMAP_SIZE, MADV_HUGEPAGE);
	return a;
}

void hugemap_free(void *p)
{
	if (p)
		munmap(p, HUGEMAP_SIZE);
}
