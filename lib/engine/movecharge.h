/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Move-charge planner: public API in lib/libcgctl.h (section memcg). */
#ifndef CGCTL_ENGINE_MOVECHARGE_H
#define CGCTL_ENGINE_MOVECHARGE_H
#include "engine/memcg-internal.h"
#endif
