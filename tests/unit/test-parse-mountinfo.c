/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* /proc/PID/mountinfo: cgroup and cgroup2 entries. */
#include <stdio.h>

#include "test-parse.h"

/* This machine's cgroup lines plus two other file systems (kernel 6.18). */
static const char host_mountinfo[] =
	"22 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"32 30 0:29 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
	"33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
	"34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"35 30 0:32 / /sys/fs/cgroup/devices rw,relatime - cgroup cgroup rw,devices\n"
	"36 30 0:33 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer\n"
	"37 30 0:34 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
	"38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
	"39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

#define MAX_SEEN 16
struct seen {
	int n, stop_at;
	struct {
		unsigned int id, parent, major, minor;
		int version;
		char root[64], mp[64], type[16], opts[96], ctrls[64], name[32];
		bool has_name;
	} e[MAX_SEEN];
};

static int seen_cb(const struct cgctl_mountinfo *mi, void *data)
{
	struct seen *s = data;
	int i = s->n++;

	ck_assert_int_lt(i, MAX_SEEN);
	s->e[i].id = mi->mount_id;
	s->e[i].parent = mi->parent_id;
	s->e[i].major = mi->major;
	s->e[i].minor = mi->minor;
	s->e[i].version = mi->version;
	snprintf(s->e[i].root, sizeof(s->e[i].root), "%s", mi->root);
	snprintf(s->e[i].mp, sizeof(s->e[i].mp), "%s", mi->mount_point);
	snprintf(s->e[i].type, sizeof(s->e[i].type), "%s", mi->fstype);
	snprintf(s->e[i].opts, sizeof(s->e[i].opts), "%s", mi->super_opts);
	snprintf(s->e[i].ctrls, sizeof(s->e[i].ctrls), "%s", mi->controllers);
	s->e[i].has_name = mi->name != NULL;
	snprintf(s->e[i].name, sizeof(s->e[i].name), "%s", mi->name ? mi->name : "");
	return s->n == s->stop_at ? -ECANCELED : 0;
}

START_TEST(mi_host)
{
	struct seen s = { 0 };

	ck_assert_int_eq(cgctl_parse_mountinfo(S(host_mountinfo), seen_cb, &s), 10);
	ck_assert_int_eq(s.n, 10);
	ck_assert_uint_eq(s.e[0].id, 31);
	ck_assert_uint_eq(s.e[0].parent, 30);
	ck_assert_uint_eq(s.e[0].major, 0);
	ck_assert_uint_eq(s.e[0].minor, 28);
	ck_assert_int_eq(s.e[0].version, 1);
	ck_assert_str_eq(s.e[0].root, "/");
	ck_assert_str_eq(s.e[0].mp, "/sys/fs/cgroup/cpu");
	ck_assert_str_eq(s.e[0].type, "cgroup");
	ck_assert_str_eq(s.e[0].opts, "rw,cpu");
	ck_assert_str_eq(s.e[0].ctrls, "cpu");
	ck_assert(!s.e[0].has_name);
	ck_assert_str_eq(s.e[3].ctrls, "memory");
	ck_assert_str_eq(s.e[8].mp, "/sys/fs/cgroup/systemd");
	ck_assert_str_eq(s.e[8].ctrls, "");
	ck_assert(s.e[8].has_name);
	ck_assert_str_eq(s.e[8].name, "systemd");
	ck_assert_int_eq(s.e[9].version, 2);
	ck_assert_str_eq(s.e[9].type, "cgroup2");
	ck_assert_str_eq(s.e[9].mp, "/sys/fs/cgroup/unified");
	ck_assert_str_eq(s.e[9].ctrls, "");
	ck_assert_uint_eq(s.e[9].minor, 37);
	/* no callback: just the count */
	ck_assert_int_eq(cgctl_parse_mountinfo(S(host_mountinfo), NULL, NULL), 10);
}
END_TEST

START_TEST(mi_escapes_and_options)
{
	const char f[] =
		"50 30 0:40 /sub\\040dir /mnt/my\\040cg\\011x\\134 rw shared:1 master:2 - "
		"cgroup cgx rw,cpu,cpuacct,noprefix,xattr,release_agent=/bin/r\\054a,"
		"clone_children,name=my\\054name,seclabel\n"
		"51 30 0:41 / /mnt/v2 rw,nosuid - cgroup2 none "
		"rw,nsdelegate,memory_recursiveprot\n"
		"52 30 0:42 / /mnt/back\\slash rw - cgroup cgroup rw,none,name=x\n";
	struct seen s = { 0 };

	ck_assert_int_eq(cgctl_parse_mountinfo(S(f), seen_cb, &s), 3);
	ck_assert_str_eq(s.e[0].root, "/sub dir");
	ck_assert_str_eq(s.e[0].mp, "/mnt/my cg\tx\\");
	ck_assert_str_eq(s.e[0].ctrls, "cpu,cpuacct");
	ck_assert_str_eq(s.e[0].name, "my,name");
	ck_assert(strstr(s.e[0].opts, "release_agent=/bin/r\\054a") != NULL);
	ck_assert_int_eq(s.e[1].version, 2);
	ck_assert_str_eq(s.e[1].ctrls, "");
	ck_assert_str_eq(s.e[1].opts, "rw,nsdelegate,memory_recursiveprot");
	ck_assert(!s.e[1].has_name);
	/* a backslash not followed by three octal digits is itself */
	ck_assert_str_eq(s.e[2].mp, "/mnt/back\\slash");
	ck_assert_str_eq(s.e[2].ctrls, "");
	ck_assert_str_eq(s.e[2].name, "x");
}
END_TEST

