/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-cpu charge stock of the memcg model: see memcg-internal.h for the prototypes. */
#ifndef CGCTL_ENGINE_STOCK_H
#define CGCTL_ENGINE_STOCK_H
#include "engine/memcg-internal.h"
#endif
