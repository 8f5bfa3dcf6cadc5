# mk/wasm.mk - make wasm: the library and the command line compiled to
# WebAssembly by emscripten (Debian's emscripten), and the lesson page,
# one self-contained HTML file that runs them (build/nqueens.html).
# Optional, as make cuda is: the default build never needs emcc.
#
# Two builds of the same sources, each one module (SINGLE_FILE: the
# WebAssembly inside the JavaScript as base64, so a page opened from
# file:// needs no fetch, which file:// refuses):
#   scalar  plain WebAssembly: every browser with WebAssembly
#   simd    with WebAssembly SIMD (-msimd128): the fast engine's vector
#           kernel; the page takes it where the browser validates SIMD
# Each module is also the command line under node:
#   node build/wasm/simd/nqueens.js count 16
# There are no threads (a page from file:// has no SharedArrayBuffer):
# the library counts on the calling thread (NQ_NO_THREADS, core.h).

EMCC       ?= emcc
WASM_BUILD := $(BUILD)/wasm
WASM_PAGE  := $(BUILD)/nqueens.html
WASM_FLAVOURS := scalar simd
WASM_CFLAGS_scalar :=
WASM_CFLAGS_simd   := -msimd128
# The fast engine's kernels in each build (frontier_vec.c once a kernel,
# as for the native build).
WASM_KERNELS_scalar := scalar_32
WASM_KERNELS_simd   := scalar_32 simd128_16 simd128_32
WASM_CPPFLAGS := -Iinclude -DNQ_ADVANCED_API -MMD -MP
WASM_OPT   ?= -O3
WASM_COMPILE = $(EMCC) $(WASM_CPPFLAGS) -std=gnu11 -Wall -Wextra $(WASM_OPT)
# The page's own C (programs/web/): what its script calls.
WASM_WEB_SRC := $(wildcard programs/web/*.c)
WASM_SRC   := $(LIB_SRC) $(filter-out programs/nqueens_main.c,$(CLI_SRC)) \
              programs/nqueens_main.c $(WASM_WEB_SRC)
# What the page's script calls besides main (programs/web/web.c).
WASM_EXPORTS := _main,_malloc,_free,_nqw_engines,_nqw_walk,_nqw_count,_nqw_class,_nqw_images,_nqw_complete
WASM_LDFLAGS := -sALLOW_MEMORY_GROWTH=1 -sSINGLE_FILE=1 \
    -sENVIRONMENT=web,worker,node -sEXPORTED_FUNCTIONS=$(WASM_EXPORTS) \
    -sEXPORTED_RUNTIME_METHODS=callMain,ccall,cwrap,UTF8ToString
# emscripten's JavaScript tools need Debian's node modules (acorn).
WASM_ENV   := NODE_PATH=$(or $(NODE_PATH),/usr/share/nodejs)

wasm_obj = $(patsubst %.c,$(WASM_BUILD)/$(1)/obj/%.o,$(WASM_SRC)) \
    $(WASM_BUILD)/$(1)/obj/programs/trace/trace_page.o \
    $(patsubst %,$(WASM_BUILD)/$(1)/obj/src/search/frontier_%.o,$(WASM_KERNELS_$(1)))

define wasm_flavour
$(WASM_BUILD)/$(1)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $$(dir $$@)
	$(WASM_ENV) $(WASM_COMPILE) $(WASM_CFLAGS_$(1)) -c $$< -o $$@

$(WASM_BUILD)/$(1)/obj/programs/trace/trace_page.o: $(PAGE_SRC)
	@mkdir -p $$(dir $$@)
	$(WASM_ENV) $(WASM_COMPILE) $(WASM_CFLAGS_$(1)) -c $$< -o $$@

$(patsubst %,$(WASM_BUILD)/$(1)/obj/src/search/frontier_%.o,$(WASM_KERNELS_$(1))): \
    $(WASM_BUILD)/$(1)/obj/src/search/frontier_%.o: src/search/frontier_vec.c $(FLAGS_STAMP)
	@mkdir -p $$(dir $$@)
	$(WASM_ENV) $(WASM_COMPILE) $(WASM_CFLAGS_$(1)) -DNQ_KERNEL=$$(call kernel_set,$$*) \
	    -DNQ_ISA_$$(call kernel_set,$$*) -DNQ_LANE_BITS=$$(call kernel_bits,$$*) -c $$< -o $$@

$(WASM_BUILD)/$(1)/nqueens.js: $(call wasm_obj,$(1))
	$(WASM_ENV) $(EMCC) $(WASM_OPT) $(WASM_CFLAGS_$(1)) $$^ $(WASM_LDFLAGS) -o $$@

-include $(patsubst %.o,%.d,$(call wasm_obj,$(1)))
endef
$(foreach f,$(WASM_FLAVOURS),$(eval $(call wasm_flavour,$(f))))

WASM_MODULES := $(WASM_FLAVOURS:%=$(WASM_BUILD)/%/nqueens.js)

# The page: the trace page's template with the lesson's parts and both
# modules put in (mk/webpage.sh), written to a temporary file first.
WASM_PAGE_PARTS := programs/trace/trace_page.html $(wildcard programs/web/*.html programs/web/*.js)
$(WASM_PAGE): $(WASM_PAGE_PARTS) $(WASM_MODULES) mk/webpage.sh
	sh mk/webpage.sh programs/trace/trace_page.html programs/web $(WASM_MODULES) > $@.tmp
	mv $@.tmp $@

ifneq ($(shell command -v $(EMCC) 2>/dev/null),)
wasm: $(WASM_PAGE) $(WASM_MODULES)
else
wasm:
	@echo 'make wasm: no $(EMCC) on PATH (Debian: apt-get install emscripten)' >&2; exit 1
endif

# make bench-wasm: both modules under node against this build, one
# thread, taking turns in rounds (ROUNDS, default 5): fast with each
# kernel at N = 14..17 (FROM=, TO=) and the teaching engines (ENGINES=
# 'engine:N ...'), the wasm time over the native time of each, every
# total checked against OEIS (bench/wasm.sh; about 2 minutes); then fast
# at N = 16 in the lesson page itself, in headless Chromium, against the
# native 128-bit kernel (bench/wasm_page.mjs; where chromium is).
ifneq ($(shell command -v $(EMCC) 2>/dev/null),)
bench-wasm: $(WASM_MODULES) $(WASM_PAGE) $(CLI)
	NQ_CLI=$(CLI) NQ_WASM_SCALAR=$(WASM_BUILD)/scalar/nqueens.js \
	    NQ_WASM_SIMD=$(WASM_BUILD)/simd/nqueens.js sh bench/wasm.sh $(or $(FROM),14) $(or $(TO),17)
	@chromium=$$(command -v chromium || command -v chromium-browser) || \
	    { echo 'bench-wasm: no chromium: the page is not timed (tests/browser-setup.sh)'; exit 0; }; \
	    node bench/wasm_page.mjs --page $(WASM_PAGE) --cli $(CLI) --chromium "$$chromium" \
	        --oeis tests/data/oeis.tsv --rounds $(or $(ROUNDS),5)
else
bench-wasm:
	@echo 'make bench-wasm: no $(EMCC) on PATH (Debian: apt-get install emscripten)' >&2; exit 1
endif

# web/lesson.html: the lesson page kept in the repository, so that a
# teacher without emscripten opens the lesson from a checkout or a
# release archive (a browser and this one file; nothing else).  It is
# build/nqueens.html byte for byte, and tests/test_lesson.c's
# lesson/kept-page fails wherever emcc builds a page that differs from
# it: whoever changes what the page is built from (the page's parts, the
# library, the command line) refreshes it with `make lesson-page` in the
# same commit, so it never goes stale.  Chosen over building it in CI
# and publishing it elsewhere: the repository is what a teacher is sent.
LESSON_KEPT := web/lesson.html
ifneq ($(shell command -v $(EMCC) 2>/dev/null),)
lesson-page: $(WASM_PAGE)
	@mkdir -p $(dir $(LESSON_KEPT))
	cp $(WASM_PAGE) $(LESSON_KEPT)
else
lesson-page:
	@echo 'make lesson-page: no $(EMCC) on PATH (Debian: apt-get install emscripten)' >&2; exit 1
endif
.PHONY: lesson-page
