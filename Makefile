# nqueens - plain GNU make.
#
#   make            build/nqueens, build/libnqueens.a (and .so) and the man
#                   page, build/nqueens.1
#   make run        the main job: nqueens count 4-16
#   make test       build and run the whole test suite (T=WORD: only the
#                   tests whose name holds WORD)
#   make check      the quick tier (under a minute from a clean clone: built
#                   and run in parallel): the cases of seconds reported as
#                   skipped; make test runs everything
#   make coverage   the suite in a --coverage build; line coverage of src/
#                   and programs/ printed last, failing under
#                   COVERAGE_FLOOR percent
#   make fuzz       libFuzzer (clang) on the journal reader, the argument
#                   parser, the request and verify's options, FUZZ_SECONDS
#                   each
#   make asan       the same tests under AddressSanitizer + UBSan
#   make bench      engine x N timing table
#   make bench-fast fast with each kernel this CPU runs, N = 16..19, one
#                   thread and all (about 15 minutes: scalar is slow)
#   make bench-peer PEER='COMMAND'  fast beside another counter, in rounds
#                   at one N (N=18, THREADS=2, ROUNDS=9, PEER_KERNELS=k,...)
#   make bench-record  cycles per solution at N = 21..23 on a fixed sample
#   make bench-gpu  the cuda and opencl engines against fast, N = 16..22
#                   (needs a GPU)
#   make bench-subunits  the spread of the GPU's sub-unit costs at N = 18
#   make bench-bottom    bottom states met again inside fast's units
#   make bench-order     fast's nodes in board order, by the fewest open
#                        squares and by the fewest places (N = 14..16)
#   make bench-pieces    the reference core's rate here, and the pieces of
#                        N = 24..28 (minutes: N = 28 is cut)
#   make sim-cluster  nqueens-mpi's scheduler on a simulated cluster of
#                   10 to 10,000 nodes, N = 24..28, beside the old rule
#   make bench-estimate  nqueens estimate against the counts it estimates,
#                   N = 18..21 (minutes: N = 21 is counted)
#   make bench-merge  merge of 100,000 small journals, at once and staged
#                   (BEFORE=another build's nqueens, side by side)
#   make bench-parts  what each part of a job array pays before its first
#                   unit, 200 parts of N = 20 (BEFORE= likewise)
#   make bench-wasm  the WebAssembly modules (make wasm) under node against
#                   this build, one thread, in rounds: fast with each
#                   kernel at N = 14..17 and the teaching engines, each
#                   total checked against OEIS (needs emcc and node)
#   make npm        build/nqueens-VERSION.tgz, the npm package
#                   (bindings/js) from the WebAssembly build: mk/npm.mk
#                   (needs emcc and npm)
#   make mpi        build/nqueens-mpi, with OpenMPI's mpicc
#   make cuda       build/libnqueens-cuda.a (the CUDA back-end) and
#                   build/nqueens-cuda (engine cuda), with nvcc
#   make opencl     build/libnqueens-opencl.a (the OpenCL back-end) and
#                   build/nqueens-opencl (engine opencl), where the OpenCL
#                   headers and ICD loader are found
#   make install    see mk/install.mk (PREFIX, DESTDIR)
#
# The default build runs on any x86-64 (or any target gcc has): the fast
# engine's vector kernels are built for AVX2 and AVX-512 with their own
# flags and picked at run time.  ARCH=-march=native tunes the rest for
# this machine.  CFLAGS, CPPFLAGS and LDFLAGS add to the project's flags;
# changing any flag rebuilds the objects.

# No built-in rules: they would chain the kernels' pattern rules into
# remaking missing dependency files.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

BUILD    ?= build
CC       ?= cc
OPT      ?= -O3
SAN      ?=
ARCH     ?=
NQ_CPPFLAGS := -Iinclude -DNQ_ADVANCED_API -MMD -MP
NQ_CFLAGS = -std=gnu11 -ffp-contract=off -Wall -Wextra -fPIC $(OPT) $(ARCH) -g
LDLIBS   := -lpthread
ALL_CFLAGS = $(NQ_CFLAGS) $(CFLAGS) $(SAN)
COMPILE  = $(CC) $(NQ_CPPFLAGS) $(CPPFLAGS) $(ALL_CFLAGS)
LINK     = $(CC) $(ALL_CFLAGS) $(LDFLAGS)

