#!/bin/sh
# The real-browser test's browser: Debian's chromium, installed (quietly,
# with sudo when not root) if no chromium is on PATH.  The test itself
# (tests/browser/walk.mjs, run from test_trace_html.c) needs node too and
# is reported as skipped, never passed, where either is missing.
set -eu
if command -v chromium >/dev/null 2>&1 ||
   command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends chromium >/dev/null
command -v chromium >/dev/null 2>&1
