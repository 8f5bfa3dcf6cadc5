#!/bin/sh
# bench/gpu.sh - `make bench-gpu`: the GPU engines (cuda, opencl) side by
# side against the CPU's fast engine on this host, as a Markdown table for
# bench/RESULTS.md.
#
#   sh bench/gpu.sh [FROM [TO]]      (default 16 22)
#
# For each N: each GPU engine's wall time, the fast engine's on all cores
# (up to CPU_MAX_N, default 20: beyond, it takes minutes), fast's time
# over each engine's, and every total checked against tests/data/oeis.tsv
# (OEIS A000170).  An engine takes part where its program is built
# (NQ_CUDA, NQ_OPENCL: empty or missing leaves it out) and its --version
# lists a GPU: for opencl a device of type GPU or accelerator, or any
# device with OPENCL_ANY=1 (PoCL's CPU device: a check of this script at
# small N, never a speed figure).  With nvidia-smi, the GPU's utilisation
# is sampled every half second during each engine's largest N.  Exits 1
# on a wrong count or a failed run, 2 with no GPU for either engine.
set -eu
from=${1:-16} to=${2:-22}
cuda=${NQ_CUDA-build/nqueens-cuda} opencl=${NQ_OPENCL-build/nqueens-opencl}
cli=${NQ_CLI:-build/nqueens}
cpu_max=${CPU_MAX_N:-20}
oeis=tests/data/oeis.tsv

# The devices an engine's program lists, one a line (none if no usable
# one).
devices_of() {
    prog=$1 engine=$2
    [ -n "$prog" ] && [ -x "$prog" ] || return 0
    "$prog" --version 2>/dev/null | sed -n 's/^  //p' | while read -r line; do
        case $engine:$line in
        cuda:"no GPU"* | opencl:"no OpenCL device"*) ;;
        opencl:*"(GPU"* | opencl:*"(accelerator"*) echo "$line" ;;
        opencl:*) if [ "${OPENCL_ANY:-0}" = 1 ]; then echo "$line"; fi ;;
        *) echo "$line" ;;
        esac
    done
}

engines="" listed=""
for e in cuda opencl; do
    eval "prog=\$$e"
    d=$(devices_of "$prog" "$e")
    [ -n "$d" ] || continue
    engines="$engines $e"
    listed="$listed$(echo "$d" | sed "s/^/Device: $e: /")
"
done
if [ -z "$engines" ]; then
    echo "bench-gpu: no GPU for cuda ($cuda) or opencl ($opencl)" >&2
    exit 2
fi

# The "seconds" and "total" of a count --json line.
field() { sed -n "s/.*\"$1\":\\([0-9.]*\\).*/\\1/p"; }
known() { awk -v n="$1" '$1 == n { print $2 }' "$oeis"; }

util=""
sample_start() {
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
    util=""
}

echo "Date: $(date -u +%Y-%m-%d); host CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
printf '%s' "$listed"
echo "Command: make bench-gpu (sh bench/gpu.sh $from $to)"
echo
head="| N | total |" rule="|---|---|"
for e in $engines; do head="$head $e (s) |" rule="$rule---|"; done
head="$head fast, all cores (s) |" rule="$rule---|"
for e in $engines; do head="$head fast / $e |" rule="$rule---|"; done
echo "$head"
echo "$rule"
status=0 busy=""
for n in $(seq "$from" "$to"); do
    want=$(known "$n") row="| $n | $(known "$n") |" times=""
    for e in $engines; do
        eval "prog=\$$e"
        [ "$n" = "$to" ] && sample_start
        g=$("$prog" count "$n" -e "$e" --json -q --force) ||
            { echo "bench-gpu: $e failed at N=$n" >&2; exit 1; }
        if [ "$n" = "$to" ] && [ -n "$util" ]; then
            busy="$busy $e: $(sample_stop);"
        fi
        gt=$(echo "$g" | field total) gs=$(echo "$g" | field seconds)
        [ "$gt" = "$want" ] || { echo "bench-gpu: N=$n: $e counted $gt" >&2; status=1; }
        row="$row $gs |" times="$times $gs"
    done
    cs=-
    if [ "$n" -le "$cpu_max" ]; then
        c=$("$cli" count "$n" -e fast --json -q --force)
        ct=$(echo "$c" | field total) cs=$(echo "$c" | field seconds)
        [ "$ct" = "$want" ] || { echo "bench-gpu: N=$n: fast counted $ct" >&2; status=1; }
    fi
    row="$row $cs |"
    for gs in $times; do
        if [ "$cs" = - ]; then row="$row - |"; continue; fi
        row="$row $(awk -v a="$cs" -v b="$gs" 'BEGIN { printf "%.1fx", a / b }') |"
    done
    echo "$row"
done
[ -z "$busy" ] || { echo; echo "GPU utilisation during N=$to:$busy"; }
exit $status