# The fast engine's kernels: one source (frontier_vec.c), one object per
# instruction set and lane width, each built with its set's flags.  The
# scalar kernel everywhere; SSE4, AVX2 and AVX-512 on x86-64, NEON on
# aarch64.
TARGET   := $(shell $(CC) -dumpmachine 2>/dev/null)
KERNELS  := scalar_32
ifneq ($(filter x86_64-%,$(TARGET)),)
SSE4_FLAGS   := -march=x86-64-v2
AVX2_FLAGS   := -march=x86-64-v3
AVX512_FLAGS := -march=x86-64-v4
AVX512_16_FLAGS := -mavx512vbmi2
KERNELS  += sse4_16 sse4_32 avx2_16 avx2_32 avx512_16 avx512_32
endif
ifneq ($(filter aarch64-% arm64-%,$(TARGET)),)
KERNELS  += neon_16 neon_32
endif
KERNEL_OBJ := $(KERNELS:%=$(BUILD)/obj/src/search/frontier_%.o)
TEST_KERNEL_OBJ := $(KERNELS:%=$(BUILD)/obj/tests/simd_lanes_%.o)
# frontier_avx2_16.o: set avx2, 16-bit lanes, AVX2_FLAGS
kernel_set  = $(word 1,$(subst _, ,$(1)))
kernel_bits = $(word 2,$(subst _, ,$(1)))
kernel_flags = $($(call upper,$(call kernel_set,$(1)))_FLAGS) $($(call upper,$(1))_FLAGS) \
    -DNQ_KERNEL=$(call kernel_set,$(1)) -DNQ_ISA_$(call kernel_set,$(1)) \
    -DNQ_LANE_BITS=$(call kernel_bits,$(1))

# Chosen by folder (doc/internals.md, "Layout"): the library is every
# room of src/ but the back-ends' (src/mpi, src/cuda, src/opencl), each of
# which holds its library part and its program's main (<room>_main.c;
# src/cuda holds nothing else that is C, which tests/test_layers.c
# checks); the command line is programs/ and its rooms (programs/options,
# output, trace and commands), but not programs/web, the lesson page's C,
# which only make wasm builds (mk/wasm.mk).  frontier_vec.c is left out of
# the library's list only because it is built once per kernel
# (KERNEL_OBJ, above).
BACKENDS := src/mpi src/cuda src/opencl
LIB_SRC  := $(filter-out $(BACKENDS:%=%/%) src/search/frontier_vec.c,\
              $(wildcard src/*/*.c))
# The back-ends' programs' mains live among the programs, each in a room
# of its own (programs/mpi, programs/cuda, programs/opencl), built only
# with their back-end.
BACKEND_MAINS := programs/mpi programs/cuda programs/opencl
CLI_SRC  := $(filter-out programs/web/% $(BACKEND_MAINS:%=%/%),\
              $(wildcard programs/*.c programs/*/*.c))
