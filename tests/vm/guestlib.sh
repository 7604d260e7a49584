# shellcheck shell=sh
# guestlib.sh: helpers for guest tests (tests/vm/guest/*.sh), sourced with `. "$VMLIB"`.
# Runs under busybox sh inside the VM.  See tests/vm/README.md.
#
# Environment set by the harness:
#   CGCTL        the cgctl binary (/usr/bin/cgctl)
#   VM_KERNEL    6.1 or 6.12          VM_MODE    v1 or v2
#   VM_CONFIG    e.g. 6.1-v1          VM_KRELEASE  uname -r
#   VM_CGROOT    /sys/fs/cgroup (v2: the cgroup2 mount; v1: a tmpfs of hierarchies)
#
# Exit status of a guest test: 0 pass, 77 skip (last stderr line is the reason),
# anything else fails.  A failing test's stdout and stderr are shown on the host.

vm_pids=""

# vm_cleanup: kill the processes vm_spawn started; tests add their own cleanup with
# `trap 'my_cleanup; vm_cleanup' EXIT`
vm_cleanup() {
	local p
	for p in $vm_pids; do
		kill -9 "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	vm_pids=""
}
trap vm_cleanup EXIT

vm_log() { echo "$*" >&2; }

# vm_swap_on SIZE: zram0 becomes SIZE of swap (zram with two devices: zram1 is free for
# a test's file system); vm_swap_off takes it down (call it from the test's EXIT trap:
# the tests after it expect a guest without swap)
vm_swap=0
vm_swap_on() {
	vm_load_module zram num_devices=2
	[ -e /sys/block/zram1 ] || vm_fail "zram did not create two devices"
	echo "$1" >/sys/block/zram0/disksize || vm_fail "zram0 disksize $1"
	vm_ok mkswap /dev/zram0
	swapon /dev/zram0 || vm_fail "swapon /dev/zram0"
	vm_swap=1
}
vm_swap_off() {
	[ $vm_swap = 1 ] && swapoff /dev/zram0
	[ -e /sys/block/zram0/reset ] && echo 1 >/sys/block/zram0/reset
	vm_swap=0
}
vm_skip() { echo "skip: $*" >&2; exit 77; }
vm_fail() { echo "FAIL: $*" >&2; exit 1; }

# vm_need_mode v1|v2, vm_need_kernel 6.1|6.12, vm_need_config 6.1-v1: skip otherwise
vm_need_mode() { [ "$VM_MODE" = "$1" ] || vm_skip "needs cgroup $1 (this is $VM_CONFIG)"; }
vm_need_kernel() { [ "$VM_KERNEL" = "$1" ] || vm_skip "needs kernel $1 (this is $VM_CONFIG)"; }
vm_need_config() {
	local c
	for c in "$@"; do [ "$VM_CONFIG" = "$c" ] && return 0; done
	vm_skip "needs one of $* (this is $VM_CONFIG)"
}
vm_need_jq() { command -v jq >/dev/null || vm_skip "jq was not packed into the guest"; }
# vm_plain_workload: run validate's workloads with the helper built without sanitizers,
# which vmcheck.sh packs (tests/vm/cgctl-workload-plain; cgctl itself may be a sanitizer
# build, as in CI): an ASan workload's shadow pages are charged to the cgroups the model
# predicts, and before 6.7 (no PAGEMAP_SCAN) the inventory reads all of its terabytes of
# pagemap, minutes under TCG.  Skip (77) when neither is the case.
vm_plain_workload() {
	if [ -x /usr/bin/cgctl-workload-plain ]; then
		CGCTL_WORKLOAD_EXE=/usr/bin/cgctl-workload-plain
		export CGCTL_WORKLOAD_EXE
		return 0
	fi
	for f in /lib/x86_64-linux-gnu/libasan.so* /usr/lib/x86_64-linux-gnu/libasan.so* \
		/lib64/libasan.so*; do
		[ -e "$f" ] &&
			vm_skip "an ASan build and no cgctl-workload-plain (make check builds it)"
	done
	return 0
}
# vm_load_module NAME [PARAM=VALUE]...: insmod NAME with PARAMs after the modules it
# needs, from the kernel cache's modules run-vm packed (/vm/modules, listed in load
# order); skip (77) when the cache has no NAME (scripts/install-deps keeps them)
vm_load_module() {
	local m name=$1
	shift
	grep -qx "$name" /vm/modules/order 2>/dev/null ||
		vm_skip "no module $name in the kernel cache (scripts/install-deps keeps it)"
	while read -r m; do
		# loaded already (by an earlier test), or built in
		[ -d "/sys/module/$(echo "$m" | tr - _)" ] && { [ "$m" = "$name" ] && break; continue; }
		if [ "$m" = "$name" ]; then
			insmod "/vm/modules/$m.ko" "$@" || vm_fail "insmod $m $*"
			break
		fi
		insmod "/vm/modules/$m.ko" || vm_fail "insmod $m"
	done </vm/modules/order
}
vm_need_cgctl() { [ -x "$CGCTL" ] || vm_skip "cgctl was not packed into the guest"; }

