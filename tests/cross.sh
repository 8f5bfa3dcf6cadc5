#!/bin/sh
# cross.sh - the default binary on older x86 CPUs and the whole build on
# aarch64, under Debian's qemu-user (CI runs it; so can anyone on x86-64).
#
#   x86-64, -cpu Conroe (Core 2: SSSE3, no SSE4.1): the kernel chosen is
#     scalar, counts are OEIS's, the kernel tests pass, sse4 is refused;
#   x86-64, -cpu Nehalem (SSE4.2, no AVX2): sse4 is chosen, the same,
#     avx2 is refused;
#   x86-64, -cpu Haswell (AVX2, no AVX-512): avx2 is chosen, the same;
#   aarch64: cross-built with gcc-aarch64-linux-gnu, NEON is chosen, the
#     kernel tests (totals to N = 16 with each kernel, every lane mask,
#     random jobs against the plain DFS) and then the whole test suite run
#     under qemu-aarch64 (less the journal and MPI tests, whose N = 18
#     runs take hours emulated).
#
# One line per check, then "N passed, N failed"; exit 1 on a failure.
set -u
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1; }
if ! need qemu-x86_64 || ! need qemu-aarch64 || ! need aarch64-linux-gnu-gcc
then
    SUDO=
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq qemu-user \
        gcc-aarch64-linux-gnu libc6-dev-arm64-cross >/dev/null
fi

passed=0
failed=0
check() {
    name=$1
    shift
    if "$@"; then
        echo "ok   cross/$name"
        passed=$((passed + 1))
    else
        echo "FAIL cross/$name"
        failed=$((failed + 1))
    fi
}

# A wrapper running a program under qemu, for the test runner (NQ_CLI,
# NQ_BENCH_DIR): the qemu path is absolute, since tests empty PATH at
# times.  It is dir/name, name the program's own by default.
wrapper() { # dir qemu-command-line program [name]
    mkdir -p "$1"
    w="$1/${4:-nqueens}"
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$2" "$3" > "$w"
    chmod +x "$w"
}

QX=$(command -v qemu-x86_64)
# Haswell less the features qemu's TCG lacks (it warns about each on
# stderr, which the tests read).
HASWELL="Haswell,-pcid,-x2apic,-tsc-deadline,-hle,-invpcid,-rtm"

output_has() { # text command...
    want=$1
    shift
    "$@" 2>&1 | grep -q -- "$want"
}

refused() { # message command...
    want=$1
    shift
    out=$("$@" 2>&1)
    [ $? -eq 2 ] && printf '%s' "$out" | grep -q -- "$want"
}

old_x86() { # name cpu kernel refused-kernel
    run="$QX -cpu $2"
    check "$1/selects-$3" output_has "this CPU: $3" $run build/nqueens --version
    check "$1/counts-4..14" output_has "^14: *365596 *45752 " \
        $run build/nqueens count 4-14 --quiet
    check "$1/json-names-$3" output_has "\"total\":2279184,\"unique\":285053,.*\"kernel\":\"$3\"" \
        $run build/nqueens count 15 --json
    check "$1/refuses-$4" refused "this CPU lacks $4" \
        $run build/nqueens count 8 --kernel "$4"
    wrapper "build/qemu-$1" "$QX -cpu $2" "$PWD/build/nqueens"
    check "$1/test-suite-kernels-engines-core" sh -c "NQ_CLI=build/qemu-$1/nqueens \
        NQ_DATA=tests/data $run build/nq-tests kernels engines core \
        cli/kernel > build/qemu-$1/tests.log 2>&1 || \
        { tail -20 build/qemu-$1/tests.log; exit 1; }"
}

if [ "$(uname -m)" = x86_64 ]; then
    make -s -j2 build/nqueens build/nq-tests || exit 1
    old_x86 core2 Conroe scalar sse4
    old_x86 nehalem Nehalem sse4 avx2
    old_x86 haswell "$HASWELL" avx2 avx512
fi

A=build/aarch64
QA="$(command -v qemu-aarch64) -L /usr/aarch64-linux-gnu"
# The benchmark programs the suite runs (NQ_BENCH_DIR): every name the
# tests pass to t_bench_program, so that a new one is built here too.
BENCHES=$(grep -ho 't_bench_program("nq-[a-z-]*")' tests/*.c | \
    sed 's/.*("\(.*\)")/\1/' | sort -u)
check aarch64/cross-build make -s -j2 CC=aarch64-linux-gnu-gcc BUILD=$A \
    $A/nqueens $A/nq-tests $A/libnqueens.a $(for b in $BENCHES; do echo $A/$b; done)
wrapper "$A/run" "$QA" "$PWD/$A/nqueens"
for b in $BENCHES; do
    wrapper "$A/bench" "$QA" "$PWD/$A/$b" "$b"
done
wrapper "$A/self" "$QA" "$PWD/$A/nq-tests" nq-tests
check aarch64/selects-neon output_has "this CPU: neon" $A/run/nqueens --version
check aarch64/counts-4..14 output_has "^14: *365596 *45752 " \
    $A/run/nqueens count 4-14 --quiet
check aarch64/json-names-neon output_has "\"total\":2279184,\"unique\":285053,.*\"kernel\":\"neon\"" \
    $A/run/nqueens count 15 --json
check aarch64/kernel-tests sh -c "$QA $A/nq-tests kernels > $A/kernels.log 2>&1 || \
    { grep FAIL $A/kernels.log; tail -1 $A/kernels.log; exit 1; }"
# The whole suite under the emulator, less what measures time: journal
# and MPI runs (minutes here), signals sent at moments of a count (under
# emulation count 19 is refused as a week's work before any signal could
# land where the test means it to) or of a plan (forgery/sigint-...), and
# the forged journal of N = 16 verified 200 times (its N = 12 twin runs),
# and the journals of N = 19 that verify's under-reporting tests count
# (minutes under the emulator; their N = 17 twins run);
# the kernel tests above count with NEON to N = 16.
check aarch64/test-suite sh -c "NQ_CLI=$A/run/nqueens NQ_DATA=tests/data \
    NQ_BENCH_DIR=$A/bench NQ_OBJ=$A/obj NQ_SELF=$A/self/nq-tests $QA $A/nq-tests -journal -mpi -signals \
    -forgery/sigint- -verifies/16 -default-verifies/19 > $A/tests.log 2>&1 || \
    { grep -A1 FAIL $A/tests.log; tail -1 $A/tests.log; exit 1; }"
tail -1 $A/tests.log 2>/dev/null | sed 's/^/     aarch64 suite: /'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