MPI_SRC  := $(wildcard src/mpi/*.c)
MPI_MAIN_SRC := $(wildcard programs/mpi/*.c)
CUDA_SRC := $(wildcard src/cuda/*.cu)
CUDA_MAIN_SRC := $(wildcard programs/cuda/*.c)
OPENCL_SRC := $(wildcard src/opencl/*.c)
OPENCL_MAIN_SRC := $(wildcard programs/opencl/*.c)
TEST_SRC := $(filter-out tests/simd_lanes.c tests/open_swap.c,$(wildcard tests/*.c))
BENCH_SRC := $(wildcard bench/*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(KERNEL_OBJ)
# The trace page's template (programs/trace/trace_page.html) as a C string
# (mk/embed.sh), an object of the command line's: in nqueens, nqueens-mpi
# and nqueens-cuda alike.
PAGE_SRC := $(BUILD)/gen/trace_page.c
PAGE_OBJ := $(BUILD)/obj/programs/trace/trace_page.o
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o) $(PAGE_OBJ)
# The command line less nqueens' main, for the programs with their own.
CLI_BODY_OBJ := $(filter-out %/nqueens_main.o,$(CLI_OBJ))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o) $(TEST_KERNEL_OBJ)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)

MPI_LIB_OBJ := $(MPI_SRC:%.c=$(BUILD)/obj/mpi/%.o)
MPI_MAIN_OBJ := $(MPI_MAIN_SRC:%.c=$(BUILD)/obj/mpi/%.o)
MPI_OBJ  := $(MPI_LIB_OBJ) $(MPI_MAIN_OBJ)

LIB      := $(BUILD)/libnqueens.a
CLI      := $(BUILD)/nqueens
TESTS    := $(BUILD)/nq-tests
BENCH    := $(BUILD)/nq-bench
BENCH_FAST := $(BUILD)/nq-bench-fast
BENCH_RECORD := $(BUILD)/nq-bench-record
BENCH_SUBUNITS := $(BUILD)/nq-bench-subunits
BENCH_BOTTOM := $(BUILD)/nq-bench-bottom
BENCH_ORDER := $(BUILD)/nq-bench-order
BENCH_PIECES := $(BUILD)/nq-bench-pieces
BENCH_MERGE_GEN := $(BUILD)/nq-bench-merge-gen
SIM_CLUSTER := $(BUILD)/nq-sim-cluster
MPI_BIN  := $(BUILD)/nqueens-mpi
MPI_LIB  := $(BUILD)/libnqueens-mpi.a
MPICC    ?= mpicc
CUDA_BIN := $(BUILD)/nqueens-cuda
CUDA_LIB := $(BUILD)/libnqueens-cuda.a
CUDA_EXAMPLE := $(BUILD)/count-cuda
NVCC     ?= nvcc
CUDA_ARCH ?= sm_90
# The man page: doc/nqueens.1.in, its written part, with the parts that
# nqueens prints from its own tables put in (mk/manpage.sh), so it needs
# the program to run here.  A cross build (the compiler's target another
# machine than this one: tests/cross.sh) leaves it out of all and
# install.
MAN      := $(BUILD)/nqueens.1
ifneq ($(filter $(shell uname -m)-%,$(TARGET)),)
MAN_ALL  := $(MAN)
endif
CUDA_OBJ := $(CUDA_SRC:%.cu=$(BUILD)/obj/cuda/%.o)
CUDA_MAIN_OBJ := $(CUDA_MAIN_SRC:%.c=$(BUILD)/obj/cuda/%.o)
# What a C program linking libnqueens-cuda.a needs besides it: the CUDA
# runtime (static, as nvcc links it) and C++'s.  The runtime's directory is
# asked of nvcc itself (the last -L of its dry run): the nvcc on PATH may be
# a wrapper script outside the toolkit, and the toolkit may keep its
# libraries in lib64, lib or targets/<arch>/lib.
CUDA_LIBDIR ?= $(realpath $(shell $(NVCC) --dryrun -x cu -c /dev/null -o /dev/null 2>&1 | \
    sed -n 's/^\#\$$ LIBRARIES=.*"-L\([^"]*\)".*$$/\1/p'))
CUDA_LDLIBS = -L$(CUDA_LIBDIR) -lcudart_static -ldl -lrt -lstdc++ -lpthread
OPENCL_BIN := $(BUILD)/nqueens-opencl
OPENCL_LIB := $(BUILD)/libnqueens-opencl.a
OPENCL_EXAMPLE := $(BUILD)/count-opencl
# The OpenCL program: the search body's headers (in the order they include
# each other) and the kernels, one text with their #include lines blanked
# (an OpenCL compiler reads no files; the line numbers stay, and #line
# names each file in the build log), built into the library as a C string
# (mk/embed.sh).
OPENCL_PROGRAM_PARTS := src/core/device.h src/core/bits.h src/search/frontier.h \
    src/search/dfs.h src/fast/subunits.h src/opencl/opencl_kernel.cl
OPENCL_PROGRAM := $(BUILD)/gen/opencl_program.cl
OPENCL_PROGRAM_SRC := $(BUILD)/gen/opencl_program.c
OPENCL_PROGRAM_OBJ := $(BUILD)/obj/src/opencl/opencl_program.o
OPENCL_OBJ := $(OPENCL_SRC:%.c=$(BUILD)/obj/%.o) $(OPENCL_PROGRAM_OBJ)
OPENCL_MAIN_OBJ := $(OPENCL_MAIN_SRC:%.c=$(BUILD)/obj/%.o)
OPENCL_LDLIBS := -lOpenCL -lpthread

# With mpirun on the machine, `make test` builds nqueens-mpi and runs the
# MPI tests too (the sanitizer build leaves them out: OpenMPI's own
# allocations trip LeakSanitizer).
ifneq ($(SAN),)
HAVE_MPI :=
else
HAVE_MPI := $(shell command -v mpirun 2>/dev/null)
endif
ifneq ($(HAVE_MPI),)
TEST_MPI := $(MPI_BIN) $(MPI_LIB)
TEST_ENV_MPI := NQ_MPI=$(MPI_BIN)
endif

# With nvcc, `make test` builds nqueens-cuda too (its kernel checked by
# ptxas for a stack frame) and runs it: on a GPU it must count right; on a
# machine without one it must say so, naming the CUDA error, and leave a
# journal another engine finishes.  Not in the sanitizer build (nvcc links
# without the sanitizers' runtime).
ifneq ($(SAN),)
HAVE_NVCC :=
else
HAVE_NVCC := $(shell command -v $(NVCC) 2>/dev/null)
endif
ifneq ($(HAVE_NVCC),)
TEST_CUDA := $(CUDA_BIN) $(CUDA_EXAMPLE)
TEST_ENV_CUDA := NQ_CUDA=$(CUDA_BIN) NQ_CUDA_EXAMPLE=$(CUDA_EXAMPLE)
endif

# Where $(CC) finds the OpenCL headers and the ICD loader
# (mk/have-opencl.sh), `make test` builds nqueens-opencl too and runs it:
# on an OpenCL device (PoCL's CPU device in CI) it must count right; with
# none, its tests are skipped.  In the sanitizer build too (its tests run
# it without AddressSanitizer's alternate signal stacks, which the LLVM
# inside PoCL replaces: tests/test_opencl.c), not in the coverage build,
# whose figure is the library's and the command line's.
ifneq ($(findstring --coverage,$(SAN)),)
HAVE_OPENCL :=
else
HAVE_OPENCL := $(shell sh mk/have-opencl.sh '$(CC)' && echo yes)
endif
ifneq ($(HAVE_OPENCL),)
TEST_OPENCL := $(OPENCL_BIN) $(OPENCL_EXAMPLE)
TEST_ENV_OPENCL := NQ_OPENCL=$(OPENCL_BIN) NQ_OPENCL_EXAMPLE=$(OPENCL_EXAMPLE)
endif

# With emcc (Debian's emscripten), `make test` builds the lesson page
# (make wasm, mk/wasm.mk) and opens it in Chromium (tests/test_lesson.c),
# and builds make wasm's two modules and runs them as the command line
# under node (tests/test_wasm.c, make check too; skipped without node):
# each kernel's counts against OEIS, completions against this build's.
# Not in the sanitizer or coverage builds, whose flags emcc does not take.
# The paths are written out: a rule's prerequisites are expanded as it is
# read, before mk/wasm.mk (included last) names them.
ifneq ($(SAN),)
HAVE_EMCC :=
else
HAVE_EMCC := $(shell command -v $(or $(EMCC),emcc) 2>/dev/null)
endif
ifneq ($(HAVE_EMCC),)
TEST_WASM := $(BUILD)/nqueens.html
TEST_ENV_WASM := NQ_LESSON=$(BUILD)/nqueens.html
TEST_MODULES := $(BUILD)/wasm/scalar/nqueens.js $(BUILD)/wasm/simd/nqueens.js
TEST_ENV_MODULES := NQ_WASM_SCALAR=$(BUILD)/wasm/scalar/nqueens.js \
    NQ_WASM_SIMD=$(BUILD)/wasm/simd/nqueens.js
# And the npm package (make npm, mk/npm.mk) where npm is there to pack
# it, tested as installed from its tarball (tests/test_npm.c); its path
# is named in mk/npm.mk, so the variable is expanded when the recipe runs.
ifneq ($(shell command -v npm 2>/dev/null),)
TEST_NPM := npm
TEST_ENV_NPM = NQ_NPM_TARBALL=$(NPM_TARBALL)
endif
endif

# The command line's messages in other languages (GNU gettext): each
# po/LANG.po of po/LINGUAS built by msgfmt, where it is installed, into
# $(BUILD)/locale/LANG/LC_MESSAGES/nqueens.mo, where the uninstalled
# program finds it (programs/i18n.c); without msgfmt the program speaks
# English and nothing here is needed.  `make pot` regenerates
# po/nqueens.pot from the sources (xgettext: the developer's tool, never
# the build's); doc/internals.md, "Adding a language".
LINGUAS  := $(shell cat po/LINGUAS 2>/dev/null)
HAVE_MSGFMT := $(shell command -v msgfmt 2>/dev/null)
MO_FILES := $(LINGUAS:%=$(BUILD)/locale/%/LC_MESSAGES/nqueens.mo)
MO_ALL   := $(if $(HAVE_MSGFMT),$(MO_FILES))
# The files whose messages are marked: every command's help page and
# option texts (N_ in the tables, _ where help.c prints them), and the
# messages of the files below.
POT_SRC  := programs/cli.h programs/dispatch.c programs/errors.c \
    programs/options/options.c programs/options/values.c \
    programs/options/checks.c programs/output/report.c \
    $(sort $(wildcard programs/commands/*.c)) programs/trace/trace.c \
    programs/output/table.c programs/output/duration.c \
    programs/output/progress.c programs/signals.c programs/mpi/mpi_main.c
XGETTEXT_FLAGS := --language=C --from-code=UTF-8 --add-comments=TRANSLATORS \
    --keyword=_ --keyword=N_ --keyword=cli_error:2 --keyword=cli_words:2 --keyword=cli_nwords:2,3 \
    --flag=cli_error:2:c-format --package-name=nqueens --no-location --sort-output

# Every object depends on the flags it was built with: a stamp rewritten
# only when they change.
FLAGS_STAMP := $(BUILD)/.flags
FLAGS_NOW = $(COMPILE) $(LDFLAGS) | $(SSE4_FLAGS) $(AVX2_FLAGS) $(AVX512_FLAGS) $(AVX512_16_FLAGS)
$(shell mkdir -p $(BUILD) && printf '%s\n' '$(FLAGS_NOW)' | \
    cmp -s - $(FLAGS_STAMP) || printf '%s\n' '$(FLAGS_NOW)' > $(FLAGS_STAMP))

.PHONY: all pot run test check check-build coverage fuzz asan python bench bench-python bench-fast bench-peer bench-record bench-gpu bench-subunits bench-bottom bench-order bench-pieces bench-wasm bench-estimate bench-merge bench-parts sim-cluster mpi cuda opencl wasm npm clean
all: $(CLI) $(LIB) shared $(MAN_ALL) $(MO_ALL)

# With Python's headers (Debian: python3-dev), `make test` builds the
# Python module (make python, mk/python.mk) and runs its pytest tests and
# notebooks (tests/test_python.c; skipped where pytest or Jupyter is
# missing).
include mk/python.mk

# The catalogues (above: MO_FILES) and po/nqueens.pot.
$(BUILD)/locale/%/LC_MESSAGES/nqueens.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt -c -o $@.tmp $< && mv $@.tmp $@

pot:
	xgettext $(XGETTEXT_FLAGS) -o po/nqueens.pot $(POT_SRC)


$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(COMPILE) -c $< -o $@

$(PAGE_SRC): programs/trace/trace_page.html mk/embed.sh
	sh mk/embed.sh $< $@ trace_page

$(PAGE_OBJ): $(PAGE_SRC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(COMPILE) -c $< -o $@

$(KERNEL_OBJ): $(BUILD)/obj/src/search/frontier_%.o: src/search/frontier_vec.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(COMPILE) $(call kernel_flags,$*) -c $< -o $@

$(BUILD)/obj/tests/simd_lanes_%.o: tests/simd_lanes.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(COMPILE) $(call kernel_flags,$*) -c $< -o $@

upper = $(subst sse,SSE,$(subst avx,AVX,$(1)))

$(BUILD)/obj/mpi/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(MPICC) $(NQ_CPPFLAGS) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIB)
	$(LINK) $(CLI_OBJ) $(LIB) $(LDLIBS) -o $@

# Written to a temporary file first: a failed run leaves no page behind.
$(MAN): doc/nqueens.1.in mk/manpage.sh $(CLI)
	$(nq_version_check)
	sh mk/manpage.sh $(CLI) doc/nqueens.1.in $(NQ_VERSION) > $@.tmp
	mv $@.tmp $@

# The runner links the CLI's table formatter (table.o, which needs only
# the library) to check rows no count here could print (N = 23..27), and
# its durations in words (duration.o, which needs only libc).
TEST_CLI_OBJ := $(BUILD)/obj/programs/output/table.o \
    $(BUILD)/obj/programs/output/duration.o $(BUILD)/obj/programs/i18n.o
$(TESTS): $(TEST_OBJ) $(TEST_CLI_OBJ) $(LIB)
	$(LINK) $(TEST_OBJ) $(TEST_CLI_OBJ) $(LIB) $(LDLIBS) -o $@

# A shim the tests preload into nqueens to replace a file between two of
# its reads (tests/open_swap.c); built without the sanitizers, which a
# preloaded library must not carry.
OPEN_SWAP := $(BUILD)/nq-open-swap.so
$(OPEN_SWAP): tests/open_swap.c
	$(CC) -shared -fPIC -O1 -Wall -Wextra $< -ldl -o $@

$(BENCH): $(BUILD)/obj/bench/bench.o $(LIB)
	$(LINK) $< $(LIB) $(LDLIBS) -o $@

# What the benchmarks print of the machine (bench/machine.c).
BENCH_MACHINE := $(BUILD)/obj/bench/machine.o

$(BENCH_FAST): $(BUILD)/obj/bench/bench_fast.o $(BENCH_MACHINE) $(LIB)
	$(LINK) $(filter %.o,$^) $(LIB) $(LDLIBS) -o $@

$(BENCH_RECORD): $(BUILD)/obj/bench/bench_record.o $(BENCH_MACHINE) $(LIB)
	$(LINK) $(filter %.o,$^) $(LIB) $(LDLIBS) -o $@

$(BENCH_SUBUNITS): $(BUILD)/obj/bench/bench_subunits.o $(LIB)
	$(LINK) $< $(LIB) $(LDLIBS) -o $@

$(BENCH_BOTTOM): $(BUILD)/obj/bench/bench_bottom.o $(LIB)
	$(LINK) $< $(LIB) $(LDLIBS) -o $@

$(BENCH_ORDER): $(BUILD)/obj/bench/bench_order.o $(LIB)
	$(LINK) $< $(LIB) $(LDLIBS) -o $@

$(BENCH_PIECES): $(BUILD)/obj/bench/bench_pieces.o $(LIB)
	$(LINK) $< $(LIB) $(LDLIBS) -o $@

$(BENCH_MERGE_GEN): $(BUILD)/obj/bench/merge_gen.o $(LIB)
	$(LINK) $< $(LIB) $(LDLIBS) -o $@

$(SIM_CLUSTER): $(BUILD)/obj/bench/sim_cluster.o $(LIB)
	$(LINK) $< $(LIB) $(LDLIBS) -lm -o $@

# The MPI back-end as a library of its own (with nqueens_mpi.h and
# nqueens-mpi.pc), built and installed only where MPI is: libnqueens
# itself never needs MPI.  Static and whole (the library's objects and
# the back-end's), since the back-end calls into the library below its
# public API, which the shared libnqueens does not export.
$(MPI_LIB): $(MPI_LIB_OBJ) $(LIB)
	rm -f $@
	cp $(LIB) $@
	$(AR) rs $@ $(MPI_LIB_OBJ)

$(MPI_BIN): $(MPI_MAIN_OBJ) $(filter-out %/dispatch.o,$(CLI_BODY_OBJ)) $(MPI_LIB) $(LIB)
	$(MPICC) $(ALL_CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

mpi: $(MPI_BIN) $(MPI_LIB)

# The CUDA back-end as a library of its own (with nqueens_cuda.h and
# nqueens-cuda.pc), built and installed only where nvcc is: libnqueens
# itself never needs CUDA.  Static and whole, as the MPI one is; its
# engine joins the table when the program calls nq_cuda_register
# (nqueens-cuda's main does).  The kernel is built by nvcc; ptxas's report
# is kept and checked: the counting kernel must have no stack frame and
# no spills (mk/check-ptxas.sh).
$(CUDA_OBJ): $(BUILD)/obj/cuda/%.o: %.cu include/nqueens.h include/nqueens_cuda.h \
    $(wildcard src/cuda/*.h src/fast/*.h src/engines/*.h src/registry/*.h src/search/*.h src/core/*.h)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -std=c++20 -arch=$(CUDA_ARCH) -Iinclude -DNQ_ADVANCED_API -Xptxas -v -c $< -o $@ \
	    2> $(dir $@)ptxas.txt || { cat $(dir $@)ptxas.txt; exit 1; }
	sh mk/check-ptxas.sh $(dir $@)ptxas.txt count_subunits || { rm -f $@; exit 1; }

$(CUDA_MAIN_OBJ): $(BUILD)/obj/cuda/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(COMPILE) -c $< -o $@

$(CUDA_LIB): $(CUDA_OBJ) $(LIB)
	rm -f $@
	cp $(LIB) $@
	$(AR) rs $@ $(CUDA_OBJ)

$(CUDA_BIN): $(CUDA_MAIN_OBJ) $(CLI_BODY_OBJ) $(CUDA_LIB)
	$(NVCC) -arch=$(CUDA_ARCH) $^ -lpthread -o $@

# examples/count_cuda.c, built by the C compiler against the library as a
# program outside would be (make test runs it).
$(CUDA_EXAMPLE): examples/count_cuda.c $(CUDA_LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -Iinclude $< $(CUDA_LIB) $(CUDA_LDLIBS) -o $@

cuda: $(CUDA_BIN) $(CUDA_LIB)

# The OpenCL back-end as a library of its own (with nqueens_opencl.h and
# nqueens-opencl.pc), built and installed only where the OpenCL headers
# and the ICD loader are (HAVE_OPENCL): libnqueens itself never needs
# them.  Static and whole, as the CUDA one is; its engine joins the table
# when the program calls nq_opencl_register (nqueens-opencl's main does).
# The device program is built into it as a string (OPENCL_PROGRAM, above)
# and compiled by each device's OpenCL compiler when a count starts.
$(OPENCL_PROGRAM): $(OPENCL_PROGRAM_PARTS)
	@mkdir -p $(dir $@)
	for f in $^; do printf '#line 1 "%s"\n' "$$f"; \
	    sed 's/^[ ]*#[ ]*include.*$$//' "$$f"; done > $@.tmp
	mv $@.tmp $@

$(OPENCL_PROGRAM_SRC): $(OPENCL_PROGRAM) mk/embed.sh
	sh mk/embed.sh $< $@ nq_opencl_program

$(OPENCL_PROGRAM_OBJ): $(OPENCL_PROGRAM_SRC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(COMPILE) -c $< -o $@

$(OPENCL_LIB): $(OPENCL_OBJ) $(LIB)
	rm -f $@
	cp $(LIB) $@
	$(AR) rs $@ $(OPENCL_OBJ)

$(OPENCL_BIN): $(OPENCL_MAIN_OBJ) $(CLI_BODY_OBJ) $(OPENCL_LIB)
	$(LINK) $^ $(OPENCL_LDLIBS) -o $@

# examples/count_opencl.c, built against the library as a program outside
# would be (make test runs it).
$(OPENCL_EXAMPLE): examples/count_opencl.c $(OPENCL_LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -Iinclude $< $(OPENCL_LIB) $(OPENCL_LDLIBS) -o $@

ifneq ($(HAVE_OPENCL),)
opencl: $(OPENCL_BIN) $(OPENCL_LIB)
else
opencl:
	@echo 'make opencl: $(CC) finds no OpenCL headers and ICD loader (Debian:' \
	    'opencl-headers ocl-icd-opencl-dev; for a device: pocl-opencl-icd or' \
	    "a GPU's driver)$(if $(SAN),; not in a coverage build)" >&2; exit 1
endif

# The man page too: `man -l build/nqueens.1` works after any target a
# newcomer runs (make, make run, make test, make check).
run: $(CLI) $(MAN_ALL) $(MO_ALL)
	$(CLI) count 4-16

# The benchmarks are built too, so that none of them rots unnoticed, and
# bench-order's search is a test of the kernels' node counts.
BENCH_BINS := $(BENCH) $(BENCH_FAST) $(BENCH_RECORD) $(BENCH_SUBUNITS) $(BENCH_BOTTOM) $(BENCH_ORDER) \
    $(BENCH_PIECES) $(BENCH_MERGE_GEN) $(SIM_CLUSTER)

test: $(CLI) $(MAN_ALL) $(MO_ALL) $(TESTS) $(OPEN_SWAP) $(TEST_MPI) $(TEST_CUDA) $(TEST_OPENCL) $(TEST_WASM) $(TEST_MODULES) \
    $(TEST_NPM) $(TEST_PYTHON) $(BENCH_BINS)
	NQ_CLI=$(CLI) NQ_DATA=tests/data NQ_OBJ=$(BUILD)/obj $(TEST_ENV_MPI) $(TEST_ENV_PYTHON) \
	    NQ_OPEN_SWAP=$(OPEN_SWAP) NQ_BENCH_DIR=$(BUILD) $(TEST_ENV_CUDA) $(TEST_ENV_OPENCL) $(TEST_ENV_WASM) \
	    $(TEST_ENV_MODULES) $(TEST_ENV_NPM) $(TESTS) $(T)

# The quick tier, for the edit loop: every group, less the cases of
# seconds (MPI jobs, terminals, long counts), which it reports as skipped.
# It builds only what it runs: of the benchmarks, the two the suite runs
# (tests/test_bench.c); make test builds them all.
CHECK_BENCH_BINS := $(BENCH_FAST) $(BENCH_ORDER) $(BENCH_MERGE_GEN) $(SIM_CLUSTER)
# The WebAssembly modules are not built for it (a minute from a clean
# clone): their cases are skipped there, run by make test.  It builds in
# parallel, CHECK_JOBS at once (one per core), by a make of its own,
# unless this make runs jobs in parallel already (make -jN check); the
# runner then runs the cases side by side too (NQ_JOBS, one per core).
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check:
	+@$(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) \
	    check-build
	NQ_QUICK=1 NQ_CLI=$(CLI) NQ_DATA=tests/data NQ_OBJ=$(BUILD)/obj $(TEST_ENV_PYTHON) \
	    NQ_OPEN_SWAP=$(OPEN_SWAP) NQ_BENCH_DIR=$(BUILD) $(TEST_ENV_MPI) $(TEST_ENV_CUDA) \
	    $(TEST_ENV_OPENCL) $(TESTS) $(T)

check-build: $(CLI) $(MAN_ALL) $(MO_ALL) $(TESTS) $(OPEN_SWAP) $(TEST_MPI) $(TEST_CUDA) $(TEST_OPENCL) $(TEST_PYTHON) \
    $(CHECK_BENCH_BINS)

# Line coverage of src/ and programs/ by the whole suite (gcov), printed
# last (the back-ends' rooms are not in this build); below
# COVERAGE_FLOOR percent it fails, and CI runs it.
COVERAGE_FLOOR ?= 92
coverage:
	rm -rf build/coverage
	$(MAKE) BUILD=build/coverage OPT=-O1 SAN=--coverage test
	sh mk/coverage.sh build/coverage $(COVERAGE_FLOOR)

# libFuzzer (clang) on the journal reader, count's argument parser, the
# request and nq_journal_verify's options, each for FUZZ_SECONDS from its
# committed corpus (fuzz/corpus/*), with AddressSanitizer and UBSan; a
# crash, a leak or a broken invariant fails.
# New inputs found go to build/fuzz/corpus-*, not into the repository.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 30
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_BUILD   := build/fuzz
fuzz:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPT=-O1 \
	    SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(FUZZ_BUILD)/nqueens
	for t in journal args request verify; do \
	    $(FUZZ_CC) -Iinclude -DNQ_ADVANCED_API -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer \
	        fuzz/fuzz_$$t.c $(filter-out %/dispatch.o,$(CLI_BODY_OBJ:$(BUILD)/%=$(FUZZ_BUILD)/%)) \
	        $(FUZZ_BUILD)/libnqueens.a -lpthread -o $(FUZZ_BUILD)/fuzz_$$t && \
	    mkdir -p $(FUZZ_BUILD)/corpus-$$t && \
	    $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
	        -print_final_stats=1 -close_fd_mask=3 \
	        $(FUZZ_BUILD)/corpus-$$t fuzz/corpus/$$t \
	        || exit 1; \
	done

asan:
	$(MAKE) BUILD=build/asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" test

bench: $(BENCH)
	$(BENCH)

bench-fast: $(BENCH_FAST)
	$(BENCH_FAST)

# fast beside another counter (PEER: its command line, for a counter
# built for one N such as Kluev's: its threads are its own), taking turns
# in rounds; its output must hold the same total.  Each kernel's time
# against it, round by round, is the figure for bench/RESULTS.md.  PEER
# reaches the recipe through the environment, quotes and all.
bench-peer: export PEER := $(PEER)
bench-peer: $(BENCH_FAST)
	@test -n "$$PEER" || { echo "make bench-peer: PEER='COMMAND' names the other counter" >&2; exit 2; }
	$(BENCH_FAST) --from $(or $(N),18) --to $(or $(N),18) --threads $(or $(THREADS),2) \
	    --rounds $(or $(ROUNDS),9) $(if $(PEER_KERNELS),--kernels $(PEER_KERNELS)) --peer "$$PEER"

# The cost per solution at record sizes (N = 21..23) on bench/record/'s
# fixed sample, each part checked against its journal; KERNELS=a,b picks
# the kernels (default: every vector kernel this CPU runs), THREADS=T.
bench-record: $(BENCH_RECORD)
	$(BENCH_RECORD) --threads $(or $(THREADS),0) $(if $(KERNELS),--kernels $(KERNELS))

# How even the GPU's sub-units are, at N = 18 (N=.. for another board).
bench-subunits: $(BENCH_SUBUNITS)
	$(BENCH_SUBUNITS) $(or $(N),18)

# How often fast's search meets the same bottom state, N = 14..17
# (doc/bottom-states.md).
bench-bottom: $(BENCH_BOTTOM)
	for n in 14 15 16 17; do $(BENCH_BOTTOM) $$n; echo; done

# fast's nodes with the line to fill chosen in board order, by the fewest
# open squares, by the fewest places (bench/RESULTS.md).
bench-order: $(BENCH_ORDER)
	for n in 14 15 16; do $(BENCH_ORDER) $$n; echo; done

# The reference core's rate on this machine (one thread), then the cut
# of N = 24..28 at the default bound on every core (N = 28: minutes).
bench-pieces: $(BENCH_PIECES)
	for n in 16 17 18; do $(BENCH_PIECES) rate $$n; done
	$(BENCH_PIECES) rate 19 7; $(BENCH_PIECES) rate 20 7
	$(BENCH_PIECES) rate 21 97; $(BENCH_PIECES) rate 22 401
	for n in 24 25 26 27 28; do $(BENCH_PIECES) cut $$n; done

# The GPU engines (those built here: nvcc, OpenCL) against fast, N =
# 16..22, as a Markdown table (a GPU needed; bench/gpu.sh).
BENCH_GPU_CUDA := $(if $(HAVE_NVCC),$(CUDA_BIN))
BENCH_GPU_OPENCL := $(if $(HAVE_OPENCL),$(OPENCL_BIN))
bench-gpu: $(BENCH_GPU_CUDA) $(BENCH_GPU_OPENCL) $(CLI)
	NQ_CUDA=$(BENCH_GPU_CUDA) NQ_OPENCL=$(BENCH_GPU_OPENCL) NQ_CLI=$(CLI) \
	    sh bench/gpu.sh

# nqueens estimate against the counts it estimates, N = 18..21 (FROM,
# TO; THREADS), side by side (bench/estimate.sh; N = 21 counts for
# minutes: run it on a quiet machine).
# nqueens-mpi's scheduler (src/parallel/schedule.c) on a simulated
# cluster of 10 to 10,000 nodes of 32 threads, N = 24..28, beside the rule
# it replaced (bench/sim_cluster.c; SIM='--from 16 --to 18' and the like
# for other cases; minutes at full size).
sim-cluster: $(SIM_CLUSTER)
	$(SIM_CLUSTER) --old --check $(SIM)

bench-estimate: $(CLI)
	NQ_CLI=$(CLI) THREADS=$(or $(THREADS),0) sh bench/estimate.sh $(or $(FROM),18) $(or $(TO),21)

# merge at a record run's scale: JOURNALS (100000) small journals of a
# count of N (12) made by nq-bench-merge-gen, merged with --list, at once
# and staged in groups of GROUP (100), and by BEFORE (another build's
# nqueens, e.g. main's) side by side, its journals as arguments
# (bench/merge_scale.sh).
bench-merge: $(CLI) $(BENCH_MERGE_GEN)
	NQ_CLI=$(CLI) NQ_GEN=$(BENCH_MERGE_GEN) BEFORE=$(BEFORE) \
	    sh bench/merge_scale.sh $(or $(JOURNALS),100000) $(or $(N),12) $(or $(GROUP),100)

# What each part of a job array pays before its first unit: PARTS (200)
# processes of count N --part K/PARTS --max-units 1 (N = 20), and BEFORE's
# side by side (bench/part_cost.sh).
bench-parts: $(CLI)
	NQ_CLI=$(CLI) BEFORE=$(BEFORE) sh bench/part_cost.sh $(or $(PARTS),200) $(or $(N),20)

# make install, uninstall, the shared library, pkg-config, man page and
# completion: mk/install.mk.
-include mk/install.mk

# make wasm: the lesson page, build/nqueens.html (emscripten): mk/wasm.mk.
include mk/wasm.mk
# make npm: the npm package from the WebAssembly build: mk/npm.mk.
include mk/npm.mk

clean:
	rm -rf $(BUILD) build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) \
    $(MPI_OBJ:.o=.d) $(CUDA_MAIN_OBJ:.o=.d) $(OPENCL_OBJ:.o=.d) \
    $(OPENCL_MAIN_OBJ:.o=.d)
