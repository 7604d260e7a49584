#!/bin/sh
# bench/memcg.sh: run the memcg engine benchmark (prints rate, ratio vs baseline, vs target)
set -e
exec "${top_builddir:-.}/bench/memcg" "$@"
