/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page cache a task's file mappings cover without mapping it.
 *
 * v6.1's move charge walks every PTE of the moving mm (walk_page_range() with
 * mem_cgroup_count_precharge_pte_range() and mem_cgroup_move_charge_pte_range() as
 * pmd_entry callbacks), and for a none PTE in a file VMA get_mctgt_type() asks
 * mc_handle_file_pte(): "page is moved even if it's not RSS of this task
 * (page-faulted)", the page cache page at that offset (find_get_incore_page()), when it
 * is charged to the source (page_memcg(page) == mc.from).  The walk only visits PMDs
 * that have a page table (walk_pmd_range() skips pmd_none() without a pte_hole op), so
 * these are the file pages at unmapped addresses within the 2 MiB ranges where the
 * task has at least one page mapped or swapped.  (A table left with every entry none,
 * after MADV_DONTNEED, is not seen here: its pages are missed.)
 *
 * How: pagemap says where the tables are; the file of each VMA is mapped here through
 * /proc/PID/map_files (root only), mincore() says which of the unmapped offsets are in
 * the page cache, a read of each such page here maps it without I/O or a charge (the
 * page is resident; a page evicted meanwhile is read back in, the one cost of this), and
 * /proc/self/pagemap with kpagecgroup and kpageflags say whose it is and what it is.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/pagecache.h"
#include "kernel/pagescan.h"

#define BLK PS_PMD_PAGES	/* pages per 2 MiB block: one page table */

void pc_table_blocks(const uint64_t *pm, size_t n, uint64_t *blocks)
{
	for (size_t i = 0; i < n; i++)
		if (pm[i] & (PM_PRESENT | PM_SWAP))
			blocks[i / BLK / 64] |= 1ULL << (i / BLK % 64);
}

static int pread_all(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t k = pread(fd, (char *)buf + done, len - done, off + (off_t)done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0) {
			memset((char *)buf + done, 0, len - done);
			break;
		}
		done += (size_t)k;
	}
	return 0;
}

#define CHUNK (64 * BLK)	/* pages of pagemap read at a time: 256 KiB */

struct pc_scan {
	struct cgctl_ctx *ctx;
	int self_pm;
	uint64_t *pfns;		/* the pages found, each physical page once at the end */
	size_t n_pfns, cap_pfns;
	uint64_t *pm, *self;	/* CHUNK entries each */
	unsigned char *vec;	/* CHUNK */
};

static int add_pfn(struct pc_scan *s, uint64_t pfn)
{
	if (s->n_pfns == s->cap_pfns) {
		size_t c = s->cap_pfns ? s->cap_pfns * 2 : 1024;
		uint64_t *nv = realloc(s->pfns, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->pfns = nv;
		s->cap_pfns = c;
	}
	s->pfns[s->n_pfns++] = pfn;
	return 0;
}

/* Pages [lo, hi) of @v (within the chunk of pagemap entries @s->pm from @a), mapped
 * here at @map (the VMA's start): the resident ones at none PTEs in tabled blocks. */
static int scan_range(struct pc_scan *s, const struct ps_vma *v, char *map, uint64_t a,
		      uint64_t lo, uint64_t hi, uint64_t blocks)
{
	volatile const char *base = map + (lo - v->start) * 4096;
	size_t n = (size_t)(hi - lo), want = 0;
	int r;

	if (mincore((void *)base, n * 4096, s->vec) < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		uint64_t vpn = lo + i;

		s->vec[i] = (s->vec[i] & 1) && (blocks >> ((vpn - a) / BLK) & 1) &&
			    !(s->pm[vpn - a] & (PM_PRESENT | PM_SWAP));
		if (s->vec[i]) {
			(void)base[i * 4096];	/* resident: maps it, no I/O, no charge */
			want++;
		}
	}
	if (!want)
		return 0;
	r = pread_all(s->self_pm, s->self, n * 8, (off_t)((uintptr_t)base / 4096 * 8));
	for (size_t i = 0; r == 0 && i < n; i++) {
		if (!s->vec[i] || !(s->self[i] & PM_PRESENT))
			continue;	/* evicted and not read back yet: not counted */
		if (!(s->self[i] & PM_PFN_MASK))
			return -EPERM;	/* PFNs hidden: not root */
		r = add_pfn(s, s->self[i] & PM_PFN_MASK);
	}
	return r;
}

/* One file VMA of @pid, its pagemap read through @pm_fd, a chunk at a time. */
static int scan_vma(struct pc_scan *s, pid_t pid, int pm_fd, const struct ps_vma *v)
{
	size_t len = (size_t)(v->end - v->start);
	char path[96], *map;
	int fd, r = 0;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)pid,
		 v->start * 4096, v->end * 4096);
	fd = cgctl_open_sys(s->ctx, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;	/* unmapped meanwhile */
	map = mmap(NULL, len * 4096, PROT_READ, MAP_SHARED, fd, (off_t)(v->pgoff * 4096));
	close(fd);
	if (map == MAP_FAILED)
		return 0;	/* not a mappable file (a device): no page cache */
	for (uint64_t a = v->start / BLK * BLK; r == 0 && a < v->end; a += CHUNK) {
		uint64_t b = MIN(a + CHUNK, (v->end + BLK - 1) / BLK * BLK), blocks = 0;

		r = pread_all(pm_fd, s->pm, (size_t)(b - a) * 8, (off_t)(a * 8));
		if (r == 0) {
			pc_table_blocks(s->pm, (size_t)(b - a), &blocks);
			if (blocks)
				r = scan_range(s, v, map, a, MAX(a, v->start), MIN(b, v->end),
					       blocks);
		}
	}
	munmap(map, len * 4096);
	return r;
}

