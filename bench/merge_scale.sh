#!/bin/sh
# bench/merge_scale.sh - `make bench-merge`: merge at a record run's
# scale, as a Markdown table for bench/RESULTS.md.
#
#   sh bench/merge_scale.sh [JOURNALS [N [GROUP]]]   (100000 12 100)
#
# nq-bench-merge-gen (NQ_GEN) counts N once and writes JOURNALS small
# journals of it (one unit each, a key each: bench/merge_gen.c) into a
# temporary folder.  Then, for the first tenth and for all of them:
# `merge --list` (NQ_CLI), the same merge with the journals as arguments,
# and, with BEFORE naming another build's nqueens (main's), that one,
# whose merge takes arguments only; the ratio is BEFORE's time over this
# build's.  Last, the staged merge: `merge --list GROUP_FILE -o STAGE`
# for each group of GROUP journals, then `merge --list` of the stages.
# Every merge's output must be the one-shot merge's, byte for byte (the
# time column included): exit 1 otherwise, so JOURNALS must be ten times
# the plan's units at least (8,180 at N = 12: the first tenth covers
# every unit).  Times are wall seconds, each the best of ROUNDS (3) runs.
set -eu
journals=${1:-100000} n=${2:-12} group=${3:-100}
rounds=${ROUNDS:-3}
cli=${NQ_CLI:-build/nqueens}
gen=${NQ_GEN:-build/nq-bench-merge-gen}
before=${BEFORE:-}
for p in "$cli" "$gen" ${before:+"$before"}; do
    [ -x "$p" ] || { echo "bench-merge: no $p (make builds it)" >&2; exit 2; }
done
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
[ -z "$before" ] || before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
work=$(mktemp -d "${TMPDIR:-/tmp}/nq-bench-merge-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/j" "$work/stages"

now() { date +%s.%N; }
# The best wall time of $rounds runs of "$@" (in the journals' folder),
# its output kept in $work/out.
best() {
    b=""
    for r in $(seq "$rounds"); do
        t0=$(now)
        (cd "$work/j" && "$@") > "$work/out"
        t=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
        b=$(awk -v a="$b" -v t="$t" 'BEGIN { print (a == "" || t < a) ? t : a }')
    done
    echo "$b"
}
# The output must be the one-shot merge's.
same() {
    cmp -s "$work/out" "$work/want" || {
        echo "bench-merge: $1 printed something else:" >&2
        cat "$work/out" "$work/want" >&2
        exit 1
    }
}

cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)
family=$(sed -n 's/^cpu family[^:]*: //p' /proc/cpuinfo | head -1)
model=$(sed -n 's/^model[^:]*: \([0-9]*\)$/\1/p' /proc/cpuinfo | head -1)
echo "$cpu (family $family, model $model), $(nproc) cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
t0=$(now)
"$gen" "$n" "$journals" "$work/j"
echo "$journals journals of N=$n written in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
(cd "$work/j" && ls) > "$work/all"
head -n $((journals / 10)) "$work/all" > "$work/tenth"
echo
echo "| journals | merge --list, s | merge JOURNAL..., s | before: merge JOURNAL..., s | before / --list |"
echo "|---|---|---|---|---|"
for list in tenth all; do
    k=$(wc -l < "$work/$list")
    (cd "$work/j" && "$cli" merge --list "$work/$list") > "$work/want"
    a=$(best "$cli" merge --list "$work/$list"); same "merge --list"
    # shellcheck disable=SC2046 # the names: digits only
    b=$(best "$cli" merge $(cat "$work/$list")); same "merge JOURNAL..."
    if [ -n "$before" ]; then
        # shellcheck disable=SC2046
        c=$(best "$before" merge $(cat "$work/$list")); same "BEFORE's merge"
        r=$(awk -v a="$a" -v c="$c" 'BEGIN { printf "%.1f", c / a }')
    else
        c="-" r="-"
    fi
    echo "| $k | $a | $b | $c | $r |"
done
# staged: groups of $group, then the stages
mkdir "$work/groups"
split -l "$group" -a 5 "$work/all" "$work/groups/g"
staged() {
    rm -f "$work"/stages/*
    for g in "$work"/groups/g*; do
        "$cli" merge --list "$g" -o "$work/stages/${g##*/}" > /dev/null
    done
    ls "$work"/stages/g* > "$work/list-of-stages"
    "$cli" merge --list "$work/list-of-stages"
}
s=$(best staged); same "the staged merge"
groups=$(wc -l < "$work/list-of-stages")
one=$(best "$cli" merge --list "$work/list-of-stages")
echo
echo "Staged: $groups merges of $group journals each written to a journal (-o), then one of the $groups: $s s in all, the last merge $one s; its output the one-shot merge's, byte for byte:"
echo
sed 's/^/    /' "$work/want"
