#!/bin/sh
# tests/install.sh - make install and make uninstall, checked from outside.
#
#   sh tests/install.sh          (BUILD=dir to use another build directory)
#
# Builds, installs into a staging DESTDIR with PREFIX=/usr, checks every
# file is there, builds examples/count_basic.c against the staged library
# through pkg-config as C99 -pedantic and as C++11 -pedantic (shared and
# static), runs them, checks the shared library's symbol versions (the
# stable API under the soname's node, the advanced API under the minor
# release's, which a program using it records and needs), lints the man
# page, tries the bash completion, compiles the public headers as C99
# -pedantic and as C++, then uninstalls and checks nothing is left.  One
# line per check, "ok   install/NAME" or "FAIL install/NAME", then "N
# passed, N failed"; exit 1 on any failure.  Installs pkg-config,
# groff-base and g++ with apt-get when they are missing (as root, on
# Debian).

# shellcheck disable=SC2086 # $MAKE, $CC and $CXX may hold several words
set -u
cd "$(dirname "$0")/.." || exit 1

MAKE=${MAKE:-make}
CC=${CC:-cc}
CXX=${CXX:-c++}
BUILD=${BUILD:-build}
export BUILD # the Makefile's BUILD ?= build takes it from the environment

passed=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nq-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
stage=$tmp/stage        # the DESTDIR: nothing else is written there
work=$tmp/work          # programs built, logs
mkdir -p "$stage" "$work"
log=$work/log

pass() {
    echo "ok   install/$1"
    passed=$((passed + 1))
}

