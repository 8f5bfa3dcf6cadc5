# mk/install.mk - the shared library, make install and make uninstall.
# Included by the Makefile; uses its BUILD, LIB, LIB_OBJ, CLI, MPI_BIN,
# MPI_LIB, CUDA_BIN, CUDA_LIB, CUDA_LIBDIR, OPENCL_BIN, OPENCL_LIB, CC,
# ALL_CFLAGS, LDFLAGS and LDLIBS.
#
#   make shared      $(BUILD)/libnqueens.so.ABI.VERSION and its two links
#   make install     everything below under $(DESTDIR)$(prefix)
#   make install-strip   the same, programs stripped
#   make uninstall   remove exactly the files install wrote
#
# GNU conventions: prefix (default /usr/local; PREFIX is accepted too, so
# `make install PREFIX=/usr` works), exec_prefix, bindir, libdir,
# includedir, datarootdir, mandir, man1dir, plus pkgconfigdir and
# bashcompdir; DESTDIR stages the whole tree elsewhere (for packages):
#
#   make install DESTDIR=/tmp/stage PREFIX=/usr
#
# Installed:
#   $(bindir)/nqueens            (and nqueens-mpi, nqueens-cuda,
#                                nqueens-opencl where `make mpi`, `make
#                                cuda`, `make opencl` built them)
#   $(libdir)/libnqueens.a
#   $(libdir)/libnqueens.so.ABI.VERSION (libnqueens.so.1.0.4.0), .so.ABI
#                                (the soname), .so
#   $(includedir)/nqueens.h
#   and where `make mpi` built them: $(libdir)/libnqueens-mpi.a,
#   $(includedir)/nqueens_mpi.h, $(pkgconfigdir)/nqueens-mpi.pc
#   and where `make cuda` built them: $(libdir)/libnqueens-cuda.a,
#   $(includedir)/nqueens_cuda.h, $(pkgconfigdir)/nqueens-cuda.pc (which
#   names the CUDA runtime's directory of the build machine)
#   and where `make opencl` (or make test) built them:
#   $(libdir)/libnqueens-opencl.a, $(includedir)/nqueens_opencl.h,
#   $(pkgconfigdir)/nqueens-opencl.pc
#   $(pkgconfigdir)/nqueens.pc
#   $(man1dir)/nqueens.1         (built by make, $(MAN); not in a cross
#                                build)
#   $(bashcompdir)/nqueens       (bash completion)
#   $(localedir)/LANG/LC_MESSAGES/nqueens.mo  (each language of
#                                po/LINGUAS, where msgfmt built it)

# The version has one source: NQ_VERSION_MAJOR, _MINOR and _PATCH in
# include/nqueens.h; so has the soname's number, NQ_ABI_VERSION, which
# counts the releases that broke the stable ABI (doc/abi.md).
nq_header_number = $(shell sed -n 's/^\#define  *NQ_$(1)  *\([0-9][0-9]*\) *$$/\1/p' include/nqueens.h)
nq_version_part = $(call nq_header_number,VERSION_$(1))
NQ_VERSION_MAJOR := $(call nq_version_part,MAJOR)
NQ_VERSION_MINOR := $(call nq_version_part,MINOR)
NQ_VERSION_PATCH := $(call nq_version_part,PATCH)
NQ_VERSION := $(NQ_VERSION_MAJOR).$(NQ_VERSION_MINOR).$(NQ_VERSION_PATCH)
NQ_ABI := $(call nq_header_number,ABI_VERSION)
nq_version_check = @test -n '$(NQ_VERSION_MAJOR)' -a -n '$(NQ_VERSION_MINOR)' -a -n '$(NQ_VERSION_PATCH)' -a -n '$(NQ_ABI)' || { echo 'mk/install.mk: \
    no NQ_VERSION_MAJOR, _MINOR, _PATCH and NQ_ABI_VERSION in include/nqueens.h' >&2; \
    exit 1; }

