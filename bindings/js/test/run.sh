#!/bin/sh
# run.sh TARBALL [TEST...] - the package as a user gets it: installed
# from its tarball (make npm) into an empty temporary folder by
# `npm install --offline`, with an empty npm cache of its own (so no
# network and nothing cached is needed), then node's test runner on the
# named test files of this folder (default: all), which import it by its
# name.  NQ_CLI (the native command line) is what the tests compare with.
# Exit: node --test's (npm's, if the install fails).
set -eu
[ $# -ge 1 ] || { echo "usage: run.sh TARBALL [TEST...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
# the tests run in the temporary folder: NQ_CLI made absolute first
case ${NQ_CLI:-} in "" | /*) ;; *) NQ_CLI=$(pwd)/$NQ_CLI; export NQ_CLI ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/nq-npm.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
cd "$dir"
npm install --offline --no-audit --no-fund --loglevel=error \
    --cache "$dir/.npm-cache" "$tarball" >install.log 2>&1 ||
    { cat install.log >&2; exit 1; }
[ $# -gt 0 ] || set -- $(cd "$here" && ls *.test.mjs)
for t in "$@"; do cp "$here/$t" .; done
node --test "$@"