# fail NAME [WHY]: the reason, then the last lines of the check's log.
fail() {
    echo "FAIL install/$1"
    [ $# -gt 1 ] && echo "     $2"
    [ -s "$log" ] && tail -n 15 "$log" | sed 's/^/     | /'
    failed=$((failed + 1))
}

# check NAME COMMAND...: ok if the command succeeds (its output to $log).
check() {
    name=$1
    shift
    if "$@" >"$log" 2>&1; then
        pass "$name"
    else
        fail "$name" "failed: $*"
    fi
    : >"$log"
}

# expect NAME WANT COMMAND...: ok if the command succeeds printing WANT.
expect() {
    name=$1 want=$2
    shift 2
    got=$("$@" 2>"$log")
    rc=$?
    if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
        pass "$name"
    else
        fail "$name" "$* printed '$got' (exit $rc), not '$want'"
    fi
    : >"$log"
}

# The tools the checks need, from Debian's archive if missing.
missing=
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v groff >/dev/null 2>&1 || missing="$missing groff-base"
command -v "$CXX" >/dev/null 2>&1 || missing="$missing g++"
if [ -n "$missing" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "installing:$missing"
        apt-get update -qq >/dev/null 2>&1
        # shellcheck disable=SC2086 # one word per package
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing \
            >/dev/null 2>&1 || echo "apt-get install$missing failed"
    else
        echo "missing:$missing (the checks that need them will fail)"
    fi
fi

# The version, from its one source: the header's three numbers; and the
# soname's, which counts ABI breaks (doc/abi.md).
number() {
    sed -n "s/^#define  *NQ_$1  *\([0-9][0-9]*\) *\$/\1/p" include/nqueens.h
}
major=$(number VERSION_MAJOR)
minor=$(number VERSION_MINOR)
version=$major.$minor.$(number VERSION_PATCH)
abi=$(number ABI_VERSION)
soname=libnqueens.so.$abi
real=libnqueens.so.$abi.$version
stable_node=NQUEENS_$abi
advanced_node=NQUEENS_ADVANCED_$major.$minor

# Build (with the MPI library where mpicc is, the CUDA one where nvcc
# is, the OpenCL one where the compiler finds its headers and loader),
# install.
mpi=
command -v mpicc >/dev/null 2>&1 && mpi=mpi
cuda=
command -v "${NVCC:-nvcc}" >/dev/null 2>&1 && cuda=cuda
opencl=
sh mk/have-opencl.sh "$CC" && opencl=opencl
if ! $MAKE all $mpi $cuda $opencl >"$log" 2>&1; then
    fail build "$MAKE failed"
    echo "$passed passed, $failed failed"
    exit 1
fi
pass build
: >"$log"
check make-install $MAKE install DESTDIR="$stage" PREFIX=/usr

usr=$stage/usr
files="bin/nqueens lib/libnqueens.a lib/$real lib/$soname lib/libnqueens.so
include/nqueens.h lib/pkgconfig/nqueens.pc
share/man/man1/nqueens.1 share/bash-completion/completions/nqueens"
[ -f "$BUILD/nqueens-mpi" ] && files="$files bin/nqueens-mpi"
# The MPI header comes with the library that defines it, or not at all.
if [ -n "$mpi" ]; then
    files="$files lib/libnqueens-mpi.a include/nqueens_mpi.h
lib/pkgconfig/nqueens-mpi.pc"
else
    check no-mpi-header-without-its-library \
        test ! -e "$stage/usr/include/nqueens_mpi.h"
fi
# The CUDA header likewise, with nqueens-cuda.
if [ -n "$cuda" ]; then
    files="$files lib/libnqueens-cuda.a include/nqueens_cuda.h
lib/pkgconfig/nqueens-cuda.pc bin/nqueens-cuda"
else
    check no-cuda-header-without-its-library \
        test ! -e "$stage/usr/include/nqueens_cuda.h"
fi
# The OpenCL header likewise, with nqueens-opencl.
if [ -n "$opencl" ]; then
    files="$files lib/libnqueens-opencl.a include/nqueens_opencl.h
lib/pkgconfig/nqueens-opencl.pc bin/nqueens-opencl"
else
    check no-opencl-header-without-its-library \
        test ! -e "$stage/usr/include/nqueens_opencl.h"
fi
for f in $files; do
    check "file:usr/$f" test -f "$usr/$f"
done
check "link:$soname" test -L "$usr/lib/$soname"
check "link:libnqueens.so" test -L "$usr/lib/libnqueens.so"
check "mode:bin/nqueens" test -x "$usr/bin/nqueens"
# Nothing outside $DESTDIR/usr.
check only-under-prefix sh -c \
    "test -z \"\$(find '$stage' -mindepth 1 -maxdepth 1 ! -name usr)\""
expect installed-cli-version "nqueens $version" \
    sh -c "'$usr/bin/nqueens' --version | head -n 1"
check installed-cli-count sh -c \
    "'$usr/bin/nqueens' count 8 --json | grep -q '\"total\":92,\"unique\":12,'"
# The Japanese catalogue, where msgfmt built it, found by the installed
# program beside itself (../share/locale: programs/i18n.c), staged too.
if command -v msgfmt >/dev/null 2>&1; then
    check file:usr/share/locale/ja/LC_MESSAGES/nqueens.mo \
        test -f "$usr/share/locale/ja/LC_MESSAGES/nqueens.mo"
    if locale -a 2>/dev/null | grep -qi '^ja_JP.utf8$'; then
        check installed-cli-speaks-japanese sh -c \
            "LANG=ja_JP.UTF-8 LANGUAGE=ja LC_ALL= LC_MESSAGES= '$usr/bin/nqueens' count 8 | grep -q '総解'"
    fi
fi

# The pkg-config file names the real prefix, not the staging directory.
check pc-prefix grep -qx 'prefix=/usr' "$usr/lib/pkgconfig/nqueens.pc"
check pc-version grep -qx "Version: $version" "$usr/lib/pkgconfig/nqueens.pc"
check pc-no-destdir sh -c "! grep -q '$stage' '$usr/lib/pkgconfig/nqueens.pc'"

# pkg-config relocated into the staging tree.
PKG_CONFIG_PATH=$usr/lib/pkgconfig
export PKG_CONFIG_PATH
pc() { pkg-config --define-variable=prefix="$usr" "$@"; }
# pc's output as words, one space apart (pkgconf ends it with a space).
pc_words() {
    out=$(pc "$@") || return 1
    echo $out
}
expect pkg-config-modversion "$version" pc --modversion nqueens
expect pkg-config-cflags "-I$usr/include" pc_words --cflags nqueens
expect pkg-config-libs "-L$usr/lib -lnqueens" pc_words --libs nqueens
expect pkg-config-static "-L$usr/lib -lnqueens -lpthread" \
    pc_words --static --libs nqueens

# examples/count_basic.c, shared: what its comment says, built as C99 and
# as C++11 (-pedantic, every warning an error: the header's
# NQ_REQUEST_INIT is both languages').
c99="$CC -std=c99 -pedantic -Wall -Wextra -Werror"
cxx="$CXX -x c++ -std=c++11 -pedantic -Wall -Wextra -Werror"
for lang in c99 c++; do
    compiler=$c99
    [ $lang = c++ ] && compiler=$cxx
    shared=$work/count-shared-$lang
    static=$work/count-static-$lang
    # shellcheck disable=SC2046 # pkg-config's flags are words
    check example-build-shared:$lang $compiler examples/count_basic.c \
        $(pc --cflags nqueens) -o "$shared" -x none $(pc --libs nqueens)
    expect example-run-shared:$lang "12 14200 1787" \
        env LD_LIBRARY_PATH="$usr/lib" "$shared"
    expect example-run-shared-8:$lang "8 92 12" \
        env LD_LIBRARY_PATH="$usr/lib" "$shared" 8
    check example-shared-needs-soname:$lang sh -c \
        "readelf -d '$shared' | grep NEEDED | grep -qF '[$soname]'"
    check example-shared-loads-staged:$lang sh -c \
        "LD_LIBRARY_PATH='$usr/lib' ldd '$shared' | grep -qF '$usr/lib/$soname'"
    # A stable program needs the stable node only.
    check example-needs-stable-node-only:$lang sh -c \
        "readelf -V '$shared' > '$work/needs' &&
         grep -q 'Name: $stable_node' '$work/needs' &&
         ! grep -q NQUEENS_ADVANCED '$work/needs'"

    # Static: the archive taken even with the shared library beside it.
    # shellcheck disable=SC2046
    check example-build-static:$lang $compiler examples/count_basic.c \
        $(pc --cflags nqueens) -o "$static" -x none \
        $(pc --static --libs nqueens | sed 's/-lnqueens/-l:libnqueens.a/')
    expect example-run-static:$lang "12 14200 1787" "$static"
    check example-static-no-libnqueens:$lang sh -c \
        "readelf -d '$static' > '$work/static.dyn' &&
         ! grep -q libnqueens '$work/static.dyn'"
done
shared=$work/count-shared-c99

# The symbol versions (doc/abi.md): every function of the header's stable
# part under the soname's node, every one of its advanced part under the
# minor release's, and nothing else exported.
declared() { # 1: the stable part, 2: the advanced part
    range='1,/^#ifdef NQ_ADVANCED_API/p'
    # shellcheck disable=SC2016 # sed's $: the last line
    [ "$1" = 1 ] || range='/^#ifdef NQ_ADVANCED_API/,$p'
    sed -n "$range" include/nqueens.h |
        sed -n 's/^[a-z].*[ *]\(nq_[a-z0-9_]*\)(.*/\1/p' | sort -u
}
exported() { # NODE: the functions the staged library defines under it
    readelf --dyn-syms -W "$usr/lib/$real" |
        awk -v node="$1" '$7 != "UND" { n = split($8, a, "@@");
            if (n == 2 && a[2] == node) print a[1] }' | sort -u
}
same_list() { # WHAT WANT GOT
    [ "$2" = "$3" ] && [ -n "$2" ] && return 0
    echo "$1 differ:"
    printf '%s\n' "$2" >"$work/want"
    printf '%s\n' "$3" >"$work/got"
    diff "$work/want" "$work/got"
    return 1
}
check "symbols:stable-under-$stable_node" same_list "stable symbols" \
    "$(declared 1)" "$(exported "$stable_node")"
check "symbols:advanced-under-$advanced_node" same_list "advanced symbols" \
    "$(declared 2)" "$(exported "$advanced_node")"
check symbols:nothing-else-exported sh -c \
    "test \"\$(readelf --dyn-syms -W '$usr/lib/$real' |
             awk '\$7 != \"UND\" && \$5 == \"GLOBAL\"' |
             grep -cv 'NQUEENS_')\" = 0"

