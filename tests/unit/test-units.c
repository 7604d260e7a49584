/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests of lib/util/units.c: sizes and durations as the CLI takes them, and the human
 * formatting back.  Table driven; every row is its own Check test (loop tests).
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)
#define TiB (1024ull * GiB)
#define PiB (1024ull * TiB)
#define EiB (1024ull * PiB)
#define US 1000ull
#define MS 1000000ull
#define SEC 1000000000ull
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *s;
	uint64_t want;
} size_ok[] = {
	{ "0", 0 },
	{ "4096", 4096 },
	{ "1B", 1 },
	{ "512K", 512 * KiB },
	{ "512KiB", 512 * KiB },
	{ "512KB", 512 * KiB },
	{ "512MiB", 512 * MiB },
	{ "1.5G", 3 * GiB / 2 },			/* exact fraction */
	{ "1.5GiB", 3 * GiB / 2 },
	{ "0.5K", 512 },
	{ "1.25M", 5 * MiB / 4 },
	{ "1.0009765625K", 1025 },			/* 1 + 1/1024 KiB: whole bytes */
	{ "2T", 2 * TiB },
	{ "3P", 3 * PiB },
	{ "15E", 15 * EiB },
	{ "15.9375E", 255 * (EiB / 16) },		/* largest exact fraction below 16E */
	{ "18446744073709551615", UINT64_MAX },
	{ "max", UINT64_MAX },
	{ "007", 7 },
	{ "512m", 512 * MiB },				/* memparse()'s lower case */
	{ "4k", 4 * KiB },
	{ "1.5g", 3 * GiB / 2 },
	{ "2t", 2 * TiB },
};

static const struct {
	const char *s;
	int err;
} size_bad[] = {
	{ "", -EINVAL },				/* empty */
	{ "-1", -EINVAL },				/* negative */
	{ "-0", -EINVAL },
	{ "+1", -EINVAL },
	{ "18446744073709551616", -ERANGE },		/* overflow */
	{ "99999999999999999999999", -ERANGE },
	{ "16E", -ERANGE },
	{ "16384P", -ERANGE },
	{ "17179869184G", -ERANGE },
	{ "16.0E", -ERANGE },
	{ "1.5", -EINVAL },				/* fractional bytes */
	{ "1.1B", -EINVAL },
	{ "0.3K", -EINVAL },				/* 307.2 bytes */
	{ "1.00000001M", -EINVAL },
	{ "12abc", -EINVAL },				/* trailing junk */
	{ "1K2", -EINVAL },
	{ "1KiBs", -EINVAL },
	{ "0x10", -EINVAL },
	{ "1e3", -EINVAL },
	{ "1X", -EINVAL },				/* bad suffix */
	{ "1Ki", -EINVAL },
	{ "1kib", -EINVAL },				/* only the single letters */
	{ "1mb", -EINVAL },
	{ "1ms", -EINVAL },
	{ " 1K", -EINVAL },				/* whitespace */
	{ "1K ", -EINVAL },
	{ "1 K", -EINVAL },
	{ "1K\n", -EINVAL },
	{ "\t1", -EINVAL },
	{ "K", -EINVAL },				/* no number */
	{ ".", -EINVAL },
	{ "1.", -EINVAL },
	{ "1..5K", -EINVAL },
	{ "MAX", -EINVAL },
	{ "max ", -EINVAL },
	{ "maximum", -EINVAL },
	{ "1,5G", -EINVAL },
};

static const struct {
	const char *s;
	uint64_t plain;
	uint64_t want;
} dur_ok[] = {
	{ "100ns", US, 100 },
	{ "500us", US, 500 * US },
	{ "50ms", US, 50 * MS },
	{ "1s", US, SEC },
	{ "1.5s", US, 3 * SEC / 2 },
	{ "2m", US, 120 * SEC },
	{ "0.5us", US, 500 },
	{ "1.5ms", US, 1500 * US },
	{ "0.000001ms", US, 1 },
	{ "0", US, 0 },
	{ "100000", US, 100 * MS },			/* plain: µs files */
	{ "1.5", US, 1500 },
	{ "123", 1, 123 },				/* plain: ns */
	{ "2", SEC, 2 * SEC },				/* plain: s */
	{ "18446744073s", US, 18446744073 * SEC },
	{ "18446744073709551615ns", US, UINT64_MAX },
	{ "18446744073709551", US, 18446744073709551000ull },
};

