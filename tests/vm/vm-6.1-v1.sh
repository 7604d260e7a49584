#!/bin/sh
# VM tier: boot Debian's 6.1 kernel with cgroup v1 and run tests/vm/guest/*.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmcheck.sh"
vm_check 6.1-v1
