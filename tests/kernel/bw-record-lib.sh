# Shared by tests/kernel/bw-record.sh and bw-programs.sh (source it after tests/lib.sh
# and the cpu hierarchy's $CPU): a scratch cgroup for recorded programs.

# bw_scratch NAME: $P (NAME-$$ below our cpu cgroup, at full weight so other work on the
# machine does not starve the recorded runs), $W (a work folder), $KIDS (PIDs killed on
# exit); skips where no cgroup can be made or bw record cannot open its events
bw_scratch() {
	SELF=$(self_cgroup cpu)
	P="${SELF%/}/$1-$$"
	W="$T_TMP/work"
	mkdir -p "$W"
	KIDS=""
	at_exit bw_scratch_cleanup
	mkdir "$CPU$P" 2>/dev/null || skip "cannot create a cgroup below $SELF"
	echo 262144 >"$CPU$P/cpu.shares" || skip "cannot set cpu.shares of $P"
	# the perf check: can we open a context-switch event at all?
	"$CGCTL" bw record --duration 0.1s $$ >/dev/null 2>"$T_TMP/perr" ||
		skip "bw record cannot record here: $(cat "$T_TMP/perr")"
}

bw_scratch_cleanup() {
	for p in $KIDS; do kill -9 "$p" 2>/dev/null; done
	[ -d "$CPU$P" ] && find "$CPU$P" -depth -type d -exec rmdir {} \; 2>/dev/null
	return 0
}

# attached PID: wait up to 5 s until PID (a bw record) holds its perf events
attached() {
	for i in $(seq 50); do
		ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'perf_event' && return 0
		sleep 0.1
	done
}