static const struct {
	const char *s;
	uint64_t plain;
	int err;
} dur_bad[] = {
	{ "", US, -EINVAL },
	{ "-1s", US, -EINVAL },
	{ "-5", US, -EINVAL },
	{ "18446744074s", US, -ERANGE },
	{ "18446744073709552", US, -ERANGE },		/* plain µs overflows ns */
	{ "18446744073709551616ns", US, -ERANGE },
	{ "1.5ns", US, -EINVAL },			/* fractional ns */
	{ "0.0001", US, -EINVAL },			/* 0.1 ns */
	{ "1.0001us", US, -EINVAL },
	{ "1.5", 1, -EINVAL },
	{ "10x", US, -EINVAL },
	{ "10sec", US, -EINVAL },
	{ "10S", US, -EINVAL },
	{ "10K", US, -EINVAL },
	{ "1ms1", US, -EINVAL },
	{ " 1s", US, -EINVAL },
	{ "1s ", US, -EINVAL },
	{ "1 s", US, -EINVAL },
	{ "s", US, -EINVAL },
	{ "ms", US, -EINVAL },
};

static const struct {
	uint64_t v;
	const char *want;
} fmt_size[] = {
	{ 0, "0B" },
	{ 1023, "1023B" },
	{ 1024, "1KiB" },
	{ 1536, "1.5KiB" },
	{ 512 * MiB, "512MiB" },
	{ 3 * GiB / 2, "1.5GiB" },
	{ 5 * GiB / 4, "1.25GiB" },
	{ 2 * TiB, "2TiB" },
	{ EiB, "1EiB" },
	{ MiB - 1, "1MiB" },		/* rounds to 1024KiB: the next unit */
	{ MiB - 6, "1023.99KiB" },
	{ GiB - 1, "1GiB" },
	{ UINT64_MAX - 1, "16EiB" },	/* the largest unit has no next one */
	{ UINT64_MAX, "max" },
};

static const struct {
	uint64_t v;
	const char *want;
} fmt_dur[] = {
	{ 0, "0ns" },
	{ 999, "999ns" },
	{ 1000, "1us" },
	{ 1500, "1.5us" },
	{ 50 * MS, "50ms" },
	{ 3 * SEC / 2, "1.5s" },
	{ 100 * SEC, "100s" },
	{ 999999, "1ms" },		/* rounds to 1000us: the next unit */
	{ 999994, "999.99us" },
	{ 999999999, "1s" },
	{ 999, "999ns" },
};

START_TEST(parse_size_ok)
{
	uint64_t v = 12345;
	int r = cgctl_parse_size(size_ok[_i].s, &v);

	ck_assert_msg(r == 0, "\"%s\": %d", size_ok[_i].s, r);
	ck_assert_msg(v == size_ok[_i].want, "\"%s\": %llu, want %llu", size_ok[_i].s,
		      (unsigned long long)v, (unsigned long long)size_ok[_i].want);
}
END_TEST

START_TEST(parse_size_bad)
{
	uint64_t v = 12345;
	int r = cgctl_parse_size(size_bad[_i].s, &v);

	ck_assert_msg(r == size_bad[_i].err, "\"%s\": %d, want %d", size_bad[_i].s, r,
		      size_bad[_i].err);
	ck_assert_msg(v == 12345, "\"%s\": result written on failure", size_bad[_i].s);
}
END_TEST

START_TEST(parse_duration_ok)
{
	uint64_t v = 12345;
	int r = cgctl_parse_duration(dur_ok[_i].s, dur_ok[_i].plain, &v);

	ck_assert_msg(r == 0, "\"%s\": %d", dur_ok[_i].s, r);
	ck_assert_msg(v == dur_ok[_i].want, "\"%s\": %llu, want %llu", dur_ok[_i].s,
		      (unsigned long long)v, (unsigned long long)dur_ok[_i].want);
}
END_TEST

START_TEST(parse_duration_bad)
{
	uint64_t v = 12345;
	int r = cgctl_parse_duration(dur_bad[_i].s, dur_bad[_i].plain, &v);

	ck_assert_msg(r == dur_bad[_i].err, "\"%s\": %d, want %d", dur_bad[_i].s, r,
		      dur_bad[_i].err);
	ck_assert_msg(v == 12345, "\"%s\": result written on failure", dur_bad[_i].s);
}
END_TEST

