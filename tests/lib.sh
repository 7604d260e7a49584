# Shared shell helpers of the fixture (tests/cli) and kernel (tests/kernel) tiers.
# Source it: . "$top_srcdir/tests/lib.sh"
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${CGCTL:=$top_builddir/src/cgctl}"
export LC_ALL=C

T_NAME=$(basename "$0" .sh)
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/cgctl-$T_NAME.XXXXXX")
T_FAILS=0
T_COUNT=0
T_CLEANUPS=""

t_cleanup() {
	for c in $T_CLEANUPS; do
		"$c" || true
	done
	chmod -R u+w "$T_TMP" 2>/dev/null || true
	rm -rf "$T_TMP"
}
trap 't_cleanup' EXIT
trap 'exit 130' INT TERM HUP

# at_exit FUNC: run FUNC on every exit path (before the temp dir goes)
at_exit() { T_CLEANUPS="$1 $T_CLEANUPS"; }

skip() { echo "SKIP: $T_NAME: $*"; exit 77; }

# nobody_runs_cgctl: whether user nobody (65534) can start $CGCTL: a build tree below a
# folder only root may enter (mktemp -d makes one 0700) keeps it from libcgctl.so.1
nobody_runs_cgctl() {
	command -v setpriv >/dev/null &&
		setpriv --reuid=65534 --regid=65534 --clear-groups "$CGCTL" --version \
			>/dev/null 2>&1 </dev/null
}

fail() {
	T_FAILS=$((T_FAILS + 1))
	echo "FAIL: $*" >&2
}

ok() { T_COUNT=$((T_COUNT + 1)); }

done_testing() {
	if [ "$T_FAILS" -gt 0 ]; then
		echo "$T_NAME: $T_FAILS of $T_COUNT checks failed" >&2
		exit 1
	fi
	echo "$T_NAME: $T_COUNT checks passed"
	exit 0
}

# ---- fixture tier ----

# fixture NAME: a fresh copy of tests/fixtures/NAME in the temp dir; sets ROOT.
# Files named *.EACCES in the pristine tree become read-only control files (a write the
# "kernel" refuses) under their name without the suffix.
fixture() {
	ROOT="$T_TMP/root-$1"
	rm -rf "$ROOT"
	cp -a "$top_srcdir/tests/fixtures/$1" "$ROOT"
	chmod -R u+w "$ROOT"
	find "$ROOT" -name '*.EACCES' | while read -r f; do
		mv "$f" "${f%.EACCES}"
		chmod a-w "${f%.EACCES}"
	done
	export ROOT
}

# snapshot: remember every file and its contents of $ROOT
snapshot() {
	(cd "$ROOT" && find . -print0 | sort -z | xargs -0 -r sha1sum 2>/dev/null;
	 cd "$ROOT" && find . -type d | sort) >"$T_TMP/snap.$1"
}

# expect_unchanged: $ROOT is byte-identical to the snapshot taken before
expect_unchanged() {
	snapshot after
	if cmp -s "$T_TMP/snap.before" "$T_TMP/snap.after"; then
		ok
	else
		fail "$1: tree changed: $(diff "$T_TMP/snap.before" "$T_TMP/snap.after" | head -5)"
	fi
}

# cg ARGS...: run cgctl, keep stdout/stderr/rc in $OUT $ERR $RC
cg() {
	"$CGCTL" "$@" >"$T_TMP/out" 2>"$T_TMP/err" </dev/null
	RC=$?
	OUT=$(cat "$T_TMP/out")
	ERR=$(cat "$T_TMP/err")
}

# cg_in INPUT ARGS...: same with INPUT on stdin
cg_in() {
	input=$1
	shift
	printf '%s' "$input" | "$CGCTL" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(cat "$T_TMP/out")
	ERR=$(cat "$T_TMP/err")
}

expect_rc() {
	if [ "$RC" = "$1" ]; then ok; else fail "$2: exit $RC, expected $1 (stderr: $ERR)"; fi
}