START_TEST(mi_callback_stops)
{
	struct seen s = { .stop_at = 3 };

	ck_assert_int_eq(cgctl_parse_mountinfo(S(host_mountinfo), seen_cb, &s), -ECANCELED);
	ck_assert_int_eq(s.n, 3);
	ck_assert_str_eq(s.e[2].mp, "/sys/fs/cgroup/cpuset");
}
END_TEST

static int mi_count(const char *buf, size_t len)
{
	return cgctl_parse_mountinfo(buf, len, NULL, NULL);
}

START_TEST(mi_malformed)
{
	ck_assert_int_eq(mi_count(S("")), 0);
	ck_assert_int_eq(mi_count(S("\n\n")), 0);
	ck_assert_int_eq(mi_count(NULL, 0), 0);
	ck_assert_int_eq(mi_count(NULL, 4), -EINVAL);
	/* no "-" separator */
	ck_assert_int_eq(mi_count(S("31 30 0:28 / /c rw,relatime cgroup cgroup rw,cpu\n")),
			 -EINVAL);
	/* fields after "-": too few, too many */
	ck_assert_int_eq(mi_count(S("31 30 0:28 / /c rw - cgroup cgroup\n")), -EINVAL);
	ck_assert_int_eq(mi_count(S("31 30 0:28 / /c rw - cgroup cgroup rw,cpu x\n")), -EINVAL);
	/* bad numbers */
	ck_assert_int_eq(mi_count(S("3a 30 0:28 / /c rw - cgroup cgroup rw,cpu\n")), -EINVAL);
	ck_assert_int_eq(mi_count(S("31 30 0-28 / /c rw - cgroup cgroup rw,cpu\n")), -EINVAL);
	ck_assert_int_eq(mi_count(S("31 30 0: / /c rw - cgroup cgroup rw,cpu\n")), -EINVAL);
	ck_assert_int_eq(mi_count(S("4294967296 30 0:28 / /c rw - cgroup cgroup rw,cpu\n")),
			 -EINVAL);
	/* an escaped NUL cannot be represented */
	ck_assert_int_eq(mi_count(S("31 30 0:28 / /c\\000 rw - cgroup cgroup rw,cpu\n")),
			 -EINVAL);
	/* double spaces make an empty field */
	ck_assert_int_eq(mi_count(S("31 30 0:28 /  /c rw - cgroup cgroup rw,cpu\n")), -EINVAL);
	/* a raw NUL inside a line */
	ck_assert_int_eq(mi_count(S("31 30 0:28 / /c rw - cgroup cgroup rw,c\0pu\n")), -EINVAL);
	/* a damaged non-cgroup line fails the file too */
	ck_assert_int_eq(mi_count(S("1 2 3\n31 30 0:28 / /c rw - cgroup cgroup rw,cpu\n")),
			 -EINVAL);
	/* but other file systems are skipped and an empty super option list is fine */
	ck_assert_int_eq(mi_count(S("31 30 0:28 / /c rw - ext4 /dev/sda1 rw\n")), 0);
	ck_assert_int_eq(mi_count(S("31 30 0:28 / /c rw - cgroup cgroup \n")), 1);
	/* bounded by len: the cut line lacks its super options field */
	ck_assert_int_eq(mi_count("31 30 0:28 / /c rw - cgroup cgroup rw,cpu", 34), -EINVAL);
	ck_assert_int_eq(mi_count("31 30 0:28 / /c rw - cgroup cgroup rw,cpu", 37), 1);
}
END_TEST

START_TEST(mi_cut_controllers)
{
	struct seen s = { 0 };

	/* len ends inside "cpuacct": "cpuac" is not a controller */
	ck_assert_int_eq(cgctl_parse_mountinfo("1 2 0:3 / /c rw - cgroup c rw,cpu,cpuacct",
					       39, seen_cb, &s), 1);
	ck_assert_str_eq(s.e[0].ctrls, "cpu");
	ck_assert_str_eq(s.e[0].opts, "rw,cpu,cpuac");
}
END_TEST

Suite *suite_parse_mountinfo(void)
{
	Suite *s = suite_create("parse-mountinfo");
	TCase *tc = tcase_create("mountinfo");

	tcase_add_test(tc, mi_host);
	tcase_add_test(tc, mi_escapes_and_options);
	tcase_add_test(tc, mi_callback_stops);
	tcase_add_test(tc, mi_malformed);
	tcase_add_test(tc, mi_cut_controllers);
	suite_add_tcase(s, tc);
	return s;
}
