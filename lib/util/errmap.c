/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one mapping from -errno to the exit codes documented in cgctl(1) (EXIT STATUS). */
#include <errno.h>

#include "libcgctl.h"
#include "util/units.h"

int cgctl_errno_to_exit(int neg_errno)
{
	switch (-neg_errno) {
	case 0:
		return 0;
	case EPERM:
	case EACCES:
	case EROFS:
		return 3;
	case ENOENT:
	case ESRCH:
	case ENODEV:
	case ENXIO:
		return 4;
	case EBUSY:
	case EEXIST:
	case ENOTEMPTY:
		return 5;
	case EOPNOTSUPP:
	case ENOSYS:
	case EPROTONOSUPPORT:
	case EAFNOSUPPORT:
		return 6;
	default:
		return 1;
	}
}
