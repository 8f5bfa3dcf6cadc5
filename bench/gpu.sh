#!/bin/sh
# bench/gpu.sh - `make bench-gpu`: the GPU engine against the CPU's fast
# engine on this host, as a Markdown table for bench/RESULTS.md.
#
#   sh bench/gpu.sh [FROM [TO]]      (default 16 22)
#
# For each N: the cuda engine's wall time and solutions per second, the
# fast engine's time on all cores (up to CPU_MAX_N, default 20: beyond, it
# takes minutes), and both totals checked against tests/data/oeis.tsv
# (OEIS A000170).  With nvidia-smi, the GPU's utilisation is sampled every
# half second during the largest N.  Exits 1 on a wrong count or a failed
# run, 2 with no GPU.
set -eu
from=${1:-16} to=${2:-22}
cuda=${NQ_CUDA:-build/nqueens-cuda} cli=${NQ_CLI:-build/nqueens}
cpu_max=${CPU_MAX_N:-20}
oeis=tests/data/oeis.tsv

devices=$("$cuda" --version | sed -n 's/^  //p')
case $devices in
"" | "no GPU"*) echo "bench-gpu: ${devices:-no GPU engine in $cuda}" >&2
                exit 2 ;;
esac

# The "seconds" and "total" of a count --json line.
field() { sed -n "s/.*\"$1\":\\([0-9.]*\\).*/\\1/p"; }
known() { awk -v n="$1" '$1 == n { print $2 }' "$oeis"; }

sample_start() {
    util=""
    command -v nvidia-smi >/dev/null 2>&1 || return 0
    util=$(mktemp)
    nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits \
        -lms 500 > "$util" 2>/dev/null &
    sampler=$!
}
sample_stop() {
    [ -n "$util" ] || return 0
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    awk -F, '{ s += $1; k++ } END { if (k) printf "%.0f%% (mean of %d samples)", s / k, k }' "$util"
    rm -f "$util"
}

echo "Date: $(date -u +%Y-%m-%d); host CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
echo "$devices" | sed 's/^/GPU: /'
echo "Command: make bench-gpu (sh bench/gpu.sh $from $to)"
echo
echo "| N | total | cuda (s) | solutions/s | fast, all cores (s) | cuda vs fast |"
echo "|---|---|---|---|---|---|"
status=0
for n in $(seq "$from" "$to"); do
    [ "$n" = "$to" ] && sample_start
    g=$("$cuda" count "$n" -e cuda --json -q --force) || { echo "bench-gpu: cuda failed at N=$n" >&2; exit 1; }
    [ "$n" = "$to" ] && busy=$(sample_stop)
    gt=$(echo "$g" | field total) gs=$(echo "$g" | field seconds)
    [ "$gt" = "$(known "$n")" ] || { echo "bench-gpu: N=$n: cuda counted $gt" >&2; status=1; }
    cs=- ratio=-
    if [ "$n" -le "$cpu_max" ]; then
        c=$("$cli" count "$n" -e fast --json -q --force)
        ct=$(echo "$c" | field total) cs=$(echo "$c" | field seconds)
        [ "$ct" = "$gt" ] || { echo "bench-gpu: N=$n: fast $ct, cuda $gt" >&2; status=1; }
        ratio=$(awk -v a="$cs" -v b="$gs" 'BEGIN { printf "%.1fx", a / b }')
    fi
    rate=$(awk -v t="$gt" -v s="$gs" 'BEGIN { printf "%.3g", t / s }')
    echo "| $n | $gt | $gs | $rate | $cs | $ratio |"
done
[ -z "${busy:-}" ] || { echo; echo "GPU utilisation during N=$to: $busy"; }
exit $status
