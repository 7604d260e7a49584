#!/bin/sh
# Issue 33: inputs that name something that cannot be: one line, the usage exit code (2).
. "$top_srcdir/tests/lib.sh"

# bw predict --kernel of an era before CFS bandwidth control (3.2)
for k in 2.6 2.6.39 3.1.10; do
	cg bw predict --quota 50ms --period 100ms --threads 1 --online-cpus 1 --duration 1s \
		--kernel "$k"
	expect_rc 2 "bw predict --kernel $k"
	expect_err_line "bw predict --kernel $k"
	expect_no_out "bw predict --kernel $k"
done
cg bw predict --quota 50ms --period 100ms --threads 1 --online-cpus 1 --duration 1s \
	--kernel 3.2
expect_rc 0 "bw predict --kernel 3.2"
done_testing
