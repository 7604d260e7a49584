#!/bin/sh
# bench/bwsim.sh: the CFS bandwidth simulator against its targets and a naive per-tick
# stepping baseline measured in the same run (see bench/bwsim.c).
set -e
exec "${top_builddir:-.}/bench/bwsim" "$@"