PREFIX       ?= /usr/local
prefix       ?= $(PREFIX)
exec_prefix  ?= $(prefix)
bindir       ?= $(exec_prefix)/bin
libdir       ?= $(exec_prefix)/lib
includedir   ?= $(prefix)/include
datarootdir  ?= $(prefix)/share
mandir       ?= $(datarootdir)/man
man1dir      ?= $(mandir)/man1
pkgconfigdir ?= $(libdir)/pkgconfig
bashcompdir  ?= $(datarootdir)/bash-completion/completions
# The program looks for its catalogues in ../share/locale beside itself
# (programs/i18n.c): with another bindir or localedir, it falls back to
# the system's share/locale.
localedir    ?= $(datarootdir)/locale
DESTDIR      ?=

INSTALL         ?= install
INSTALL_PROGRAM ?= $(INSTALL)
INSTALL_DATA    ?= $(INSTALL) -m 644

# The soname counts ABI breaks (libnqueens.so.1 from 0.4.0), not the
# release; the file's name carries both, soname number then release.
SHLIB_SONAME := libnqueens.so.$(NQ_ABI)
SHLIB_REAL   := libnqueens.so.$(NQ_ABI).$(NQ_VERSION)
SHLIB        := $(BUILD)/$(SHLIB_REAL)
SHLIB_LINKS  := $(BUILD)/$(SHLIB_SONAME) $(BUILD)/libnqueens.so
SHLIB_MAP    := $(BUILD)/libnqueens.map
# The symbol versions: the stable API's node lives as long as the soname;
# the advanced API's is named for the minor release, so that a program
# built against one release's advanced API fails to load against
# another's (its layouts may differ) instead of running wrongly.
SHLIB_STABLE_NODE   := NQUEENS_$(NQ_ABI)
SHLIB_ADVANCED_NODE := NQUEENS_ADVANCED_$(NQ_VERSION_MAJOR).$(NQ_VERSION_MINOR)

.PHONY: shared install install-strip installdirs uninstall

shared: $(SHLIB) $(SHLIB_LINKS)

# The functions of the header's lines on stdin, those that declare one (a
# line that starts with its type; comments start with a space or a
# slash), one "name;" a line.
nq_declared = sed -n 's/^[a-z].*[ *]\(nq_[a-z0-9_]*\)(.*/    \1;/p' | sort -u

# Only the functions of the public header are exported, each part under
# its node: the library's internal nq_* functions stay out of the ABI.
$(SHLIB_MAP): include/nqueens.h mk/install.mk
	$(nq_version_check)
	@mkdir -p $(dir $@)
	{ echo '$(SHLIB_STABLE_NODE) { global:'; \
	  sed -n '1,/^#ifdef NQ_ADVANCED_API/p' include/nqueens.h | $(nq_declared); \
	  echo '  local: *; };'; \
	  echo '$(SHLIB_ADVANCED_NODE) { global:'; \
	  sed -n '/^#ifdef NQ_ADVANCED_API/,$$p' include/nqueens.h | $(nq_declared); \
	  echo '} $(SHLIB_STABLE_NODE);'; } > $@

$(SHLIB): $(LIB_OBJ) $(SHLIB_MAP)
	$(nq_version_check)
	$(CC) -shared $(ALL_CFLAGS) $(LDFLAGS) -Wl,-soname,$(SHLIB_SONAME) \
	    -Wl,--version-script,$(SHLIB_MAP) $(LIB_OBJ) $(LDLIBS) -o $@

$(SHLIB_LINKS): $(SHLIB)
	ln -sf $(SHLIB_REAL) $@

