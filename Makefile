# nqueens - plain GNU make.
#
#   make            build/nqueens and build/libnqueens.a
#   make run        the main job: nqueens count 4-16
#   make test       build and run the whole test suite
#   make asan       the same tests under AddressSanitizer + UBSan
#   make test-avx2  the tests again with the AVX2 kernel (build/avx2)
#   make bench      engine x N timing table
#   make bench-fast the counting engines at N = 15..18, fast to N = 20
#   make mpi        build/nqueens-mpi, with OpenMPI's mpicc
#   make cuda       build/nqueens-cuda (engine cuda), with nvcc
#
# PORTABLE=1 builds without -march=native (the scalar kernel on x86);
# ARCH=-march=x86-64-v3 builds for any CPU with AVX2 (the 8-lane kernel).

BUILD    ?= build
CC       ?= cc
OPT      ?= -O3
SAN      ?=
ifeq ($(PORTABLE),1)
ARCH     ?=
else
ARCH     ?= -march=native
endif
CFLAGS   ?= $(OPT) $(ARCH) -g
WARN     := -std=gnu11 -Wall -Wextra
CPPFLAGS := -Iinclude -MMD -MP
LDLIBS   := -lpthread
ALL_CFLAGS = $(WARN) $(CFLAGS) $(SAN)

MPI_SRC  := src/parallel/mpi.c src/api/mpi_count.c src/cli/mpi_main.c
LIB_SRC  := $(filter-out $(MPI_SRC),$(wildcard src/core/*.c src/engines/*.c src/parallel/*.c src/api/*.c))
CLI_SRC  := $(filter-out $(MPI_SRC),$(wildcard src/cli/*.c))
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC := bench/bench.c bench/bench_fast.c

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)

MPI_OBJ  := $(MPI_SRC:%.c=$(BUILD)/obj/mpi/%.o)

LIB      := $(BUILD)/libnqueens.a
CLI      := $(BUILD)/nqueens
TESTS    := $(BUILD)/nq-tests
BENCH    := $(BUILD)/nq-bench
BENCH_FAST := $(BUILD)/nq-bench-fast
MPI_BIN  := $(BUILD)/nqueens-mpi
MPICC    ?= mpicc
CUDA_BIN := $(BUILD)/nqueens-cuda
NVCC     ?= nvcc
CUDA_ARCH ?= sm_90
CUDA_OBJ := $(BUILD)/obj/cuda/cuda.o $(BUILD)/obj/cuda/registry.o

# With mpirun on the machine, `make test` builds nqueens-mpi and runs the
# MPI tests too (the sanitizer build leaves them out: OpenMPI's own
# allocations trip LeakSanitizer).
ifneq ($(SAN),)
HAVE_MPI :=
else
HAVE_MPI := $(shell command -v mpirun 2>/dev/null)
endif
ifneq ($(HAVE_MPI),)
TEST_MPI := $(MPI_BIN)
TEST_ENV_MPI := NQ_MPI=$(MPI_BIN)
endif

.PHONY: all run test asan test-avx2 bench bench-fast mpi cuda clean
all: $(CLI) $(LIB)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/obj/mpi/%.o: %.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(CLI_OBJ) $(LIB) $(LDLIBS) -o $@

$(TESTS): $(TEST_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(TEST_OBJ) $(LIB) $(LDLIBS) -o $@

$(BENCH): $(BUILD)/obj/bench/bench.o $(LIB)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(LDLIBS) -o $@

$(BENCH_FAST): $(BUILD)/obj/bench/bench_fast.o $(LIB)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(LDLIBS) -o $@

$(MPI_BIN): $(MPI_OBJ) $(filter-out %/main.o,$(CLI_OBJ)) $(LIB)
	$(MPICC) $(ALL_CFLAGS) $^ $(LDLIBS) -o $@

mpi: $(MPI_BIN)

# The CUDA build: the registry recompiled to list engine cuda, the kernel
# by nvcc, linked with the rest of the library and CLI.
$(BUILD)/obj/cuda/cuda.o: src/gpu/cuda.cu $(wildcard src/gpu/*.h src/engines/*.h)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -std=c++20 -arch=$(CUDA_ARCH) -Iinclude -c $< -o $@

$(BUILD)/obj/cuda/registry.o: src/engines/registry.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DNQ_WITH_CUDA -c $< -o $@

$(CUDA_BIN): $(CUDA_OBJ) $(CLI_OBJ) $(filter-out %/registry.o,$(LIB_OBJ))
	$(NVCC) -arch=$(CUDA_ARCH) $^ -lpthread -o $@

cuda: $(CUDA_BIN)

run: $(CLI)
	$(CLI) count 4-16

test: $(CLI) $(TESTS) $(TEST_MPI)
	NQ_CLI=$(CLI) NQ_DATA=tests/data NQ_OBJ=$(BUILD)/obj $(TEST_ENV_MPI) $(TESTS) $(T)

asan:
	$(MAKE) BUILD=build/asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" test

# -march=native takes AVX-512 where the CPU has it, which would leave the
# AVX2 form of the kernel untested on such machines.
test-avx2:
	@if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then \
	    $(MAKE) BUILD=build/avx2 ARCH=-march=x86-64-v3 test; \
	else echo "skip test-avx2: this CPU has no AVX2"; fi

bench: $(BENCH)
	$(BENCH)

bench-fast: $(BENCH_FAST)
	$(BENCH_FAST)

clean:
	rm -rf $(BUILD) build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) \
    $(MPI_OBJ:.o=.d)
