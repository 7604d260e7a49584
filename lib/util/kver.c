/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "libcgctl.h"
#include "util/kver.h"

static int kver_part(const char **p, unsigned long max, unsigned long *ret)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*ret = strtoul(*p, &end, 10);
	if (errno || *ret > max)
		return -EINVAL;
	*p = end;
	return 0;
}

int cgctl_kver_parse(const char *s, uint32_t *ret)
{
	unsigned long v[3] = { 0, 0, 0 };
	const char *p = s;
	int i;

	if (!s || !ret)
		return -EINVAL;
	for (i = 0; i < 3; i++) {
		if (kver_part(&p, i == 2 ? 0xffff : 0xff, &v[i]) < 0)
			return -EINVAL;
		if (*p != '.')
			break;
		p++;
	}
	if (i == 0 && *p != '\0')
		return -EINVAL;	/* "6x" */
	if (*p != '\0' && *p != '-' && *p != '+' && *p != '.' && *p != '~' && *p != '_')
		return -EINVAL;
	*ret = CGCTL_KVER(v[0], v[1], v[2]);
	return 0;
}

uint32_t cgctl_kver_running(void)
{
	struct utsname u;
	uint32_t v;

	if (uname(&u) < 0 || cgctl_kver_parse(u.release, &v) < 0)
		return 0;
	return v;
}
