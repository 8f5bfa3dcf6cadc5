#!/bin/sh
# check-ptxas.sh FILE KERNEL: read nvcc's `-Xptxas -v` report in FILE and
# fail unless KERNEL (a name inside the mangled entry name) has a 0-byte
# stack frame and no spills: a stack in local memory is the shape GPUs
# punish (issue: the GPU engine), and this keeps it from coming back.
# Prints the kernel's line: registers, stack, spills.
set -eu
file=$1 kernel=$2
awk -v k="$kernel" '
    /Compiling entry function/ && index($0, k) {
        arch = $NF; gsub(/\047/, "", arch); want = 1; next }
    want && /bytes stack frame/ {
        stack = $1; stores = $5; loads = $9; next }
    want && /Used [0-9]+ registers/ {
        for (i = 1; i <= NF; i++) if ($i == "Used") regs = $(i + 1)
        printf "%s (%s): %s registers, %s-byte stack frame, %s bytes spilled\n",
               k, arch, regs, stack, stores + loads
        found = 1
        if (stack != 0 || stores != 0 || loads != 0) bad = 1
        want = 0 }
    END {
        if (!found) { print "check-ptxas: no report for " k > "/dev/stderr"; exit 1 }
        if (bad) { print "check-ptxas: " k " has a stack frame or spills: " \
                         "its search state left registers and shared memory" \
                         > "/dev/stderr"; exit 1 } }
' "$file"