# The pkg-config file is written by install itself, for the prefix and
# directories of that install, so that install writes nothing into
# $(BUILD) after a plain make; the man page is make's, with the version
# (the Makefile, $(MAN)).
# libdir and includedir are written relative to ${prefix} where they lie
# under it, so that pkg-config --define-variable=prefix=... relocates them.
pc_exec_prefix = $(patsubst $(prefix)%,$${prefix}%,$(exec_prefix))
pc_libdir      = $(patsubst $(exec_prefix)%,$${exec_prefix}%,$(libdir))
pc_includedir  = $(patsubst $(prefix)%,$${prefix}%,$(includedir))

# mk/NAME.pc.in with the directories and version put in, installed.
nq_install_pc = sed -e 's|@prefix@|$(prefix)|g' \
	    -e 's|@exec_prefix@|$(pc_exec_prefix)|g' \
	    -e 's|@libdir@|$(pc_libdir)|g' \
	    -e 's|@includedir@|$(pc_includedir)|g' \
	    -e 's|@version@|$(NQ_VERSION)|g' \
	    -e 's|@cudalibdir@|$(CUDA_LIBDIR)|g' mk/$(1).pc.in \
	    > '$(DESTDIR)$(pkgconfigdir)/$(1).pc' && \
	chmod 644 '$(DESTDIR)$(pkgconfigdir)/$(1).pc'

installdirs:
	$(INSTALL) -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(libdir)' \
	    '$(DESTDIR)$(includedir)' '$(DESTDIR)$(pkgconfigdir)' \
	    '$(DESTDIR)$(man1dir)' '$(DESTDIR)$(bashcompdir)'

install: $(CLI) $(LIB) shared $(MAN_ALL) $(MO_ALL) installdirs
	$(nq_version_check)
	$(INSTALL_PROGRAM) $(CLI) '$(DESTDIR)$(bindir)/nqueens'
	if [ -f $(MPI_BIN) ]; then \
	    $(INSTALL_PROGRAM) $(MPI_BIN) '$(DESTDIR)$(bindir)/nqueens-mpi'; fi
	if [ -f $(CUDA_BIN) ]; then \
	    $(INSTALL_PROGRAM) $(CUDA_BIN) '$(DESTDIR)$(bindir)/nqueens-cuda'; fi
	if [ -f $(OPENCL_BIN) ]; then \
	    $(INSTALL_PROGRAM) $(OPENCL_BIN) '$(DESTDIR)$(bindir)/nqueens-opencl'; fi
	$(INSTALL_DATA) $(LIB) '$(DESTDIR)$(libdir)/libnqueens.a'
	$(INSTALL_DATA) $(SHLIB) '$(DESTDIR)$(libdir)/$(SHLIB_REAL)'
	ln -sf $(SHLIB_REAL) '$(DESTDIR)$(libdir)/$(SHLIB_SONAME)'
	ln -sf $(SHLIB_REAL) '$(DESTDIR)$(libdir)/libnqueens.so'
	$(INSTALL_DATA) include/nqueens.h '$(DESTDIR)$(includedir)/'
	$(call nq_install_pc,nqueens)
	if [ -f $(MPI_LIB) ]; then \
	    $(INSTALL_DATA) $(MPI_LIB) '$(DESTDIR)$(libdir)/libnqueens-mpi.a' && \
	    $(INSTALL_DATA) include/nqueens_mpi.h '$(DESTDIR)$(includedir)/' && \
	    $(call nq_install_pc,nqueens-mpi); fi
	if [ -f $(CUDA_LIB) ]; then \
	    $(INSTALL_DATA) $(CUDA_LIB) '$(DESTDIR)$(libdir)/libnqueens-cuda.a' && \
	    $(INSTALL_DATA) include/nqueens_cuda.h '$(DESTDIR)$(includedir)/' && \
	    $(call nq_install_pc,nqueens-cuda); fi
	if [ -f $(OPENCL_LIB) ]; then \
	    $(INSTALL_DATA) $(OPENCL_LIB) '$(DESTDIR)$(libdir)/libnqueens-opencl.a' && \
	    $(INSTALL_DATA) include/nqueens_opencl.h '$(DESTDIR)$(includedir)/' && \
	    $(call nq_install_pc,nqueens-opencl); fi
	if [ -f $(MAN) ]; then \
	    $(INSTALL_DATA) $(MAN) '$(DESTDIR)$(man1dir)/nqueens.1'; else \
	    echo 'make install: no $(MAN) in a cross build (make it where' \
	        '$(CLI) runs)' >&2; fi
	$(INSTALL_DATA) completions/nqueens.bash '$(DESTDIR)$(bashcompdir)/nqueens'
	for lang in $(LINGUAS); do \
	    mo=$(BUILD)/locale/$$lang/LC_MESSAGES/nqueens.mo; \
	    [ -f $$mo ] || continue; \
	    $(INSTALL) -d '$(DESTDIR)$(localedir)/'$$lang/LC_MESSAGES && \
	    $(INSTALL_DATA) $$mo '$(DESTDIR)$(localedir)/'$$lang/LC_MESSAGES/nqueens.mo || exit 1; \
	done
	@if [ -z '$(DESTDIR)' ]; then $(nq_ldconfig); fi

