#!/bin/sh
# bench/coverage.sh - how often the estimate's 80% interval holds the
# time of the count it estimates: for each trial, N and thread count,
# `estimate` (its default budget) and `estimate --seconds 0.05` (a
# budget of a few samples), then the count itself; one TSV line each.
#
#   sh bench/coverage.sh TRIALS FROM TO [THREADS...] > out.tsv
#
# Columns: n threads budget seconds seconds_low seconds_high core_low
# core_high samples counted_wall counted_core.  The count's core time is
# its user + system time (/usr/bin/time): the estimate times CPU, and on
# a loaded machine the wall time also holds other programs' turns.
set -eu
trials=$1 from=$2 to=$3
shift 3
threads=${*:-1 2}
cli=${NQ_CLI:-build/nqueens}
member() {
    printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p"
}
row() { # n threads budget estimate-json counted_wall counted_core
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" \
        "$(member seconds "$4")" "$(member seconds_low "$4")" \
        "$(member seconds_high "$4")" \
        "$(awk -v h="$(member core_hours_low "$4")" 'BEGIN{print h*3600}')" \
        "$(awk -v h="$(member core_hours_high "$4")" 'BEGIN{print h*3600}')" \
        "$(member samples "$4")" "$5" "$6"
}
for trial in $(seq "$trials"); do
    for n in $(seq "$from" "$to"); do
        for t in $threads; do
            e1=$("$cli" estimate "$n" -t "$t" --json)
            e2=$("$cli" estimate "$n" -t "$t" --seconds 0.05 --json 2>/dev/null)
            c=$(/usr/bin/time -f 'core %U %S' -o /tmp/nq-coverage-time.$$ \
                "$cli" count "$n" -t "$t" --force --quiet --json)
            core=$(awk '{print $2 + $3}' /tmp/nq-coverage-time.$$)
            wall=$(member seconds "$c")
            row "$n" "$t" default "$e1" "$wall" "$core"
            row "$n" "$t" 0.05 "$e2" "$wall" "$core"
        done
    done
done
rm -f /tmp/nq-coverage-time.$$
