#!/bin/sh
# bench/wasm.sh - `make bench-wasm`: the WebAssembly modules of make wasm
# (the command line compiled by emscripten, run by node) against the
# native build on this host, as Markdown tables for bench/RESULTS.md.
#
#   sh bench/wasm.sh [FROM [TO]]      (fast at N = FROM..TO, default 14 17)
#
# Every figure is the count's own time, the "seconds" of count --json:
# the clock read around the count inside the program, one thread, so
# node's start and the module's compilation are left out, and what V8
# does meanwhile (running the first calls in its baseline compiler,
# optimising hot functions) is in.  The runs take turns in ROUNDS rounds
# (default 5): in each, every N of fast with each kernel (each native
# kernel this CPU runs, each kernel of each module), then each teaching
# engine at its N (ENGINES, default below; empty for none) natively and
# in both modules.  A time is the median of its rounds, a ratio (wasm
# time / native time) the median of the rounds' ratios.  Every total and
# unique count is checked against tests/data/oeis.tsv (OEIS A000170,
# A002562).  Programs: NQ_CLI (build/nqueens), NQ_WASM_SCALAR and
# NQ_WASM_SIMD (build/wasm/{scalar,simd}/nqueens.js), NODE (node).
# Exits 1 on a wrong count or a failed run, 2 when a program is missing.
set -eu
from=${1:-14} to=${2:-17}
rounds=${ROUNDS:-5}
engines=${ENGINES-backtrack:12 flags:13 bitmap:14 mirror:14 symmetry:15 carry:13}
cli=${NQ_CLI:-build/nqueens} node=${NODE:-node}
scalar=${NQ_WASM_SCALAR:-build/wasm/scalar/nqueens.js}
simd=${NQ_WASM_SIMD:-build/wasm/simd/nqueens.js}
oeis=tests/data/oeis.tsv

for f in "$cli" "$scalar" "$simd"; do
    [ -f "$f" ] || { echo "bench-wasm: no $f (make wasm builds the modules)" >&2; exit 2; }
done
command -v "$node" >/dev/null 2>&1 || { echo "bench-wasm: no $node on PATH" >&2; exit 2; }

times=$(mktemp) runs=$(mktemp)
trap 'rm -f "$times" "$runs"' EXIT

# The kernels a program lists (its --version's "kernels:" line), and of
# the native ones those this CPU runs.
kernels_of() {
    "$@" --version | sed -n 's/^kernels: \([^(]*\).*/\1/p' | tr -d ','
}
native_kernels=""
for k in $(kernels_of "$cli"); do
    "$cli" count 4 -e fast --kernel "$k" -q >/dev/null 2>&1 &&
        native_kernels="$native_kernels $k"
done
best=$("$cli" --version | sed -n 's/^kernels: .*(this CPU: \(.*\))$/\1/p')
wide128=""  # the native kernel of WebAssembly SIMD's width, 128 bits
for k in $native_kernels; do
    case $k in sse4 | neon) wide128=$k ;; esac
done

# The runs of fast, a line each, "label program module kernel" (module -
# for the native program): native, then each module's.
module_runs() {
    for k in $(kernels_of "$node" "$2"); do echo "$1-$k $node $2 $k"; done
}
configs() {
    for k in $native_kernels; do echo "native-$k $cli - $k"; done
    module_runs scalar "$scalar"
    module_runs simd "$simd"
}

field() { sed -n "s/.*\"$1\":\\([0-9.]*\\).*/\\1/p"; }
known() { awk -v n="$1" -v c="$2" '$1 == n { print $c }' "$oeis"; }

status=0
# One count: label, round, N, engine, program, module (- for none),
# kernel (- for the default); its seconds go to the times file, a wrong
# count to stderr.
measure() {
    label=$1 round=$2 n=$3 engine=$4 prog=$5 module=$6 kernel=$7
    set -- count "$n" -e "$engine" --threads 1 --json -q
    [ "$kernel" = - ] || set -- "$@" --kernel "$kernel"
    [ "$module" = - ] || set -- "$module" "$@"
    out=$("$prog" "$@") ||
        { echo "bench-wasm: $label failed at N=$n ($engine)" >&2; exit 1; }
    t=$(echo "$out" | field total) u=$(echo "$out" | field unique)
    if [ "$t" != "$(known "$n" 2)" ] || [ "$u" != "$(known "$n" 3)" ]; then
        echo "bench-wasm: N=$n: $engine ($label) counted $t total, $u unique" >&2
        status=1
    fi
    echo "$engine $n $label $round $(echo "$out" | field seconds)" >> "$times"
}

