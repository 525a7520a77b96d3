# The only build file. Targets: all (default), test, perf, fuzz, install, clean.
# Variants: STATIC=1 (fully static, with musl), MUSL=1 (dynamic, with musl), SANITIZE=1 (ASan+UBSan), DEBUG=1 (-g),
# ZLIB_SHARED=1 (link libz.so instead of libz.a).
# Each variant builds in its own directory under .build/, and ./mini-git is
# the binary of the variant built last.

CC ?= cc
prefix ?= /usr/local
bindir = $(prefix)/bin
VERSION = 0.1.0

# Each function and datum in its own section, so that the link drops
# what no command uses: a cold start reads the whole binary.
CFLAGS_BASE = -std=gnu11 -O2 -Wall -Wextra -Werror -I. -D_GNU_SOURCE \
	-DMINI_GIT_VERSION='"$(VERSION)"' -DMINI_GIT_BINDIR='"$(bindir)"' -fno-plt \
	-ffunction-sections -fdata-sections
LDFLAGS_BASE = -Wl,-O1 -Wl,--as-needed -Wl,--hash-style=gnu -Wl,--gc-sections

VARIANT = default
# STATIC=1 links statically, and so with musl (glibc's static start-up is
# fourteen system calls); MUSL=1 alone links musl dynamically.
ifeq ($(STATIC),1)
MUSL = 1
endif
ifeq ($(MUSL),1)
VARIANT = $(if $(filter 1,$(STATIC)),static,musl)
# musl starts a static program in three system calls and a dynamic one in
# seven (its loader is its libc: no library to look up and map), where
# glibc takes fourteen and twenty-eight; a static binary is 540 KB where
# glibc's was 1.4 MB, and its user and host look-ups need no NSS modules at
# run time. zlib is the host's libz.a, which asks the C library only for
# memory and string functions; its two headers are copied beside the
# build.
HOST_CC := $(CC)
MUSL_GCC ?= musl-gcc
CC = $(MUSL_GCC)
CFLAGS_BASE += -DMINI_GIT_MUSL -isystem .build/$(VARIANT)/zlib-include
ifeq ($(STATIC),1)
CFLAGS_BASE += -DMINI_GIT_STATIC
LDFLAGS_BASE += -static
endif
ZLIB = $(shell $(HOST_CC) -print-file-name=libz.a)
ZLIB_H = $(shell printf '\043include <zlib.h>\n' | $(HOST_CC) -E -x c - 2>/dev/null | \
	sed -n 's|^\# [0-9]* "\(/[^"]*/zlib\.h\)".*|\1|p' | head -n 1)
ZLIB_INCLUDE = .build/$(VARIANT)/zlib-include/zlib.h
else
# Relative relocations packed as DT_RELR: a pointer table's relocations
# take a few words instead of 24 bytes each, 12 KB less binary for a cold
# start to read, and fewer for the loader to apply. GNU ld packs them only
# when libc.so provides GLIBC_ABI_DT_RELR (glibc 2.36), and ignores the
# option with a warning before binutils 2.38. musl 1.2.3 cannot load them.
ifneq ($(SANITIZE),1)
LDFLAGS_BASE += -Wl,-z,pack-relative-relocs
endif
# libz.a by default: every shared library costs ~8 system calls at start-up.
ifeq ($(ZLIB_SHARED),1)
ZLIB = -lz
else
ZLIB = -Wl,-Bstatic -lz -Wl,-Bdynamic
endif
endif
ifeq ($(SANITIZE),1)
VARIANT = sanitize
CFLAGS_BASE += -fsanitize=address,undefined -fno-omit-frame-pointer -g -O1
LDFLAGS_BASE += -fsanitize=address,undefined
ZLIB = -lz
endif
ifeq ($(DEBUG),1)
VARIANT := $(VARIANT)-debug
CFLAGS_BASE += -g
else ifneq ($(SANITIZE),1)
# No symbol table: a cold start reads the file's pages around each fault,
# so every byte of the binary is a byte read from disk.
LDFLAGS_BASE += -s
endif

