# mk/python.mk - make python: the Python module nqueens (bindings/python),
# built into $(BUILD)/python, where PYTHONPATH finds it:
#   PYTHONPATH=build/python python3 -c 'import nqueens; print(nqueens.count(12))'
# The extension is compiled here by $(CC) with the project's warnings and
# linked with the static library (its symbols hidden), so that it needs
# no setuptools, pip or network; bindings/python/setup.py builds the same
# for pip.  PYTHON names the interpreter (its headers: Debian's
# python3-dev).  Without Python.h, make test skips the module's tests.
# Not in the sanitizer or coverage builds: Python loads the module without
# their runtimes.

# Debian's own interpreter where there is one: the packages .ci/run
# installs (python3-dev, pytest, Jupyter) are its, whatever python3 comes
# first on PATH (a pyenv's, say).
PYTHON     ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
PY_SRC_DIR := bindings/python
PY_DIR     := $(BUILD)/python
PY_PKG     := $(PY_DIR)/nqueens
ifeq ($(SAN),)
PY_INCLUDE := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
HAVE_PYTHON_DEV := $(if $(PY_INCLUDE),$(wildcard $(PY_INCLUDE)/Python.h))
endif
PY_EXT_SUFFIX := $(if $(HAVE_PYTHON_DEV),$(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))'))
PY_EXT     := $(PY_PKG)/_nqueens$(PY_EXT_SUFFIX)
PY_FILES   := $(patsubst $(PY_SRC_DIR)/nqueens/%,$(PY_PKG)/%,\
                $(wildcard $(PY_SRC_DIR)/nqueens/*.py $(PY_SRC_DIR)/nqueens/*.pyi) \
                $(PY_SRC_DIR)/nqueens/py.typed) $(PY_PKG)/lesson.html

ifneq ($(HAVE_PYTHON_DEV),)
TEST_PYTHON := $(PY_EXT) $(PY_FILES)
TEST_ENV_PYTHON := NQ_PYTHON=$(PYTHON) NQ_PYTHONPATH=$(PY_DIR)
python: $(PY_EXT) $(PY_FILES)
else
python:
	@echo 'make python: $(PYTHON) has no Python.h (Debian: python3-dev)$(if $(SAN),; not in a sanitizer or coverage build)' >&2; exit 1
endif

$(PY_EXT): $(PY_SRC_DIR)/src/_nqueens.c include/nqueens.h $(LIB) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -DNQ_ADVANCED_API -I$(PY_INCLUDE) $(ALL_CFLAGS) $(LDFLAGS) -shared \
	    $< $(LIB) -Wl,--exclude-libs,ALL $(LDLIBS) -o $@.tmp
	mv $@.tmp $@

$(PY_PKG)/%: $(PY_SRC_DIR)/nqueens/%
	@mkdir -p $(dir $@)
	cp $< $@

# The lesson page, the built one kept in the repository, beside the
# module: nqueens.lesson() shows it in a notebook.
$(PY_PKG)/lesson.html: web/lesson.html
	@mkdir -p $(dir $@)
	cp $< $@

# count(17) from Python beside nqueens count 17, in rounds
# (bench/bench_python.py; ROUNDS, N).
bench-python: python $(CLI)
	PYTHONPATH=$(PY_DIR) $(PYTHON) bench/bench_python.py --cli $(CLI) \
	    --n $(or $(N),17) --rounds $(or $(ROUNDS),7)
