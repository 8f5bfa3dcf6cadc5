#!/bin/sh
# mk/coverage.sh BUILD FLOOR - line coverage of src/ and programs/ from the
# .gcda files a --coverage build's tests left in BUILD/obj/src and
# BUILD/obj/programs, one figure for the whole library and CLI: a line
# counts as covered when any object that holds it (a header is in many,
# frontier_vec.c in one per kernel) ran it.  Prints each file's figure, then the total last; exits 1 under
# FLOOR percent.  Needs only gcc's gcov and awk.
set -eu
build=$1
floor=$2
out=$build/gcov
rm -rf "$out"
mkdir -p "$out"
find "$build/obj/src" "$build/obj/programs" -name '*.gcda' | while read -r gcda; do
    gcov -l -p "$gcda" >/dev/null 2>&1 || true
done
mv ./*.gcov "$out/" 2>/dev/null || true
# Lines: "COUNT:LINE:SOURCE", COUNT "-" (no code), "#####" (never run),
# or the times run; the file named on line 0's "Source:".
cat "$out"/*.gcov | awk -v floor="$floor" '
    /^ *-: *0:Source:/ { sub(/^ *-: *0:Source:/, ""); file = $0; next }
    {
        split($0, part, ":"); count = part[1]; line = part[2] + 0
        gsub(/ /, "", count)
        if (count == "-" || file !~ /^(src|programs)\//) next
        key = file ":" line
        seen[key] = 1; files[key] = file
        if (count != "#####" && count != "=====") hit[key] = 1
    }
    END {
        for (k in seen) { total[files[k]]++; if (k in hit) run[files[k]]++ }
        for (f in total) {
            printf "%6.1f%%  %5d lines  %s\n", 100 * run[f] / total[f], total[f], f | "sort -k3"
            lines += total[f]; covered += run[f]
        }
        close("sort -k3")
        pct = lines ? 100 * covered / lines : 0
        printf "line coverage of src/ and programs/: %.1f%% (%d of %d lines; floor %s%%)\n", pct, covered, lines, floor
        exit pct < floor
    }'