CFLAGS_ALL = $(CFLAGS_BASE) $(OPT) -I$(B) $(CFLAGS)
LDFLAGS_ALL = $(LDFLAGS_BASE) $(LDFLAGS)
B = .build/$(VARIANT)

ifneq ($(SANITIZE)$(DEBUG),)
else
# A cold start reads every page of the binary that read-around brings in,
# so code that runs once per command (start-up, options, refs, output) is
# compiled for size; the data paths (odb/, sha1/) stay at -O2. C needs no
# unwind tables.
CFLAGS_BASE += -fno-asynchronous-unwind-tables
SIZE_DIRS = lib refs remote builtin transport-helpers
$(foreach d,$(SIZE_DIRS),$(eval $$(B)/$(d)/%.o: OPT = -Os))
$(B)/mini-git.o: OPT = -Os
endif


# lib/malloc-arena.c defines malloc: linked into mini-git and the unit
# tests only, not into the HTTP helper or the fuzz targets.
ARENA_SRC = lib/malloc-arena.c
LIB_SRC = $(filter-out $(ARENA_SRC),$(sort $(wildcard lib/*.c sha1/*.c odb/*.c refs/*.c remote/*.c)))
BUILTIN_SRC = $(sort $(wildcard builtin/*.c))
# builtin/<command>/*.c: parts of one command too large for one file; they
# are linked into mini-git but are not commands themselves.
BUILTIN_PART_SRC = $(sort $(wildcard builtin/*/*.c))
BUILTINS = $(patsubst builtin/%.c,%,$(BUILTIN_SRC))
HELPER_SRC = $(sort $(wildcard transport-helpers/*.c))
UNIT_SRC = $(sort $(wildcard tests/unit/t-*.c))

LIB_OBJ = $(patsubst %.c,$(B)/%.o,$(LIB_SRC))
ARENA_OBJ = $(patsubst %.c,$(B)/%.o,$(ARENA_SRC))
MAIN_OBJ = $(B)/mini-git.o $(patsubst %.c,$(B)/%.o,$(BUILTIN_SRC) $(BUILTIN_PART_SRC)) $(ARENA_OBJ)
HELPER_OBJ = $(patsubst %.c,$(B)/%.o,$(HELPER_SRC))
UNIT_BIN = $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRC))

all: mini-git mini-git-remote-http unit-tests

$(B)/%.o: %.c | $(B)/builtins.h $(ZLIB_INCLUDE)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

ifeq ($(MUSL),1)
$(ZLIB_INCLUDE):
	@test -n "$(ZLIB_H)" || { echo "zlib.h not found (zlib1g-dev)" >&2; exit 1; }
	@command -v $(MUSL_GCC) >/dev/null || { echo "$(MUSL_GCC) not found (musl-tools)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	cp $(ZLIB_H) $(dir $(ZLIB_H))zconf.h $(dir $@)
endif

# The command table: one line per builtin/*.c, sorted by name.
$(B)/builtins.h: $(BUILTIN_SRC) Makefile
	@mkdir -p $(B)
	@for c in $(BUILTINS); do \
		f=$$(echo $$c | tr - _); \
		echo "CMD(\"$$c\", cmd_$$f)"; \
	done > $@+ && mv $@+ $@

$(B)/mini-git.o: $(B)/builtins.h

$(B)/libmini.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# LIBC_BY_PATH=1: the dynamic glibc build names libc by its absolute path
# (tools/needed-path.c), so the loader does not open /etc/ld.so.cache at
# every start: the path of the libc.so.6 the compiler links against, in
# the directory that file really lies in. Off by default: the binary must
# name what it links as every program does (libc.so.6), and then runs
# wherever libc lies.
LIBC_BY_PATH ?= 0
ifeq ($(LIBC_BY_PATH),1)
ifeq ($(MUSL)$(SANITIZE)$(STATIC),)
LIBC_PATH := $(shell p=$$(realpath -q "$$($(CC) -print-file-name=libc.so.6)") && \
	test -e "$${p%/*}/libc.so.6" && echo "$${p%/*}/libc.so.6")
endif
endif
ifneq ($(LIBC_PATH),)
NEEDED_PATH = $(B)/tools/needed-path
NEEDED_LDFLAGS = -Wl,-soname,$(LIBC_PATH)
endif

$(B)/tools/needed-path: tools/needed-path.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

# Relink when LIBC_BY_PATH changes.
$(B)/libc-path: FORCE
	@mkdir -p $(B)
	@echo '$(LIBC_PATH)' | cmp -s - $@ || echo '$(LIBC_PATH)' >$@

$(B)/mini-git: $(MAIN_OBJ) $(B)/libmini.a $(NEEDED_PATH) $(B)/libc-path
	$(CC) -o $@+ $(MAIN_OBJ) $(B)/libmini.a $(LDFLAGS_ALL) $(ZLIB) $(NEEDED_LDFLAGS)
	$(if $(NEEDED_PATH),$(NEEDED_PATH) $@+ libc.so.6 && $@+ --version >/dev/null)
	mv -f $@+ $@

# Copy, then rename: a running ./mini-git would make cp fail ("Text file busy").
mini-git: $(B)/mini-git FORCE
	@cmp -s $< $@ || { cp $< $@+ && mv -f $@+ $@; }

# The HTTP helper: the only program that links libcurl. libcurl is not
# linked statically, so the static build's helper is the default build's;
# so is the musl build's (the system's libcurl is linked with glibc).
ifeq ($(MUSL),1)
mini-git-remote-http: FORCE
	$(MAKE) STATIC= MUSL= mini-git-remote-http
else ifneq ($(HELPER_SRC),)
$(B)/mini-git-remote-http: $(HELPER_OBJ) $(B)/libmini.a
	$(CC) -o $@ $(HELPER_OBJ) $(B)/libmini.a $(filter-out -static,$(LDFLAGS_ALL)) -lcurl $(ZLIB)
mini-git-remote-http: $(B)/mini-git-remote-http FORCE
	@cmp -s $< $@ || { cp $< $@+ && mv -f $@+ $@; }
	@ln -f mini-git-remote-http mini-git-remote-https
else
mini-git-remote-http:
endif

$(B)/tests/unit/%: tests/unit/%.c $(B)/libmini.a $(ARENA_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(ARENA_OBJ) $(B)/libmini.a $(LDFLAGS_ALL) $(ZLIB) -lpthread

unit-tests: $(UNIT_BIN)
	@mkdir -p tests/unit/bin
	@for t in $(UNIT_BIN); do cp $$t tests/unit/bin/.tmp && mv -f tests/unit/bin/.tmp tests/unit/bin/$${t##*/}; done

# T=...: some of the tests only (names under tests/).
T = t[0-9]*.sh $$(ls unit/bin/t-* 2>/dev/null)
test: all
	cd tests && MINI_GIT_VARIANT=$(VARIANT) prove -j2 $(PROVE_OPTS) $(T)

# libFuzzer targets (clang); the rules live in fuzz/fuzz.mk.
fuzz:
	$(MAKE) -f fuzz/fuzz.mk run

demo: all
	tests/demo.sh

perf: all
	perf/run

install: all
	mkdir -p $(DESTDIR)$(bindir)
	cp mini-git $(DESTDIR)$(bindir)/mini-git
	for c in $(BUILTINS); do ln -f $(DESTDIR)$(bindir)/mini-git $(DESTDIR)$(bindir)/mini-git-$$c; done
	if [ -f mini-git-remote-http ]; then \
		cp mini-git-remote-http $(DESTDIR)$(bindir)/ && \
		ln -f $(DESTDIR)$(bindir)/mini-git-remote-http $(DESTDIR)$(bindir)/mini-git-remote-https; fi

clean:
	rm -rf .build mini-git mini-git-remote-http mini-git-remote-https tests/unit/bin tests/trash.*

FORCE:
.PHONY: all demo fuzz test perf install clean unit-tests FORCE

-include $(shell find .build/$(VARIANT) -name '*.d' 2>/dev/null)
