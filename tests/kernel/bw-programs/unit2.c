/* A unit of the small C tree tests/kernel/bw-programs.sh builds with make -j2. */
#include <stdio.h>
#include <string.h>

#define N2 2

struct item2 { int key; double weight; char name[16]; };

static int cmp2(const struct item2 *a, const struct item2 *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

static void sort2(struct item2 *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp2(&v[j], &v[j - 1]) < 0; j--) {
			struct item2 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

double unit2(int n)
{
	struct item2 v[64];
	double s = 0;

	for (int i = 0; i < 64; i++) {
		v[i].key = (i * 7919 + N2) % 101;
		v[i].weight = i * 0.5 + N2;
		snprintf(v[i].name, sizeof(v[i].name), "u%d-%d", N2, i);
	}
	sort2(v, 64);
	for (int i = 0; i < n && i < 64; i++)
		s += v[i].weight * (double)strlen(v[i].name);
	return s;
}
