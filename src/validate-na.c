/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The last line of a human `cgctl validate`: the n/a figures counted by reason, and,
 * when only this machine was checked and the VM kernels that scripts/install-deps
 * fetches are present, the command that checks them there (`--target all`).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "validate-cli.h"

#define NA_SHOWN 3	/* reasons named; the rest counted as "other" */

struct na_reason {
	char text[192];
	size_t count;
};

/* The reason without its detail: "no swap device (/proc/swaps)" -> "no swap device";
 * figures only measured (other load, placement) count as "measured only". */
static void reason_key(const char *reason, char *buf, size_t len)
{
	size_t n = strcspn(reason, ":(");

	while (n > 0 && reason[n - 1] == ' ')
		n--;
	if (strncmp(reason, "measured", 8) == 0)
		snprintf(buf, len, "measured only");
	else
		snprintf(buf, len, "%.*s", (int)n, reason);
}

static int by_count(const void *a, const void *b)
{
	const struct na_reason *x = a, *y = b;

	return (x->count < y->count) - (x->count > y->count);
}

int validate_print_na(struct cli *cli, struct cgctl_vreport *const *r, size_t n,
		      bool vms_checked)
{
	struct na_reason *v = NULL;
	size_t nv = 0, cap = 0, total = 0, i, j, k, q;
	char key[192];
	struct strbuf sb = STRBUF_INIT;

	for (i = 0; i < n; i++)
		for (j = 0; j < r[i]->n_scenarios; j++)
			for (q = 0; q < r[i]->scenarios[j].n_quantities; q++) {
				const struct cgctl_vquantity *x = &r[i]->scenarios[j].quantities[q];

				if (x->verdict != CGCTL_VERDICT_NA)
					continue;
				reason_key(x->reason, key, sizeof(key));
				for (k = 0; k < nv && strcmp(v[k].text, key) != 0; k++)
					;
				if (k == nv) {
					if (nv == cap) {
						struct na_reason *nw;

						cap = cap ? 2 * cap : 16;
						nw = realloc(v, cap * sizeof(*v));
						if (!nw) {
							free(v);
							return cli_error(cli, NULL, -ENOMEM, NULL);
						}
						v = nw;
					}
					snprintf(v[nv].text, sizeof(v[nv].text), "%s", key);
					v[nv++].count = 0;
				}
				v[k].count++;
				total++;
			}
	qsort(v, nv, sizeof(*v), by_count);
	strbuf_printf(&sb, "%zu figure%s:", total, total == 1 ? "" : "s");
	for (k = 0; k < nv && k < NA_SHOWN + (nv == NA_SHOWN + 1); k++)
		strbuf_printf(&sb, "%s %zu %s", k ? "," : "", v[k].count, v[k].text);
	if (k < nv) {
		size_t rest = 0;

		for (; k < nv; k++)
			rest += v[k].count;
		strbuf_printf(&sb, ", %zu for other reasons", rest);
	}
	if (!vms_checked && cgctl_validate_vm_kernels_present())
		strbuf_puts(&sb, "; `cgctl validate --target all` checks them on the installed "
			    "VM kernels");
	free(v);
	if (strbuf_error(&sb)) {
		strbuf_release(&sb);
		return cli_error(cli, NULL, -ENOMEM, NULL);
	}
	/* within 80 columns, as the tables and their n/a notes above it */
	validate_print_wrapped("n/a: ", strbuf_str(&sb), 5);
	strbuf_release(&sb);
	return EXIT_OK;
}
