#!/bin/sh
# mk/webpage.sh TEMPLATE WEBDIR SCALAR_JS SIMD_JS: write the lesson page
# (make wasm) on stdout: the trace page's template with no walk baked in
# (@WALKS@ an empty list), the lesson's parts from WEBDIR where the
# template's <!--@LESSON_...@--> markers say, and both modules (each the
# library and the command line, the WebAssembly inside as base64) as text
# the page's script hands to its workers.  One file, nothing to fetch, so
# that it opens from file://.
set -eu
tpl=$1 dir=$2 scalar=$3 simd=$4
# A module is put inside a script element: nothing in it may close one.
for m in "$scalar" "$simd"; do
    if grep -qi -e '</script' -e '<!--' "$m"; then
        echo "mk/webpage.sh: $m holds '</script' or '<!--': it cannot be put in the page" >&2
        exit 1
    fi
done
# A text the page reads, not runs: a script element of a type no browser
# runs.
text_script() {
    printf '<script type="text/plain" id="%s">\n' "$1"
    cat "$2"
    printf '</script>\n'
}
while IFS= read -r line || [ -n "$line" ]; do
    case $line in
    *'<!--@LESSON_TOP@-->'*) cat "$dir/lesson_top.html" ;;
    *'<!--@LESSON_BOTTOM@-->'*) cat "$dir/lesson_bottom.html" ;;
    *'<!--@LESSON_SCRIPT@-->'*)
        text_script nq-worker "$dir/worker.js"
        text_script nq-module-scalar "$scalar"
        text_script nq-module-simd "$simd"
        printf '<script>\n'
        cat "$dir/lesson.js"
        printf '</script>\n' ;;
    *@WALKS@*) printf '%s\n' "$line" | sed 's/@WALKS@/[]/' ;;
    *) printf '%s\n' "$line" ;;
    esac
done < "$tpl"
