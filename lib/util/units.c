/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sizes and durations, parsed exactly: the number is read as an integer part and a
 * decimal fraction, multiplied by the unit in integer arithmetic, and refused unless the
 * result is a whole number of bytes (nanoseconds) that fits in 64 bits.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "util/units.h"

struct unit {
	const char *suffix;
	uint64_t mult;
};

static const struct unit size_units[] = {
	{ "", 1 },
	{ "B", 1 },
	{ "K", 1ULL << 10 }, { "KB", 1ULL << 10 }, { "KiB", 1ULL << 10 },
	{ "M", 1ULL << 20 }, { "MB", 1ULL << 20 }, { "MiB", 1ULL << 20 },
	{ "G", 1ULL << 30 }, { "GB", 1ULL << 30 }, { "GiB", 1ULL << 30 },
	{ "T", 1ULL << 40 }, { "TB", 1ULL << 40 }, { "TiB", 1ULL << 40 },
	{ "P", 1ULL << 50 }, { "PB", 1ULL << 50 }, { "PiB", 1ULL << 50 },
	{ "E", 1ULL << 60 }, { "EB", 1ULL << 60 }, { "EiB", 1ULL << 60 },
	/* lib/cmdline.c memparse(): the kernel takes k m g t p e in either case */
	{ "k", 1ULL << 10 }, { "m", 1ULL << 20 }, { "g", 1ULL << 30 },
	{ "t", 1ULL << 40 }, { "p", 1ULL << 50 }, { "e", 1ULL << 60 },
};

static const struct unit time_units[] = {
	{ "ns", 1 },
	{ "us", 1000 }, { "µs", 1000 },
	{ "ms", 1000000 },
	{ "s", 1000000000ULL },
	{ "m", 60000000000ULL }, { "min", 60000000000ULL },
	{ "h", 3600000000000ULL },
};

/* A decimal number: digits [ '.' digits ].  Fraction kept as numerator/10^ndigits. */
struct decimal {
	uint64_t ipart;
	uint64_t frac;	/* fraction digits as an integer */
	uint64_t scale;	/* 10^number of fraction digits */
};

static int parse_decimal(const char **p, struct decimal *d)
{
	const char *s = *p;
	bool digits = false;

	d->ipart = 0;
	d->frac = 0;
	d->scale = 1;
	while (isdigit((unsigned char)*s)) {
		unsigned int c = (unsigned int)(*s++ - '0');

		if (d->ipart > (UINT64_MAX - c) / 10)
			return -ERANGE;
		d->ipart = d->ipart * 10 + c;
		digits = true;
	}
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		while (isdigit((unsigned char)*s)) {
			if (d->scale >= 1000000000000000000ULL)
				return -EINVAL;	/* more than 18 fraction digits */
			d->frac = d->frac * 10 + (unsigned int)(*s++ - '0');
			d->scale *= 10;
			digits = true;
		}
	}
	if (!digits)
		return -EINVAL;
	*p = s;
	return 0;
}

/* value = (ipart + frac/scale) * mult, exactly, or an error. */
static int scale_decimal(const struct decimal *d, uint64_t mult, uint64_t *ret)
{
	unsigned __int128 whole, frac;

	whole = (unsigned __int128)d->ipart * mult;
	frac = (unsigned __int128)d->frac * mult;
	if (frac % d->scale)
		return -EINVAL;	/* not a whole number of base units */
	whole += frac / d->scale;
	if (whole > UINT64_MAX)
		return -ERANGE;
	*ret = (uint64_t)whole;
	return 0;
}

static int parse_with_units(const char *s, const struct unit *units, size_t n,
			    uint64_t plain_mult, uint64_t *ret)
{
	struct decimal d;
	const char *p = s;
	size_t i;
	int r;

	if (!s || !*s)
		return -EINVAL;
	if (*s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -EINVAL;
	r = parse_decimal(&p, &d);
	if (r < 0)
		return r;
	if (*p == '\0')
		return scale_decimal(&d, plain_mult, ret);
	for (i = 0; i < n; i++)
		if (*units[i].suffix && strcmp(p, units[i].suffix) == 0)
			return scale_decimal(&d, units[i].mult, ret);
	return -EINVAL;
}

int cgctl_parse_size(const char *s, uint64_t *ret)
{
	if (!s || !ret)
		return -EINVAL;
	if (strcmp(s, "max") == 0) {
		*ret = CGCTL_SIZE_MAX;
		return 0;
	}
	return parse_with_units(s, size_units, ARRAY_SIZE(size_units), 1, ret);
}

int cgctl_parse_duration(const char *s, uint64_t plain_unit_ns, uint64_t *ret)
{
	if (!s || !ret)
		return -EINVAL;
	if (plain_unit_ns == 0)
		plain_unit_ns = 1000;
	return parse_with_units(s, time_units, ARRAY_SIZE(time_units), plain_unit_ns, ret);
}

/* @v in @unit, rounded to hundredths: the callers move to the next unit when this
 * reaches 1024 (sizes) or 1000 (durations) whole units. */
static uint64_t rounded_hundredths(uint64_t v, uint64_t unit)
{
	return (uint64_t)(((unsigned __int128)v * 100 + unit / 2) / unit);
}

/* "1.50" style with at most two decimals, trailing zeros dropped: 1.5, 2, 1.25 */
static int format_scaled(char *buf, size_t len, uint64_t v, uint64_t unit, const char *sfx)
{
	uint64_t ip = v / unit, rem = v % unit;
	uint64_t hundredths = (uint64_t)(((unsigned __int128)rem * 100 + unit / 2) / unit);

	if (hundredths == 100) {
		ip++;
		hundredths = 0;
	}
	if (hundredths == 0)
		return snprintf(buf, len, "%llu%s", (unsigned long long)ip, sfx);
	if (hundredths % 10 == 0)
		return snprintf(buf, len, "%llu.%llu%s", (unsigned long long)ip,
				(unsigned long long)(hundredths / 10), sfx);
	return snprintf(buf, len, "%llu.%02llu%s", (unsigned long long)ip,
			(unsigned long long)hundredths, sfx);
}

int cgctl_format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const sfx[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int i;

	if (!buf && len)
		return -EINVAL;
	if (bytes == CGCTL_SIZE_MAX)
		return snprintf(buf, len, "max");
	if (bytes < 1024)
		return snprintf(buf, len, "%lluB", (unsigned long long)bytes);
	for (i = 5; i > 0; i--)
		if (bytes >= 1ULL << (10 * (i + 1)))
			break;
	/* 1048575 B rounds to 1024.00KiB: say 1MiB */
	if (i < 5 && rounded_hundredths(bytes, 1ULL << (10 * (i + 1))) >= 1024 * 100)
		i++;
	return format_scaled(buf, len, bytes, 1ULL << (10 * (i + 1)), sfx[i]);
}

int cgctl_format_duration(char *buf, size_t len, uint64_t ns)
{
	if (!buf && len)
		return -EINVAL;
	if (ns == UINT64_MAX)
		return snprintf(buf, len, "max");
	if (ns < 1000)
		return snprintf(buf, len, "%lluns", (unsigned long long)ns);
	/* 999999 ns rounds to 1000.00us: say 1ms */
	if (ns < 1000000 && rounded_hundredths(ns, 1000) < 1000 * 100)
		return format_scaled(buf, len, ns, 1000, "us");
	if (ns < 1000000000ULL && rounded_hundredths(ns, 1000000) < 1000 * 100)
		return format_scaled(buf, len, ns, 1000000, "ms");
	return format_scaled(buf, len, ns, 1000000000ULL, "s");
}
