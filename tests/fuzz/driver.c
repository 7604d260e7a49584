/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs a libFuzzer harness over its seed corpus without libFuzzer, so `make check` tests
 * every corpus with the normal compiler (and its sanitizers when configured with them).
 *
 *   tests/fuzz/fuzz-NAME [FILE|DIR]...
 *
 * Without arguments the corpus is $top_srcdir/tests/fuzz/corpus/NAME (NAME from argv[0]).
 * Each input is copied into a buffer of exactly its size, so an over-read is caught by
 * ASan; every prefix of an input up to 4 KiB is fed too, which finds reads past the end
 * of a truncated line.  An empty corpus fails: a missing seed directory is a bug.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PREFIX_MAX 4096

static int read_file(const char *path, uint8_t **ret, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return -errno;
	for (;;) {
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap = cap ? cap * 2 : 4096);

			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		if (!got)
			break;
		n += got;
	}
	fclose(f);
	*ret = buf;
	*len = n;
	return 0;
}

/* Feed @data (and its prefixes) in exact-size heap copies. */
static void feed(const uint8_t *data, size_t len)
{
	size_t max_prefix = len < PREFIX_MAX ? len : PREFIX_MAX;

	for (size_t i = 0; i <= max_prefix; i++) {
		size_t n = i == max_prefix ? len : i;
		uint8_t *copy = malloc(n ? n : 1);

		if (!copy)
			abort();
		memcpy(copy, data, n);
		LLVMFuzzerTestOneInput(copy, n);
		free(copy);
	}
}

static int run_file(const char *path)
{
	uint8_t *data = NULL;
	size_t len = 0;
	int r = read_file(path, &data, &len);

	if (r < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(-r));
		return r;
	}
	feed(data, len);
	free(data);
	return 1;
}

static int run_path(const char *path)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int n = 0, r;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *p;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", path, de->d_name) < 0) {
			closedir(d);
			return -ENOMEM;
		}
		r = run_path(p);
		free(p);
		if (r < 0) {
			closedir(d);
			return r;
		}
		n += r;
	}
	closedir(d);
	return n;
}

static char *default_corpus(const char *argv0)
{
	const char *name = strrchr(argv0, '/'), *top = getenv("top_srcdir");
	char *p;

	name = name ? name + 1 : argv0;
	if (!strncmp(name, "lt-", 3))
		name += 3;
	if (!strncmp(name, "fuzz-", 5))
		name += 5;
	if (!top || !*top)
		top = FUZZ_TOP_SRCDIR;
	if (asprintf(&p, "%s/tests/fuzz/corpus/%s", top, name) < 0)
		return NULL;
	return p;
}

int main(int argc, char **argv)
{
	char *corpus = NULL;
	int total = 0, r;

	if (argc < 2) {
		corpus = default_corpus(argv[0]);
		if (!corpus)
			return EXIT_FAILURE;
		r = run_path(corpus);
		total = r;
	} else {
		for (int i = 1; i < argc && (r = run_path(argv[i])) >= 0; i++)
			total += r;
	}
	if (r < 0 || total == 0) {
		fprintf(stderr, "%s: %s\n", argv[0],
			r < 0 ? "cannot read the corpus" : "empty corpus");
		free(corpus);
		return EXIT_FAILURE;
	}
	printf("%s: %d inputs (and their prefixes) ok%s%s\n", argv[0], total,
	       corpus ? " from " : "", corpus ? corpus : "");
	free(corpus);
	return EXIT_SUCCESS;
}
