#!/bin/sh
# mk/have-opencl.sh CC: exit 0 if the C compiler CC (which may be several
# words) compiles a program against the OpenCL headers (<CL/cl.h>, Debian's
# opencl-headers) and links it with the ICD loader (-lOpenCL,
# ocl-icd-opencl-dev), else 1.  The Makefile builds the OpenCL back-end
# only where it does, and tests/install.sh installs it only then; a
# compiler for another machine (tests/cross.sh) finds neither and leaves
# it out.  Whether any OpenCL device exists is the program's to find out.
set -u
cc=${1:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nq-have-opencl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/t.c" <<'PROGRAM'
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
int main(void)
{
    cl_uint n = 0;
    return clGetPlatformIDs(0, NULL, &n) == CL_SUCCESS ? 0 : (int)n;
}
PROGRAM
# shellcheck disable=SC2086 # CC's words
$cc "$tmp/t.c" -lOpenCL -o "$tmp/t" >/dev/null 2>&1
