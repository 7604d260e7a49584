/* A unit of the small C tree tests/kernel/bw-programs.sh builds with make -j2. */
#include <stdio.h>
#include <string.h>

#define N4 4

struct item4 { int key; double weight; char name[16]; };

static int cmp4(const struct item4 *a, const struct item4 *b)
{
	return a->key < b->key ? -1 : a->key > b->key;
}

static void sort4(struct item4 *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp4(&v[j], &v[j - 1]) < 0; j--) {
			struct item4 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

double unit4(int n)
{
	struct item4 v[64];
	double s = 0;

	for (int i = 0; i < 64; i++) {
		v[i].key = (i * 7919 + N4) % 101;
		v[i].weight = i * 0.5 + N4;
		snprintf(v[i].name, sizeof(v[i].name), "u%d-%d", N4, i);
	}
	sort4(v, 64);
	for (int i = 0; i < n && i < 64; i++)
		s += v[i].weight * (double)strlen(v[i].name);
	return s;
}
