#!/bin/sh
# bench/estimate.sh - `make bench-estimate`: nqueens estimate against the
# counts it estimates, on this machine, as a Markdown table for
# bench/RESULTS.md.
#
#   sh bench/estimate.sh [FROM [TO]]     (N = FROM..TO, default 18 21)
#
# For each N: `estimate N` (run 1), the count itself (`count N --force`:
# no estimate of its own first), `estimate N` again (run 2), all on
# THREADS threads (default: every core).  The count's time is its own
# "seconds" (count --json: from its plan to its last unit); each
# estimate's is its wall time on those threads, with its 80% interval.
# The table gives each estimate over the measured time, and the two
# estimates' spread (the larger over the smaller).  Totals are checked
# against tests/data/oeis.tsv (OEIS A000170).  N = 21 counts for
# minutes; measure on a quiet machine (the load average is printed
# before and after: the estimates time CPU, the count the wall clock).
# Program: NQ_CLI (build/nqueens).  Exits 1 on a wrong count or a
# failed run.
set -eu
from=${1:-18} to=${2:-21}
threads=${THREADS:-0}
cli=${NQ_CLI:-build/nqueens}
oeis=tests/data/oeis.tsv
[ -x "$cli" ] || { echo "bench-estimate: no $cli (make builds it)" >&2; exit 2; }
topt=""
[ "$threads" -gt 0 ] && topt="--threads $threads"

# A number member of a JSON line: member NAME LINE.
member() {
    printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p"
}

cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)
family=$(sed -n 's/^cpu family[^:]*: //p' /proc/cpuinfo | head -1)
model=$(sed -n 's/^model[^:]*: \([0-9]*\)$/\1/p' /proc/cpuinfo | head -1)
echo "$cpu (family $family, model $model), $(nproc) cores; $("$cli" --version | sed -n 's/^kernels: //p')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| N | estimate 1 (80%) | estimate 2 (80%) | counted | 1 / counted | 2 / counted | spread | samples, s (1; 2) |"
echo "|---|---|---|---|---|---|---|---|"
for n in $(seq "$from" "$to"); do
    e1=$("$cli" estimate "$n" $topt --json)
    c=$("$cli" count "$n" $topt --force --quiet --json)
    e2=$("$cli" estimate "$n" $topt --json)
    want=$(awk -v n="$n" '$1 == n { print $2 }' "$oeis")
    total=$(printf '%s\n' "$c" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')
    [ "$total" = "$want" ] || { echo "bench-estimate: N=$n counted $total, OEIS $want" >&2; exit 1; }
    t=$(member seconds "$c")
    awk -v n="$n" -v t="$t" \
        -v s1="$(member seconds "$e1")" -v l1="$(member seconds_low "$e1")" \
        -v h1="$(member seconds_high "$e1")" -v s2="$(member seconds "$e2")" \
        -v l2="$(member seconds_low "$e2")" -v h2="$(member seconds_high "$e2")" \
        -v k1="$(member samples "$e1")" -v k2="$(member samples "$e2")" \
        -v x1="$(member elapsed "$e1")" -v x2="$(member elapsed "$e2")" 'BEGIN {
        spread = s1 > s2 ? s1 / s2 : s2 / s1
        printf "| %d | %.2f s (%.2f-%.2f) | %.2f s (%.2f-%.2f) | %.2f s | %.3f | %.3f | %.3f | %d, %.1f; %d, %.1f |\n",
            n, s1, l1, h1, s2, l2, h2, t, s1 / t, s2 / t, spread, k1, x1, k2, x2
    }'
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
