#!/bin/sh
# bench/part_cost.sh - `make bench-parts`: what each part of a job array
# pays before its first unit, as a Markdown table for bench/RESULTS.md.
#
#   sh bench/part_cost.sh [PARTS [N]]      (200 20)
#
# PARTS processes one after another, `count N --part K/PARTS
# --checkpoint FILE --max-units 1` for K = 1..PARTS (each counts one unit
# and stops, exit 1 by design), with this build (NQ_CLI) and, with
# BEFORE naming another build's nqueens (main's), with that one, taking
# turns part by part; the mean wall and CPU seconds per process and the
# ratio, BEFORE's over this build's.  Each part's journal must hold its
# one unit: exit 1 otherwise.
set -eu
parts=${1:-200} n=${2:-20}
cli=${NQ_CLI:-build/nqueens}
before=${BEFORE:-}
for p in "$cli" ${before:+"$before"}; do
    [ -x "$p" ] || { echo "bench-parts: no $p (make builds it)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/nq-bench-parts-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Wall and CPU (user + system, the children's) seconds of one part, added
# to the build's sums in $work/<name>.
one_part() {
    name=$1 prog=$2 k=$3
    t0=$(date +%s.%N)
    c0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
    "$prog" count "$n" --part "$k/$parts" --checkpoint "$work/$name.$k" \
        --max-units 1 2> "$work/err" && {
        echo "bench-parts: part $k/$parts of N=$n did not stop after a unit" >&2; exit 1; }
    c1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
    grep -q '^unit ' "$work/$name.$k" || {
        echo "bench-parts: $name's part $k recorded no unit:" >&2; cat "$work/err" >&2; exit 1; }
    awk -v a="$t0" -v b="$(date +%s.%N)" -v c="$((c1 - c0))" \
        -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.6f %.6f\n", b - a, c / hz }' >> "$work/$name"
    rm -f "$work/$name.$k"
}

cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)
family=$(sed -n 's/^cpu family[^:]*: //p' /proc/cpuinfo | head -1)
model=$(sed -n 's/^model[^:]*: \([0-9]*\)$/\1/p' /proc/cpuinfo | head -1)
echo "$cpu (family $family, model $model), $(nproc) cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
for k in $(seq "$parts"); do
    one_part after "$cli" "$k"
    [ -z "$before" ] || one_part before "$before" "$k"
done
mean() { awk -v f="$2" '{ s += $f } END { printf "%.3f", s / NR }' "$work/$1"; }
echo
echo "| $parts parts of N = $n, --max-units 1 | wall s per part | CPU s per part |"
echo "|---|---|---|"
echo "| this build | $(mean after 1) | $(mean after 2) |"
if [ -n "$before" ]; then
    echo "| before | $(mean before 1) | $(mean before 2) |"
    awk -v a="$(mean after 1)" -v b="$(mean before 1)" -v c="$(mean after 2)" \
        -v d="$(mean before 2)" 'BEGIN { printf "| before / this build | %.1f | %.1f |\n", b / a, d / c }'
fi
