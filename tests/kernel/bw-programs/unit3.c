/* A unit of the small C tree tests/kernel/bw-programs.sh builds with make -j2. */
#include <stdio.h>
#include <string.h>

#define N3 3

struct item3 { int key; double weight; char name[16]; };

static int cmp3(const struct item3 *a, const struct item3 *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

static void sort3(struct item3 *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp3(&v[j], &v[j - 1]) < 0; j--) {
			struct item3 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

double unit3(int n)
{
	struct item3 v[64];
	double s = 0;

	for (int i = 0; i < 64; i++) {
		v[i].key = (i * 7919 + N3) % 101;
		v[i].weight = i * 0.5 + N3;
		snprintf(v[i].name, sizeof(v[i].name), "u%d-%d", N3, i);
	}
	sort3(v, 64);
	for (int i = 0; i < n && i < 64; i++)
		s += v[i].weight * (double)strlen(v[i].name);
	return s;
}
