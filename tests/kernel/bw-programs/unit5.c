/* A unit of the small C tree tests/kernel/bw-programs.sh builds with make -j2. */
#include <stdio.h>
#include <string.h>

#define N5 5

struct item5 { int key; double weight; char name[16]; };

static int cmp5(const struct item5 *a, const struct item5 *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

static void sort5(struct item5 *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp5(&v[j], &v[j - 1]) < 0; j--) {
			struct item5 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

double unit5(int n)
{
	struct item5 v[64];
	double s = 0;

	for (int i = 0; i < 64; i++) {
		v[i].key = (i * 7919 + N5) % 101;
		v[i].weight = i * 0.5 + N5;
		snprintf(v[i].name, sizeof(v[i].name), "u%d-%d", N5, i);
	}
	sort5(v, 64);
	for (int i = 0; i < n && i < 64; i++)
		s += v[i].weight * (double)strlen(v[i].name);
	return s;
}
