/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CGCTL_UTIL_UNITS_H
#define CGCTL_UTIL_UNITS_H
#include "libcgctl.h"
#endif
