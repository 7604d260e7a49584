/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Netlink messages assembled byte by byte, independent of the builders under test
 * (lib/kernel/netlink-msg.c), following the uapi layouts: nlmsghdr (16 bytes), then for
 * the proc connector a cn_msg (20 bytes: idx, val, seq, ack, u16 len, u16 flags) and a
 * proc_event (what, cpu, u64 timestamp, union) at offset 36; for generic netlink a
 * genlmsghdr (4 bytes) and attributes (u16 len, u16 type, payload padded to 4).
 */
#ifndef TEST_NETLINK_CANNED_H
#define TEST_NETLINK_CANNED_H

#include <stdint.h>
#include <string.h>

struct canned {
	uint8_t b[4096] __attribute__((aligned(8)));
	size_t len;
	size_t nest[4];	/* open nested attributes (offsets) */
	int depth;
};

static inline void c_put(struct canned *c, const void *p, size_t n)
{
	if (!n)		/* memcpy(d, NULL, 0) is still undefined */
		return;
	memcpy(c->b + c->len, p, n);
	c->len += n;
}

static inline void c_u16(struct canned *c, uint16_t v) { c_put(c, &v, 2); }
static inline void c_u32(struct canned *c, uint32_t v) { c_put(c, &v, 4); }
static inline void c_u64(struct canned *c, uint64_t v) { c_put(c, &v, 8); }
static inline void c_pad(struct canned *c)
{
	while (c->len % 4)
		c->b[c->len++] = 0;
}

/* nlmsghdr with a length to patch in c_end() */
static inline void c_nlh(struct canned *c, uint16_t type, uint32_t seq)
{
	memset(c, 0, sizeof(*c));
	c_u32(c, 0);
	c_u16(c, type);
	c_u16(c, 0);
	c_u32(c, seq);
	c_u32(c, 0);	/* portid: from the kernel */
}

static inline void c_end(struct canned *c)
{
	uint32_t len = c->len;

	memcpy(c->b, &len, 4);
	c_pad(c);
}

/* cn_msg of the proc connector with @evlen bytes of event to follow */
static inline void c_cn(struct canned *c, uint32_t idx, uint32_t val, uint16_t evlen)
{
	c_u32(c, idx);
	c_u32(c, val);
	c_u32(c, 0);	/* seq */
	c_u32(c, 0);	/* ack */
	c_u16(c, evlen);
	c_u16(c, 0);
}

/* A whole proc connector datagram: event @what with @n u32 fields, event length @evlen
 * (0: the kernel's full sizeof(struct proc_event) = 40). */
static inline void c_proc(struct canned *c, uint32_t what, const uint32_t *f, size_t n,
			  uint16_t evlen)
{
	size_t i, start;

	c_nlh(c, 3 /* NLMSG_DONE */, 0);
	c_cn(c, 1, 1, evlen ? evlen : 40);
	start = c->len;
	c_u32(c, what);
	c_u32(c, 1);	/* cpu */
	c_u64(c, 123456789ull);
	for (i = 0; i < n; i++)
		c_u32(c, f[i]);
	while (c->len < start + (evlen ? evlen : 40))
		c->b[c->len++] = 0;
	c->len = start + (evlen ? evlen : 40);
	c_end(c);
}

static inline void c_genl(struct canned *c, uint16_t type, uint32_t seq, uint8_t cmd)
{
	c_nlh(c, type, seq);
	c->b[c->len++] = cmd;
	c->b[c->len++] = 1;	/* version */
	c_u16(c, 0);
}

static inline void c_attr(struct canned *c, uint16_t type, const void *p, uint16_t n)
{
	c_u16(c, 4 + n);
	c_u16(c, type);
	c_put(c, p, n);
	c_pad(c);
}

static inline void c_nest_start(struct canned *c, uint16_t type)
{
	c->nest[c->depth++] = c->len;
	c_u16(c, 0);
	c_u16(c, type);
}

static inline void c_nest_end(struct canned *c)
{
	size_t at = c->nest[--c->depth];
	uint16_t len = c->len - at;

	memcpy(c->b + at, &len, 2);
}

/* NLMSG_ERROR carrying @err (negative errno) and the request's header */
static inline void c_error(struct canned *c, uint32_t seq, int32_t err)
{
	c_nlh(c, 2 /* NLMSG_ERROR */, seq);
	c_put(c, &err, 4);
	c_u32(c, 36);	/* the original header: len, type, flags, seq, pid */
	c_u16(c, 0x15);
	c_u16(c, 1);
	c_u32(c, seq);
	c_u32(c, 0);
	c_end(c);
}

#endif
