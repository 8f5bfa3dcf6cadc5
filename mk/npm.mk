# mk/npm.mk - make npm: the npm package (bindings/js/), built from the
# WebAssembly build's objects (mk/wasm.mk; included after it) and packed
# by `npm pack` into $(BUILD)/nqueens-VERSION.tgz.  Optional, as make
# wasm is: it needs emcc, and npm to pack.
#
# The package's two modules link the same objects as make wasm's two
# flavours (scalar, simd), less the lesson page's C (programs/web), plus
# the package's own (bindings/js/c/nqjs.c), with other link flags: an ES
# module whose default export makes an instance (MODULARIZE, EXPORT_ES6),
# so that a worker can import it by URL in node and in a page alike; the
# WebAssembly inside it (SINGLE_FILE), so that the package needs no
# bundler or server setting to find a .wasm file, at a third more bytes.
# The lesson page's modules and their flags are left as they are (its
# kept copy, web/lesson.html, must stay byte for byte what emcc builds).
NPM_BUILD   := $(BUILD)/npm
NPM_STAGE   := $(NPM_BUILD)/package
NPM_TARBALL := $(BUILD)/nqueens-$(NQ_VERSION).tgz
NPM_FILES   := package.json nqueens.mjs nqueens.d.ts worker.mjs README.md
NPM_EXPORTS := _main,_nqjs_count
NPM_LDFLAGS := -sALLOW_MEMORY_GROWTH=1 -sSINGLE_FILE=1 -sMODULARIZE=1 \
    -sEXPORT_ES6=1 -sEXPORT_NAME=createNQueens -sENVIRONMENT=web,worker,node \
    -sINVOKE_RUN=0 -sEXPORTED_FUNCTIONS=$(NPM_EXPORTS) \
    -sEXPORTED_RUNTIME_METHODS=callMain,ccall

define npm_flavour
$(NPM_BUILD)/$(1)/nqjs.o: bindings/js/c/nqjs.c $(FLAGS_STAMP)
	@mkdir -p $$(dir $$@)
	$(WASM_ENV) $(WASM_COMPILE) $(WASM_CFLAGS_$(1)) -c $$< -o $$@

$(NPM_STAGE)/wasm/nqueens-$(1).mjs: $(filter-out $(WASM_BUILD)/$(1)/obj/programs/web/%,\
    $(call wasm_obj,$(1))) $(NPM_BUILD)/$(1)/nqjs.o
	@mkdir -p $$(dir $$@)
	$(WASM_ENV) $(EMCC) $(WASM_OPT) $(WASM_CFLAGS_$(1)) $$^ $(NPM_LDFLAGS) -o $$@

-include $(NPM_BUILD)/$(1)/nqjs.d
endef
$(foreach f,$(WASM_FLAVOURS),$(eval $(call npm_flavour,$(f))))

NPM_MODULES := $(WASM_FLAVOURS:%=$(NPM_STAGE)/wasm/nqueens-%.mjs)

# The package's files staged beside the modules, the version the
# library's (mk/install.mk), then packed; the tarball written last, so a
# failed pack leaves none behind.
$(NPM_TARBALL): $(NPM_FILES:%=bindings/js/%) LICENSE $(NPM_MODULES)
	$(nq_version_check)
	cp $(NPM_FILES:%=bindings/js/%) LICENSE $(NPM_STAGE)/
	sed 's/"version": "[^"]*"/"version": "$(NQ_VERSION)"/' bindings/js/package.json \
	    > $(NPM_STAGE)/package.json
	rm -f $@
	cd $(NPM_STAGE) && npm pack --silent --pack-destination $(abspath $(BUILD)) >/dev/null

ifneq ($(shell command -v $(EMCC) 2>/dev/null),)
npm: $(NPM_TARBALL)
else
npm:
	@echo 'make npm: no $(EMCC) on PATH (Debian: apt-get install emscripten)' >&2; exit 1
endif
.PHONY: npm