# After an install into this machine itself (no DESTDIR, which stages a
# package's tree): the dynamic linker's cache refreshed (ldconfig, as root
# installs do), and where libdir is not a directory it searches, what a
# program linked with -lnqueens needs, said.
nq_ldconfig = ldconfig 2>/dev/null || true; \
    ldconfig -p 2>/dev/null | grep -q '$(SHLIB_SONAME) .*=> $(libdir)/$(SHLIB_SONAME)$$' || \
    echo 'make install: the dynamic linker does not search $(libdir): run a program' \
        'linked with -lnqueens with LD_LIBRARY_PATH=$(libdir), or list $(libdir) in' \
        '/etc/ld.so.conf.d/ and run ldconfig' >&2

install-strip:
	$(MAKE) INSTALL_PROGRAM='$(INSTALL_PROGRAM) -s' install

# Files only: directories are left, as they may hold other packages' files.
uninstall:
	rm -f '$(DESTDIR)$(bindir)/nqueens' '$(DESTDIR)$(bindir)/nqueens-mpi' \
	    '$(DESTDIR)$(bindir)/nqueens-cuda' \
	    '$(DESTDIR)$(bindir)/nqueens-opencl' \
	    '$(DESTDIR)$(libdir)/libnqueens.a' \
	    '$(DESTDIR)$(libdir)/$(SHLIB_REAL)' \
	    '$(DESTDIR)$(libdir)/$(SHLIB_SONAME)' \
	    '$(DESTDIR)$(libdir)/libnqueens.so' \
	    '$(DESTDIR)$(includedir)/nqueens.h' \
	    '$(DESTDIR)$(includedir)/nqueens_mpi.h' \
	    '$(DESTDIR)$(pkgconfigdir)/nqueens.pc' \
	    '$(DESTDIR)$(libdir)/libnqueens-mpi.a' \
	    '$(DESTDIR)$(pkgconfigdir)/nqueens-mpi.pc' \
	    '$(DESTDIR)$(includedir)/nqueens_cuda.h' \
	    '$(DESTDIR)$(libdir)/libnqueens-cuda.a' \
	    '$(DESTDIR)$(pkgconfigdir)/nqueens-cuda.pc' \
	    '$(DESTDIR)$(includedir)/nqueens_opencl.h' \
	    '$(DESTDIR)$(libdir)/libnqueens-opencl.a' \
	    '$(DESTDIR)$(pkgconfigdir)/nqueens-opencl.pc' \
	    '$(DESTDIR)$(man1dir)/nqueens.1' \
	    '$(DESTDIR)$(bashcompdir)/nqueens'
	for lang in $(LINGUAS); do \
	    rm -f '$(DESTDIR)$(localedir)/'$$lang/LC_MESSAGES/nqueens.mo; done
	@if [ -z '$(DESTDIR)' ]; then ldconfig 2>/dev/null || true; fi
