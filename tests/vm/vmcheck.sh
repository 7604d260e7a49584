# shellcheck shell=sh
# vmcheck.sh: the `make check` side of the VM tier, sourced by tests/vm/vm-*.sh.
# vm_check CONFIG [DIR]: one boot of CONFIG running every guest test in DIR (default
# tests/vm/guest/; 6.12-systemd: tests/vm/systemd/guest/).  With VM_ARGS_TO=FILE it
# boots nothing: FILE gets run-vm's arguments for those tests (after --config and
# --timeout), NUL-separated, for a harness call that boots CONFIG anyway.
# Environment: CGCTL (from the Makefile), CGCTL_KERNEL_CACHE, CGCTL_VM_TIMEOUT (seconds,
# default 600), CGCTL_VM_VERBOSE=1 (stream the console), CGCTL_VM_TESTS (guest test
# name patterns to run instead of all), CGCTL_DISTCHECK (skip).

# vm_check_prereq CONFIG: exit 77 with a reason unless CONFIG can boot here
vm_check_prereq() {
	config=$1
	srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
	if [ -n "${CGCTL_DISTCHECK:-}" ]; then
		echo "SKIP: VM tier disabled under distcheck (CGCTL_DISTCHECK)"; exit 77
	fi
	# distcheck passes CGCTL_DISTCHECK=1 to configure only; config.status remembers it
	if [ -n "${top_builddir:-}" ] && [ -f "$top_builddir/config.status" ] &&
		grep -q 'CGCTL_DISTCHECK=1' "$top_builddir/config.status"; then
		echo "SKIP: VM tier disabled under distcheck (configured with CGCTL_DISTCHECK=1)"
		exit 77
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: the VM tier runs as root only"; exit 77
	fi
	if ! command -v qemu-system-x86_64 >/dev/null; then
		echo "SKIP: qemu-system-x86_64 not installed (scripts/install-deps)"; exit 77
	fi
	if ! qemu-system-x86_64 -accel help 2>/dev/null | grep -qx tcg; then
		echo "SKIP: this qemu has no TCG accelerator"; exit 77
	fi
	kcache=${CGCTL_KERNEL_CACHE:-/var/cache/cgctl/kernels}
	if [ ! -r "$kcache/${config%-*}/vmlinuz" ]; then
		echo "SKIP: no kernel in $kcache/${config%-*} (scripts/install-deps)"; exit 77
	fi
	if ! file -L "${CGCTL_BUSYBOX:-/bin/busybox}" 2>/dev/null | grep -q 'statically linked'
	then
		echo "SKIP: no static busybox (apt install busybox-static)"; exit 77
	fi
	sdroot=${CGCTL_SYSTEMD_ROOT:-/var/cache/cgctl/systemd-root}
	if [ "${config#*-}" = systemd ] && [ ! -x "$sdroot/root/lib/systemd/systemd" ]; then
		echo "SKIP: no systemd root in $sdroot (scripts/install-deps)"; exit 77
	fi
	if [ "${config#*-}" = systemd ] && [ ! -s "$kcache/${config%-*}/boot-modules/order" ]
	then
		echo "SKIP: no virtio_blk in $kcache/${config%-*}/boot-modules" \
			"(scripts/install-deps)"; exit 77
	fi
}

vm_check() {
	vm_check_prereq "$1"
	gdir=$srcdir/tests/vm/${2:-guest}
	set -- --config "$config" --timeout "${CGCTL_VM_TIMEOUT:-600}"
	if [ -n "${CGCTL_VM_TESTS:-}" ]; then
		# a developer's selection: CGCTL_VM_TESTS='memcg-* cgctl-basic'
		for pat in $CGCTL_VM_TESTS; do
			for f in "$gdir/"$pat.sh; do
				[ -f "$f" ] && set -- "$@" --tests "$f"
			done
		done
		[ $# -gt 4 ] || [ -n "${VM_ARGS_TO:-}" ] ||
			{ echo "SKIP: no guest test matches '$CGCTL_VM_TESTS'"; exit 77; }
	else
		set -- "$@" --tests "$gdir"
	fi
	# test helpers the guest tests use (built by make check)
	for h in forkstorm; do
		[ -x "${top_builddir:-.}/tests/helpers/$h" ] &&
			set -- "$@" --file "${top_builddir:-.}/tests/helpers/$h"
	done
	# fault-plans-v2.sh's LD_PRELOAD fault shim (tests/unit/Makemodule.am)
	[ -f "${top_builddir:-.}/tests/helpers/.libs/faultshim.so" ] && set -- "$@" \
		--file "${top_builddir:-.}/tests/helpers/.libs/faultshim.so:/vm/files/faultshim.so"
	# memhigh.sh's workload helper without sanitizers (lib/engine/memhigh.am)
	[ -x "${top_builddir:-.}/tests/vm/cgctl-workload-plain" ] &&
		set -- "$@" --file "${top_builddir:-.}/tests/vm/cgctl-workload-plain"
	# files a caller adds (HOST[:GUEST], blank-separated)
	for f in ${CGCTL_VM_FILES:-}; do
		set -- "$@" --file "$f"
	done
	[ "${CGCTL_VM_VERBOSE:-0}" = 1 ] && set -- "$@" -v
	if [ -n "${VM_ARGS_TO:-}" ]; then
		# another harness call boots CONFIG (vm-validate-sweep.sh): it adds these
		shift 4
		printf '%s\0' "$@" >"$VM_ARGS_TO"
		return 0
	fi
	exec "$srcdir/tests/vm/run-vm" "$@"
}

# vm_selected NAME: CGCTL_VM_TESTS is unset or one of its patterns matches NAME
vm_selected() {
	[ -z "${CGCTL_VM_TESTS:-}" ] && return 0
	for pat in $CGCTL_VM_TESTS; do
		# shellcheck disable=SC2254
		case $1 in $pat) return 0 ;; esac
	done
	return 1
}
