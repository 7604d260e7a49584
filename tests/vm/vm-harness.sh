#!/bin/sh
# VM tier self-test: run-vm reports passing, failing and skipping guest tests, hands back
# a guest command's stdout byte for byte and its exit status, and ends a hung guest.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmcheck.sh"
vm_check_prereq 6.12-v2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vm-harness.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$tmp/guest"
printf '. "$VMLIB"\necho pass-out\n' >"$tmp/guest/a-pass.sh"
printf '. "$VMLIB"\necho fail-out\nvm_eq 1 2 "one is two"\n' >"$tmp/guest/b-fail.sh"
printf '. "$VMLIB"\nvm_need_mode v1\n' >"$tmp/guest/c-skip.sh"
printf 'binary\0\377\n' >"$tmp/expect"

"$srcdir/tests/vm/run-vm" --config 6.12-v2 --no-cgctl --timeout "${CGCTL_VM_TIMEOUT:-600}" \
	--tests "$tmp/guest" --status "$tmp/status" --file "$tmp/expect:/vm/expect" \
	-- sh -c 'cat /vm/expect; echo to-stderr >&2; exit 5' >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
[ $rc = 1 ] || fail "run-vm exited $rc with a failing guest test, expected 1"
cmp "$tmp/out" "$tmp/expect" || fail "the guest command's stdout differs"
grep -q '^to-stderr$' "$tmp/err" || fail "the guest command's stderr is missing"
grep -q 'FAIL b-fail' "$tmp/err" || fail "no FAIL line for b-fail"
grep -q 'one is two' "$tmp/err" || fail "the failing test's stderr is not shown"
grep -q 'SKIP c-skip: skip: needs cgroup v1' "$tmp/err" || fail "no SKIP reason for c-skip"
for want in 'job	a-pass	0	' 'job	b-fail	1	' 'job	c-skip	77	' 'job	@command	5	' \
	'harness=ok' 'command_status=5' 'passed=1' 'failed=1' 'skipped=1'; do
	grep -q "^$want" "$tmp/status" || fail "status file lacks '$want'"
done

# a guest that cannot finish in time
"$srcdir/tests/vm/run-vm" --config 6.12-v2 --no-cgctl --timeout 2 --status "$tmp/status" \
	-- sleep 1000 >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 99 ] || { cat "$tmp/err"; fail "run-vm exited $rc on a timeout, expected 99"; }
grep -qx 'harness=timeout' "$tmp/status" || fail "status file lacks harness=timeout"
echo "harness ok"
