/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Suites of tests/unit/test-parse (one per parser file). */
#ifndef TEST_PARSE_H
#define TEST_PARSE_H

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"

/* A string literal as (buf, len) without its NUL. */
#define S(lit) (lit), (sizeof(lit) - 1)

Suite *suite_parse_proc(void);
Suite *suite_parse_keyed(void);
Suite *suite_parse_mountinfo(void);
Suite *suite_parse_cpu(void);

#endif
