/* A unit of the small C tree tests/kernel/bw-programs.sh builds with make -j2: compiled
 * six times, N = 1 ... 6, into unit1.o ... unit6.o (the names take N). */
#include <stdio.h>
#include <string.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define ITEM CAT(item, N)
#define UNIT CAT(unit, N)

struct ITEM { int key; double weight; char name[16]; };

static int cmp(const struct ITEM *a, const struct ITEM *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

static void sort(struct ITEM *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp(&v[j], &v[j - 1]) < 0; j--) {
			struct ITEM t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

double UNIT(int n);

double UNIT(int n)
{
	struct ITEM v[64];
	double s = 0;

	for (int i = 0; i < 64; i++) {
		v[i].key = (i * 7919 + N) % 101;
		v[i].weight = i * 0.5 + N;
		snprintf(v[i].name, sizeof(v[i].name), "u%d-%d", N, i);
	}
	sort(v, 64);
	for (int i = 0; i < n && i < 64; i++)
		s += v[i].weight * (double)strlen(v[i].name);
	return s;
}
