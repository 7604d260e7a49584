/* A unit of the small C tree tests/kernel/bw-programs.sh builds with make -j2. */
#include <stdio.h>
#include <string.h>

#define N6 6

struct item6 { int key; double weight; char name[16]; };

static int cmp6(const struct item6 *a, const struct item6 *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

static void sort6(struct item6 *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp6(&v[j], &v[j - 1]) < 0; j--) {
			struct item6 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

double unit6(int n)
{
	struct item6 v[64];
	double s = 0;

	for (int i = 0; i < 64; i++) {
		v[i].key = (i * 7919 + N6) % 101;
		v[i].weight = i * 0.5 + N6;
		snprintf(v[i].name, sizeof(v[i].name), "u%d-%d", N6, i);
	}
	sort6(v, 64);
	for (int i = 0; i < n && i < 64; i++)
		s += v[i].weight * (double)strlen(v[i].name);
	return s;
}