# The man page: lints clean, carries the version.
man1=$usr/share/man/man1/nqueens.1
check man-lint sh -c "out=\$(groff -man -ww -z '$man1' 2>&1) &&
                      test -z \"\$out\" || { echo \"\$out\"; exit 1; }"
check man-version grep -q "^\\.TH NQUEENS 1 .*\"nqueens $version\"" "$man1"
# Every command and every option its --help lists (the CLI is the truth).
man_covers() { # COMMAND
    grep -q "^\\.SS \"*$1\\b" "$man1" || { echo "no section $1"; return 1; }
    [ "$1" = help ] && return 0
    opts=$("$usr/bin/nqueens" "$1" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
    miss=
    for o in $opts; do
        grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$man1" || miss="$miss $o"
    done
    [ -z "$miss" ] || { echo "options missing:$miss"; return 1; }
}
# The commands are those `nqueens help` lists (so a new one cannot be
# left out here), and help itself.
commands=$("$usr/bin/nqueens" help |
           sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
check man-covers:the-commands-of-help test "$(echo $commands | wc -w)" -ge 11
for cmd in $commands help; do
    check "man-covers:$cmd" man_covers "$cmd"
done
check man-covers:version grep -q '^\.BR \\-\\-version' "$man1"
check man-covers:NQ_KERNEL grep -q '^\.B NQ_KERNEL' "$man1"

# The bash completion: COMPREPLY for a command line (the staged nqueens
# first on PATH, for the engine names).
completion=$usr/share/bash-completion/completions/nqueens
complete_words() {
    PATH="$usr/bin:$PATH" bash -c '
        . "$1" || exit 1
        shift
        COMP_WORDS=("$@")
        COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}
        _nqueens || exit 1
        printf "%s\n" "${COMPREPLY[@]}"' sh "$completion" "$@"
}
has_completion() { # WANT WORD...
    want=$1
    shift
    complete_words "$@" >"$work/reply" 2>&1 && grep -qx -- "$want" "$work/reply"
}
if command -v bash >/dev/null 2>&1; then
    check completion-command has_completion count nqueens co
    check completion-option has_completion --engine nqueens count --eng
    check completion-engine has_completion fast nqueens count --engine f
    check completion-format has_completion svg nqueens tree --format s
    check completion-help-command has_completion trace nqueens help ''
    check completion-engine-short has_completion symmetry nqueens tree -e ''
    check completion-registered bash -c \
        ". '$completion' && complete -p nqueens | grep -q _nqueens"
else
    fail completion "no bash"
fi

# The public headers: C99 -pedantic, C++ (extern "C"), as installed.
for h in $(cd "$usr/include" && ls); do
    check "header-c99:$h" $CC -std=c99 -pedantic -Wall -Wextra -Werror \
        -fsyntax-only -I"$usr/include" "$usr/include/$h"
    check "header-c++:$h" $CXX -fsyntax-only -x c++ -pedantic -Wall -Wextra \
        -Werror -I"$usr/include" "$usr/include/$h"
done
# C++ links against the C library: the declarations have C linkage; the
# sized structs' initialisers are C++11 without a warning; a long count
# writes its report.
cat >"$work/version.cc" <<'EOF'
#include <nqueens.h>
#include <cstdio>
int main()
{
    nq_request req = NQ_REQUEST_INIT;
    nq_resume_options o = NQ_RESUME_OPTIONS_INIT;
    nq_run_report r = NQ_RUN_REPORT_INIT;
    req.n = 8;
    if (nq_count_resumable(&req, &o, &r) != NQ_OK || r.counts.total != 92)
        return 1;
    std::puts(nq_get_version());
    return 0;
}
EOF
# shellcheck disable=SC2046
check c++-link $CXX -std=c++11 -pedantic -Wall -Wextra -Werror \
    "$work/version.cc" $(pc --cflags --libs nqueens) -o "$work/version"
expect c++-run "$version" env LD_LIBRARY_PATH="$usr/lib" "$work/version"

# The advanced API is seen only with NQ_ADVANCED_API (doc/abi.md); with
# it, a program uses it against the shared library.
cat >"$work/advanced.c" <<'EOF2'
#include <stdio.h>
#include <nqueens.h>
int main(void)
{
    nq_request req = {.size = sizeof req, .n = 8};
    nq_plan *p;
    if (nq_plan_create(&req, &p) != NQ_OK)
        return 1;
    printf("%llu\n", (unsigned long long)nq_plan_units(p));
    nq_plan_free(p);
    return 0;
}
EOF2
# shellcheck disable=SC2046
check advanced-api-hidden sh -c "! $CC -std=c99 -Werror -c '$work/advanced.c' \
    $(pc --cflags nqueens) -o '$work/advanced.o'"
# shellcheck disable=SC2046
check advanced-api-build $CC -std=c99 -Wall -Werror -DNQ_ADVANCED_API \
    "$work/advanced.c" $(pc --cflags --libs nqueens) -o "$work/advanced"
check advanced-api-run env LD_LIBRARY_PATH="$usr/lib" "$work/advanced"
# The program records the advanced node it was built against...
check advanced-api-needs-its-release sh -c \
    "readelf -V '$work/advanced' | grep -q 'Name: $advanced_node'"
# ...so that against a library of another minor release (this one's
# objects, its advanced node renamed) it fails to load, naming the node,
# while a stable program runs on: the next release's advanced API may
# have another layout, its stable API not.
next=$work/next-release
mkdir -p "$next"
sed "s/$advanced_node/NQUEENS_ADVANCED_$major.$((minor + 1))/" \
    "$BUILD/libnqueens.map" >"$next/libnqueens.map"
check next-release-library-builds $CC -shared -Wl,-soname,"$soname" \
    -Wl,--version-script,"$next/libnqueens.map" -Wl,--whole-archive \
    "$usr/lib/libnqueens.a" -Wl,--no-whole-archive -lpthread \
    -o "$next/$soname"
check advanced-program-refused-by-next-release sh -c \
    "! LD_LIBRARY_PATH='$next' '$work/advanced' 2>'$work/refused' &&
     grep -q \"version .$advanced_node. not found\" '$work/refused'"
expect stable-program-runs-on-next-release "12 14200 1787" \
    env LD_LIBRARY_PATH="$next" "$shared"

# Every installed header is linked against its library: nqueens_mpi.h
# by examples/count_mpi.c, built with mpicc against libnqueens-mpi and
# run as an MPI singleton (one process, no mpirun).
if [ -n "$mpi" ]; then
    # shellcheck disable=SC2046
    check mpi-example-build mpicc -std=c99 -pedantic -Wall -Wextra -Werror \
        examples/count_mpi.c $(pc --cflags --static --libs nqueens-mpi) \
        -o "$work/count_mpi"
    expect mpi-example-run "8 92 12" "$work/count_mpi" 8
else
    echo "skip install/mpi-example (no mpicc; not counted)"
fi
# nqueens_cuda.h and nqueens_opencl.h by examples/count_cuda.c and
# count_opencl.c, built by the C compiler against libnqueens-cuda and
# libnqueens-opencl: the engine counts on a device, or says cleanly that
# there is none (exit 1, the runtime's words: WORDS starts them), never
# crashes; and the installed program lists it.
gpu_example_runs() { # ENGINE WORDS
    out=$("$work/count_$1" 12 2>&1)
    rc=$?
    [ $rc -eq 0 ] && [ "$out" = "12 14200 1787" ] && return 0
    [ $rc -eq 1 ] && echo "$out" | grep -q "^count_$1: no usable GPU.*($2" &&
        return 0
    echo "exit $rc: $out"
    return 1
}
gpu_example() { # ENGINE WORDS: built (where its back-end is) and run
    # shellcheck disable=SC2046
    check "$1-example-build" $CC -std=c99 -pedantic -Wall -Wextra -Werror \
        "examples/count_$1.c" $(pc --cflags --libs "nqueens-$1") \
        -o "$work/count_$1"
    check "$1-example-run-or-no-device" gpu_example_runs "$1" "$2"
    check "$1-cli-lists-engine" sh -c \
        "'$usr/bin/nqueens-$1' engines | grep -q '^$1 '"
}
if [ -n "$cuda" ]; then
    gpu_example cuda cuda
else
    echo "skip install/cuda-example (no nvcc; not counted)"
fi
if [ -n "$opencl" ]; then
    gpu_example opencl ''
else
    echo "skip install/opencl-example (no OpenCL headers and loader; not counted)"
fi

# README's library example as written, after an install into the machine
# itself (no DESTDIR: as root, ldconfig runs): built with pkg-config and
# run with no LD_LIBRARY_PATH.  Only as root, and where no nqueens is
# installed under /usr/local already (it would be overwritten, then
# removed); uninstalled after, the linker's cache refreshed again.
readme_example() {
    sed -n '/^## For programmers/,/^## Install/p' README.md |
        sed -n '/^```c$/,/^```$/p' | sed '1d;$d' >"$work/count12.c" &&
        [ -s "$work/count12.c" ] &&
        # shellcheck disable=SC2046
        $CC "$work/count12.c" $(pkg-config --cflags --libs nqueens) -o "$work/count12" &&
        out=$("$work/count12") && echo "$out" && [ "$out" = "14200 1787" ]
}
if [ "$(id -u)" = 0 ] && [ ! -e /usr/local/lib/libnqueens.a ] &&
   [ ! -e /usr/local/bin/nqueens ]; then
    check system-install $MAKE install PREFIX=/usr/local
    check system-install-readme-example-runs readme_example
    check system-uninstall $MAKE uninstall PREFIX=/usr/local
    check system-uninstall-leaves-no-library sh -c \
        "! ls /usr/local/lib/libnqueens* >/dev/null 2>&1 && ! ldconfig -p | grep -q libnqueens"
else
    echo "skip install/system-install (not root, or an nqueens in /usr/local already; not counted)"
fi

# Uninstall: no file (nor link) left; directories may remain.
check make-uninstall $MAKE uninstall DESTDIR="$stage" PREFIX=/usr
left=$(find "$stage" ! -type d)
if [ -z "$left" ]; then
    pass uninstall-leaves-nothing
else
    fail uninstall-leaves-nothing "left behind: $(echo "$left" | tr '\n' ' ')"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
