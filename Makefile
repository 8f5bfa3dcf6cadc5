# nqueens - plain GNU make.
#
#   make            build/nqueens and build/libnqueens.a
#   make run        the main job: nqueens count 4-16
#   make test       build and run the whole test suite
#   make asan       the same tests under AddressSanitizer + UBSan
#   make bench      engine x N timing table
#   make bench-fast the counting engines at N = 15..18, fast to N = 20
#
# PORTABLE=1 builds without -march=native.

BUILD    ?= build
CC       ?= cc
OPT      ?= -O3
SAN      ?=
ifeq ($(PORTABLE),1)
ARCH     :=
else
ARCH     := -march=native
endif
CFLAGS   ?= $(OPT) $(ARCH) -g
WARN     := -std=gnu11 -Wall -Wextra
CPPFLAGS := -Iinclude -MMD -MP
LDLIBS   := -lpthread
ALL_CFLAGS = $(WARN) $(CFLAGS) $(SAN)

LIB_SRC  := $(wildcard src/core/*.c src/engines/*.c src/parallel/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC := bench/bench.c bench/bench_fast.c

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)

LIB      := $(BUILD)/libnqueens.a
CLI      := $(BUILD)/nqueens
TESTS    := $(BUILD)/nq-tests
BENCH    := $(BUILD)/nq-bench
BENCH_FAST := $(BUILD)/nq-bench-fast

.PHONY: all run test asan bench bench-fast clean
all: $(CLI) $(LIB)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

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

run: $(CLI)
	$(CLI) count 4-16

test: $(CLI) $(TESTS)
	NQ_CLI=$(CLI) NQ_DATA=tests/data $(TESTS)

asan:
	$(MAKE) BUILD=build/asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" test

bench: $(BENCH)
	$(BENCH)

bench-fast: $(BENCH_FAST)
	$(BENCH_FAST)

clean:
	rm -rf $(BUILD) build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BENCH_OBJ:.o=.d)