expect_out() {
	if [ "$OUT" = "$1" ]; then ok; else
		fail "$2: stdout differs"
		printf 'expected:\n%s\ngot:\n%s\n' "$1" "$OUT" >&2
	fi
}

expect_out_has() {
	case "$OUT" in *"$1"*) ok ;; *) fail "$2: stdout lacks '$1': $OUT" ;; esac
}

expect_err() {
	if [ "$ERR" = "$1" ]; then ok; else fail "$2: stderr '$ERR', expected '$1'"; fi
}

# one line on stderr, starting with "cgctl: "
expect_err_line() {
	n=$(printf '%s\n' "$ERR" | grep -c .)
	case "$ERR" in
	"cgctl: "*) [ "$n" = 1 ] && ok || fail "$1: $n stderr lines: $ERR" ;;
	*) fail "$1: stderr is not a 'cgctl: ' line: '$ERR'" ;;
	esac
}

expect_no_out() {
	if [ -z "$OUT" ]; then ok; else fail "$1: unexpected stdout: $OUT"; fi
}

# bad_input RC DESC ARGS...: one error line, exit RC, nothing on stdout, tree unchanged
bad_input() {
	want=$1
	desc=$2
	shift 2
	snapshot before
	cg "$@"
	expect_rc "$want" "$desc"
	expect_err_line "$desc"
	expect_no_out "$desc"
	expect_unchanged "$desc"
}

# json_get EXPR: evaluate a python expression on the JSON in $OUT (variable j)
json_get() {
	printf '%s' "$OUT" | python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"
}

# ---- kernel tier ----

require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	[ -z "${CGCTL_DISTCHECK:-}" ] || skip "not run under distcheck"
}

# self_cgroup CTRL: this process's cgroup in the v1 hierarchy of CTRL (or "" if none)
self_cgroup() {
	awk -F: -v c="$1" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' \
		/proc/self/cgroup
}

# mount_of CTRL: the mount point of the v1 hierarchy carrying CTRL
mount_of() {
	awk -v c="$1" '$3 == "cgroup" { n = split($4, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $2 }' \
		/proc/mounts | head -n 1
}

# spinner_setup: kernel-tier tests that run tests/helpers/spinner in the v1 cpu
# hierarchy: root, $SPIN, $CPU (the mount point), and $PIDS killed on every exit
spinner_setup() {
	require_root
	SPIN="$top_builddir/tests/helpers/spinner"
	[ -x "$SPIN" ] || skip "tests/helpers/spinner not built"
	CPU=$(mount_of cpu)
	[ -n "$CPU" ] || skip "no v1 cpu hierarchy"
	PIDS=""
	at_exit kill_pids
}
kill_pids() { for p in $PIDS; do kill -9 "$p" 2>/dev/null; done; }

# scratch VAR CTRL NAME: create NAME below our own cgroup in CTRL's hierarchy, set VAR
# to its path (relative to the hierarchy root) and register its removal on exit.  Runs
# in the test's own shell, not in $(...): a skip here (no hierarchy, no permission)
# skips the test, where a skip inside $(...) only left the caller with an empty path
# (and a test that went on at the hierarchy's root).
T_SCRATCH=""
scratch() {
	# its own names: it runs in the caller's shell now
	_sc_mnt=$(mount_of "$2")
	[ -n "$_sc_mnt" ] || skip "no v1 $2 hierarchy"
	_sc_self=$(self_cgroup "$2")
	_sc_p="${_sc_self%/}/$3"
	mkdir "$_sc_mnt$_sc_p" 2>/dev/null || skip "cannot create a $2 cgroup below $_sc_self"
	echo "$_sc_mnt$_sc_p" >>"$T_TMP/scratch.list"
	eval "$1=\$_sc_p"
}

scratch_cleanup() {
	for d in $T_SCRATCH $(cat "$T_TMP/scratch.list" 2>/dev/null); do
		[ -d "$d" ] || continue
		# kill what we started there, then remove depth first
		for f in $(find "$d" -name cgroup.procs); do
			for pid in $(cat "$f"); do kill -9 "$pid" 2>/dev/null; done
		done
		sleep 0.1
		find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
}
at_exit scratch_cleanup