# vm_cgdir CTRL: the directory of CTRL's hierarchy root (v1: /sys/fs/cgroup/CTRL)
vm_cgdir() {
	if [ "$VM_MODE" = v2 ]; then echo "$VM_CGROOT"; else echo "$VM_CGROOT/$1"; fi
}

# vm_run CMD [ARG]...: run CMD, keep its stdout in $OUT, stderr in $ERR, status in $RC;
# the command line and its output go to stderr so a failure shows what happened
vm_run() {
	echo "+ $*" >&2
	"$@" >/tmp/vm_run.out 2>/tmp/vm_run.err
	RC=$?
	OUT=$(cat /tmp/vm_run.out)
	ERR=$(cat /tmp/vm_run.err)
	[ -n "$OUT" ] && printf '%s\n' "$OUT" | sed 's/^/  | /' >&2
	[ -n "$ERR" ] && printf '%s\n' "$ERR" | sed 's/^/  ! /' >&2
	[ "$RC" = 0 ] || echo "  (exit $RC)" >&2
	return 0
}

# vm_ok CMD...: vm_run, and fail unless it exits 0
vm_ok() {
	vm_run "$@"
	[ "$RC" = 0 ] || vm_fail "'$*' exited $RC"
}

# vm_status WANT CMD...: vm_run, and fail unless it exits WANT
vm_status() {
	local want=$1
	shift
	vm_run "$@"
	[ "$RC" = "$want" ] || vm_fail "'$*' exited $RC, expected $want"
}

# vm_eq GOT WANT WHAT
vm_eq() { [ "$1" = "$2" ] || vm_fail "$3: got '$1', expected '$2'"; }

# vm_match TEXT ERE WHAT: TEXT has a line matching ERE
vm_match() {
	printf '%s\n' "$1" | grep -Eq -- "$2" || vm_fail "$3: no line matches /$2/"
}

# vm_nomatch TEXT ERE WHAT
vm_nomatch() {
	! printf '%s\n' "$1" | grep -Eq -- "$2" || vm_fail "$3: a line matches /$2/"
}

# vm_json FILTER: run jq -r FILTER on $OUT (the last vm_run's stdout)
vm_json() { printf '%s\n' "$OUT" | jq -r "$1"; }

# vm_json_eq FILTER WANT WHAT: jq -r FILTER on $OUT equals WANT
vm_json_eq() {
	local got
	got=$(vm_json "$1") || vm_fail "$3: jq '$1' failed on: $OUT"
	vm_eq "$got" "$2" "$3 ($1)"
}

# vm_jq EXPR WHAT: the jq boolean EXPR holds on $OUT.  jq takes ~0.5 s to start under
# TCG: check several facts of one output in one expression (`.a == 1 and .b > 0`)
vm_jq() {
	printf '%s\n' "$OUT" | jq -e "$1" >/dev/null ||
		vm_fail "$2: jq '$1' is not true of: $OUT"
}

# vm_spawn CMD...: start CMD in the background, record its PID in $PID (killed at exit)
vm_spawn() {
	"$@" </dev/null >/dev/null 2>&1 &
	PID=$!
	vm_pids="$vm_pids $PID"
}

# vm_cgroup_of PID CTRL: PID's cgroup path in CTRL's hierarchy (v2: the unified path)
vm_cgroup_of() {
	if [ "$VM_MODE" = v2 ]; then
		sed -n 's/^0::\(.*\)$/\1/p' "/proc/$1/cgroup"
	else
		awk -F: -v c="$2" '{ n = split($2, a, ","); for (i = 1; i <= n; i++)
			if (a[i] == c) print $3 }' "/proc/$1/cgroup"
	fi
}

# ---- the systemd VM (run-vm --config 6.12-systemd; VM_INIT=systemd) ----

# vm_need_systemd: skip (77) unless PID 1 is systemd
vm_need_systemd() {
	[ "${VM_INIT:-busybox}" = systemd ] && [ -d /run/systemd/system ] ||
		vm_skip "needs systemd as PID 1 (this is $VM_CONFIG)"
}

# vm_service NAME CMD...: run CMD from a service (cgctl-vm-run@NAME.service, a oneshot
# unit in the image) and wait for it; $OUT, $ERR, $RC as vm_run sets them (125: the
# service reported no status)
vm_service() {
	local name=$1 d a q=
	shift
	d=/run/cgctl-vm/$name
	rm -rf "$d"
	mkdir -p "$d"
	for a in "$@"; do
		q="$q '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
	done
	echo "exec$q" >"$d/cmd"
	echo "+ [service $name] $*" >&2
	systemctl start "cgctl-vm-run@$name.service" >/tmp/vm_run.sys 2>&1
	RC=$(cat "$d/rc" 2>/dev/null) || RC=125
	OUT=$(cat "$d/out" 2>/dev/null)
	ERR=$(cat "$d/err" /tmp/vm_run.sys 2>/dev/null)
	[ -n "$OUT" ] && printf '%s\n' "$OUT" | sed 's/^/  | /' >&2
	[ -n "$ERR" ] && printf '%s\n' "$ERR" | sed 's/^/  ! /' >&2
	[ "$RC" = 0 ] || echo "  (exit $RC)" >&2
	return 0
}
