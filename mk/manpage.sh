#!/bin/sh
# mk/manpage.sh - the man page, from its written part and the program's
# tables.
#
#   sh mk/manpage.sh PROGRAM TEMPLATE VERSION > PAGE
#
# TEMPLATE (doc/nqueens.1.in) is copied, each line `.\" @manpage PART@`
# followed by what `PROGRAM --manpage PART` prints (a command's section,
# the synopsis, the engines, the kernels: roff, from the tables the
# program runs by), and the version on the .TH line made VERSION, as
# `make install` did.  Every command PROGRAM has (`PROGRAM --completion`)
# must have its line, so that a new command cannot be left out of the
# manual.  The Makefile runs it for $(BUILD)/nqueens.1; the tests run it
# too (tests/test_manpage.c).  Exit 1, with a line on stderr, on any
# failure.
set -u
[ $# -eq 3 ] || { echo "usage: sh mk/manpage.sh PROGRAM TEMPLATE VERSION" >&2; exit 2; }
program=$1 template=$2 version=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nq-manpage.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

parts=$(sed -n 's/^\.\\" @manpage \([a-z-]*\)@$/\1/p' "$template") || exit 1
commands=$("$program" --completion) || {
    echo "mk/manpage.sh: $program --completion failed" >&2; exit 1; }
for c in $commands; do
    case " $(echo $parts) " in
    *" $c "*) ;;
    *) echo "mk/manpage.sh: $template has no line '.\\\" @manpage $c@'" \
            "for the command $c" >&2
       exit 1 ;;
    esac
done
for p in $parts; do
    "$program" --manpage "$p" > "$tmp/$p" || {
        echo "mk/manpage.sh: $program --manpage $p failed" >&2; exit 1; }
done
awk -v dir="$tmp" -v version="$version" '
    /^\.TH / { sub(/"nqueens [^"]*"/, "\"nqueens " version "\"") }
    { print }
    /^\.\\" @manpage [a-z-]*@$/ {
        part = $0
        sub(/^\.\\" @manpage /, "", part)
        sub(/@$/, "", part)
        file = dir "/" part
        while ((getline line < file) > 0)
            print line
        close(file)
    }' "$template"
