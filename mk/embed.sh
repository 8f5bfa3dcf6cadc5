#!/bin/sh
# mk/embed.sh FILE OUT NAME: write OUT, a C file defining the string NAME
# with FILE's text, a line a literal (backslashes and quotes escaped), so
# that a page kept as a real file (programs/trace/trace_page.html, edited
# and checked as HTML) is built into the program; make remakes OUT when
# FILE changes.  Written to a temporary file first: an interrupted run
# leaves no half a string behind.
set -eu
in=$1 out=$2 name=$3
mkdir -p "$(dirname "$out")"
{
    printf '/* Made by mk/embed.sh from %s: edit that file, not this. */\n' "$in"
    printf 'const char %s[] =\n' "$name"
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$in"
    printf '    ;\n'
} > "$out.tmp"
mv "$out.tmp" "$out"