static int scan_task(struct pc_scan *s, pid_t pid, uint64_t lo, uint64_t hi)
{
	struct ps_vma *v = NULL;
	char path[64], *buf = NULL;
	size_t len;
	ssize_t n;
	int pm_fd, r;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	r = cgctl_read_sys(s->ctx, path, &buf, &len);
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	n = ps_parse_maps(buf, len, &v);
	free(buf);
	if (n <= 0)
		return (int)n;
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	pm_fd = cgctl_open_sys(s->ctx, path, O_RDONLY | O_CLOEXEC);
	r = pm_fd < 0 ? pm_fd : 0;
	for (ssize_t i = 0; r == 0 && i < n; i++)
		if (!v[i].anon && v[i].end > lo && v[i].start < hi)	/* file VMAs */
			r = scan_vma(s, pid, pm_fd, &v[i]);
	if (pm_fd >= 0)
		close(pm_fd);
	free(v);
	return r;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Each page found once: whose (kpagecgroup), which class (kpageflags). */
static int classify(struct pc_scan *s, uint64_t from_ino, struct cgctl_unmapped_cache *out)
{
	int kcg = cgctl_open_sys(s->ctx, "/proc/kpagecgroup", O_RDONLY | O_CLOEXEC);
	int kf = cgctl_open_sys(s->ctx, "/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	int r = kcg < 0 ? kcg : kf < 0 ? kf : 0;

	if (s->n_pfns)
		qsort(s->pfns, s->n_pfns, sizeof(*s->pfns), u64_cmp);
	for (size_t i = 0; r == 0 && i < s->n_pfns; i++) {
		uint64_t pfn = s->pfns[i], ino, f;
		bool shmem;

		if (i && pfn == s->pfns[i - 1])
			continue;
		if ((r = pread_all(kcg, &ino, 8, (off_t)(pfn * 8))) < 0 ||
		    (r = pread_all(kf, &f, 8, (off_t)(pfn * 8))) < 0)
			break;
		if (ino != from_ino) {
			out->elsewhere++;
			continue;
		}
		shmem = f & KPF_BIT(KPF_SWAPBACKED);
		if (shmem)
			out->shmem++;
		else
			out->file++;
		/* mem_cgroup_move_charge_pte_range() skips a large folio met through a PTE */
		if (f & (KPF_BIT(KPF_COMPOUND_HEAD) | KPF_BIT(KPF_COMPOUND_TAIL) |
			 KPF_BIT(KPF_THP))) {
			out->large++;
			out->large_shmem += shmem;
		}
	}
	if (kcg >= 0)
		close(kcg);
	if (kf >= 0)
		close(kf);
	return r;
}

int pc_scan_range(struct cgctl_ctx *ctx, const pid_t *pids, size_t n, uint64_t lo,
		  uint64_t hi, uint64_t from_ino, struct cgctl_unmapped_cache *out)
{
	struct pc_scan s = { .ctx = ctx, .self_pm = -1 };
	int r = 0;

	if (!ctx || !pids || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	s.pm = malloc(CHUNK * 8);
	s.self = malloc(CHUNK * 8);
	s.vec = malloc(CHUNK);
	if (!s.pm || !s.self || !s.vec)
		r = -ENOMEM;
	if (r == 0 && (s.self_pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)) < 0)
		r = -errno;
	for (size_t i = 0; r == 0 && i < n; i++)
		r = scan_task(&s, pids[i], lo, hi);
	if (r == 0)
		r = classify(&s, from_ino, out);
	if (s.self_pm >= 0)
		close(s.self_pm);
	free(s.pfns);
	free(s.pm);
	free(s.self);
	free(s.vec);
	if (r < 0)
		memset(out, 0, sizeof(*out));
	return r;
}

int cgctl_unmapped_cache_scan(struct cgctl_ctx *ctx, const pid_t *pids, size_t n,
			      uint64_t from_ino, struct cgctl_unmapped_cache *out)
{
	return pc_scan_range(ctx, pids, n, 0, UINT64_MAX, from_ino, out);
}
