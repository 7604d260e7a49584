/* A unit of the small C tree tests/kernel/bw-programs.sh builds with make -j2. */
#include <stdio.h>
#include <string.h>

#define N1 1

struct item1 { int key; double weight; char name[16]; };

static int cmp1(const struct item1 *a, const struct item1 *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

static void sort1(struct item1 *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp1(&v[j], &v[j - 1]) < 0; j--) {
			struct item1 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

double unit1(int n)
{
	struct item1 v[64];
	double s = 0;

	for (int i = 0; i < 64; i++) {
		v[i].key = (i * 7919 + N1) % 101;
		v[i].weight = i * 0.5 + N1;
		snprintf(v[i].name, sizeof(v[i].name), "u%d-%d", N1, i);
	}
	sort1(v, 64);
	for (int i = 0; i < n && i < 64; i++)
		s += v[i].weight * (double)strlen(v[i].name);
	return s;
}