configs > "$runs"
round=1
while [ "$round" -le "$rounds" ]; do
    for n in $(seq "$from" "$to"); do
        while read -r label prog module kernel; do
            measure "$label" "$round" "$n" fast "$prog" "$module" "$kernel"
        done < "$runs"
    done
    for en in $engines; do
        e=${en%%:*} n=${en#*:}
        measure native "$round" "$n" "$e" "$cli" - -
        measure scalar "$round" "$n" "$e" "$node" "$scalar" -
        measure simd "$round" "$n" "$e" "$node" "$simd" -
    done
    round=$((round + 1))
done

# The median of a label's seconds, and of the rounds' ratios of two.
median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
                   else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
seconds() {
    awk -v e="$1" -v n="$2" -v l="$3" '$1 == e && $2 == n && $3 == l { print $5 }' \
        "$times" | median | awk '{ printf "%.4f", $1 }'
}
# (- where the native time was too short for the clock in every round)
ratio() {
    awk -v e="$1" -v n="$2" -v a="$3" -v b="$4" '
        $1 == e && $2 == n && $3 == a { x[$4] = $5 }
        $1 == e && $2 == n && $3 == b { y[$4] = $5 }
        END { for (r in x) if (y[r] > 0) print x[r] / y[r] }' "$times" |
        median | awk '{ printf "%.2f", $1 } END { if (!NR) printf "-" }'
}
# A label as the tables name it: native K, wasm K (the plain module),
# wasm-simd K (the module built with -msimd128).
shown() {
    case $1 in
    native-*) echo "native ${1#native-}" ;;
    scalar-*) echo "wasm ${1#scalar-}" ;;
    simd-*) echo "wasm-simd ${1#simd-}" ;;
    esac
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
family=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
model=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
emcc_version=$(emcc --version 2>/dev/null | head -n 1 || true)
echo "Date: $(date -u +%Y-%m-%d); CPU: ${cpu:-unknown} (family ${family:-?}, model ${model:-?}), $(nproc) cores"
echo "node $("$node" --version); ${emcc_version:-emcc not on PATH}"
echo "Command: make bench-wasm (sh bench/wasm.sh $from $to, ROUNDS=$rounds)"
echo "Times: the count's own seconds (count --json), one thread, median of $rounds rounds; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

labels=$(cut -d' ' -f1 "$runs")
head="| N | total |" rule="|---|---|"
for l in $labels; do head="$head $(shown "$l") (s) |" rule="$rule---|"; done
pairs="scalar-scalar:native-scalar simd-scalar:native-scalar"
[ -z "$wide128" ] || pairs="$pairs simd-simd128:native-$wide128"
[ -z "$best" ] || [ "$best" = "$wide128" ] || pairs="$pairs simd-simd128:native-$best"
for p in $pairs; do
    head="$head $(shown "${p%%:*}") / $(shown "${p#*:}") |" rule="$rule---|"
done
echo "fast, each kernel:"
echo
echo "$head"
echo "$rule"
for n in $(seq "$from" "$to"); do
    row="| $n | $(known "$n" 2) |"
    for l in $labels; do row="$row $(seconds fast "$n" "$l") |"; done
    for p in $pairs; do row="$row $(ratio fast "$n" "${p%%:*}" "${p#*:}") |"; done
    echo "$row"
done
if [ -n "$engines" ]; then
    echo
    echo "The teaching engines:"
    echo
    echo "| engine | N | total | native (s) | wasm (s) | wasm-simd (s) | wasm / native | wasm-simd / native |"
    echo "|---|---|---|---|---|---|---|---|"
    for en in $engines; do
        e=${en%%:*} n=${en#*:}
        echo "| $e | $n | $(known "$n" 2) | $(seconds "$e" "$n" native) | $(seconds "$e" "$n" scalar) |" \
            "$(seconds "$e" "$n" simd) | $(ratio "$e" "$n" scalar native) | $(ratio "$e" "$n" simd native) |"
    done
fi
exit $status
