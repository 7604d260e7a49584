/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CGCTL_UTIL_KVER_H
#define CGCTL_UTIL_KVER_H
#include "libcgctl.h"
#endif