START_TEST(format_size)
{
	char buf[32];
	int n = cgctl_format_size(buf, sizeof(buf), fmt_size[_i].v);

	ck_assert_str_eq(buf, fmt_size[_i].want);
	ck_assert_int_eq(n, (int)strlen(fmt_size[_i].want));
}
END_TEST

START_TEST(format_duration)
{
	char buf[32];
	int n = cgctl_format_duration(buf, sizeof(buf), fmt_dur[_i].v);

	ck_assert_str_eq(buf, fmt_dur[_i].want);
	ck_assert_int_eq(n, (int)strlen(fmt_dur[_i].want));
}
END_TEST

START_TEST(parse_null)
{
	uint64_t v = 1;

	ck_assert_int_eq(cgctl_parse_size(NULL, &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_duration(NULL, US, &v), -EINVAL);
	ck_assert_uint_eq(v, 1);
}
END_TEST

/* snprintf semantics: the full length is returned, the output truncated and terminated */
START_TEST(format_truncates)
{
	char buf[4] = "zzz";

	ck_assert_int_eq(cgctl_format_size(buf, sizeof(buf), 512 * MiB), 6);
	ck_assert_str_eq(buf, "512");
	ck_assert_int_eq(cgctl_format_size(NULL, 0, 3 * GiB / 2), 6);
	ck_assert_int_eq(cgctl_format_duration(buf, sizeof(buf), 50 * MS), 4);
	ck_assert_str_eq(buf, "50m");
}
END_TEST

/* Formatting back: whatever is printed parses again, to the same value when the value
 * has at most two decimals in its unit and within 0.5% otherwise. */
START_TEST(format_round_trip)
{
	static const uint64_t sizes[] = { 1, 1000, 4096, 65536, 100000, 123456789,
					  3 * GiB / 2, 7 * TiB + 12345, 15 * EiB };
	static const uint64_t durs[] = { 1, 999, 1000, 123456, 2 * MS, 987654321, 59 * SEC,
					 3 * SEC + 1 };

	for (int i = 0; i < N(sizes); i++) {
		char buf[32];
		uint64_t back;

		cgctl_format_size(buf, sizeof(buf), sizes[i]);
		ck_assert_msg(cgctl_parse_size(buf, &back) == 0 ||
			      strchr(buf, '.') != NULL, "size \"%s\" does not parse", buf);
		/* "1.17GiB" may not be whole bytes; check the value through the mantissa */
		{
			double m = strtod(buf, NULL), unit = 1;
			const char *sfx = buf + strspn(buf, "0123456789.");

			if (!strcmp(sfx, "KiB")) unit = KiB;
			else if (!strcmp(sfx, "MiB")) unit = MiB;
			else if (!strcmp(sfx, "GiB")) unit = GiB;
			else if (!strcmp(sfx, "TiB")) unit = TiB;
			else if (!strcmp(sfx, "PiB")) unit = PiB;
			else if (!strcmp(sfx, "EiB")) unit = EiB;
			ck_assert_msg(m * unit >= sizes[i] * 0.995 && m * unit <= sizes[i] * 1.005,
				      "%llu printed as %s", (unsigned long long)sizes[i], buf);
		}
	}
	for (int i = 0; i < N(durs); i++) {
		char buf[32];
		uint64_t back;
		int r;

		cgctl_format_duration(buf, sizeof(buf), durs[i]);
		r = cgctl_parse_duration(buf, US, &back);
		ck_assert_msg(r == 0, "duration \"%s\" does not parse: %d", buf, r);
		ck_assert_msg(back >= durs[i] * 0.995 && back <= durs[i] * 1.005,
			      "%llu printed as %s", (unsigned long long)durs[i], buf);
	}
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("units");

	tcase_add_loop_test(tc, parse_size_ok, 0, N(size_ok));
	tcase_add_loop_test(tc, parse_size_bad, 0, N(size_bad));
	tcase_add_loop_test(tc, parse_duration_ok, 0, N(dur_ok));
	tcase_add_loop_test(tc, parse_duration_bad, 0, N(dur_bad));
	tcase_add_loop_test(tc, format_size, 0, N(fmt_size));
	tcase_add_loop_test(tc, format_duration, 0, N(fmt_dur));
	tcase_add_test(tc, parse_null);
	tcase_add_test(tc, format_truncates);
	tcase_add_test(tc, format_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(units_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
