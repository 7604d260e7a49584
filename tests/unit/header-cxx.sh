#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The public header compiles as C++ (C++ programs include it: no parameter named `new`,
# every declaration inside extern "C"), with every warning an error, in the oldest and
# the compiler's default standard.
. "$top_srcdir/tests/lib.sh"
cxx=${CXX:-g++}
command -v "$cxx" >/dev/null 2>&1 || skip "no C++ compiler ($cxx)"

cat >"$T_TMP/h.cc" <<'CC'
#include <libcgctl.h>
#include <libcgctl.h>	/* the include guard holds */

int main() { return 0; }
CC
for std in -std=c++11 ""; do
	# shellcheck disable=SC2086
	if "$cxx" $std -fsyntax-only -Wall -Werror -I"$top_srcdir/lib" \
		"$T_TMP/h.cc" >"$T_TMP/err" 2>&1; then ok; else
		fail "libcgctl.h does not compile as C++ ($cxx ${std:-default}):"
		head -n 20 "$T_TMP/err" >&2
	fi
done
# the declarations have C linkage: a C++ caller links against the C names
if grep -q '^extern "C" {' "$top_srcdir/lib/libcgctl.h"; then ok; else
	fail 'libcgctl.h has no extern "C" block'
fi
done_testing
