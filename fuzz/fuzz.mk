# fuzz.mk: libFuzzer targets, run by the top-level `make fuzz`.
#
#   make fuzz                      build every target, run each FUZZ_SECONDS (30)
#   FUZZ_SECONDS=60 make fuzz      longer
#   FUZZ_SEED=1 make fuzz          the same inputs in the same order on every
#                                  run (as many as the time allows); CI's way
#   make -f fuzz/fuzz.mk build     only build
#   make -f fuzz/fuzz.mk run-delta one target (name without "fuzz-")
#
# The project's sources are compiled again here with clang and the
# fuzzer, address and undefined-behaviour instrumentation (undefined
# behaviour aborts, so it counts as a crash). Seed corpora are made by
# fuzz/make-corpus from repositories made by git; new inputs the fuzzer
# finds go to fuzz/out/work-<target>/ so the seeds stay as generated.
# A run fails on any crash, leak, timeout or sanitizer report; the input
# is saved as fuzz/out/<target>-crash-* (or -leak-, -timeout-, -oom-).

CLANG ?= clang
FUZZ_SECONDS ?= 30
FUZZ_MAX_LEN ?= 65536
# Per input: seconds, and megabytes of one allocation / the whole process.
FUZZ_TIMEOUT ?= 10
FUZZ_RSS_MB ?= 2048
# Empty: a new seed each run.
FUZZ_SEED ?=

O = fuzz/out
SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FCFLAGS = -std=gnu11 -g -O1 -I. -D_GNU_SOURCE -DMINI_GIT_VERSION='"fuzz"' \
	-Wall -Wextra -Wno-unused-function $(SAN)
# Not the malloc arena: the sanitizers bring their own allocator.
PROJECT_SRC = $(filter-out lib/malloc-arena.c,$(sort $(wildcard lib/*.c sha1/*.c odb/*.c refs/*.c remote/*.c)))
PROJECT_OBJ = $(patsubst %.c,$(O)/obj/%.o,$(PROJECT_SRC))
TARGET_SRC = $(sort $(wildcard fuzz/fuzz-*.c))
TARGETS = $(patsubst fuzz/fuzz-%.c,%,$(TARGET_SRC))
TARGET_BIN = $(patsubst %,$(O)/fuzz-%,$(TARGETS))

build: $(TARGET_BIN)

# A source that does not compile (someone is in the middle of it) becomes
# an empty object with a warning: targets that need it fail to link, the
# others still build and run.
$(O)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CLANG $<"
	@$(CLANG) $(FCFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $< 2>$@.err || { \
		echo "warning: $< does not compile with clang; left out:" >&2; \
		head -5 $@.err >&2; : >$@.err; \
		echo 'static int empty_unit_ UNUSED;' | $(CLANG) -xc -include lib/util.h -I. -c -o $@ -; }
	@cat $@.err >&2; rm -f $@.err

$(O)/libmini-fuzz.a: $(PROJECT_OBJ)
	@rm -f $@
	ar rcs $@ $^

# --wrap: see fuzz/fuzz-harness.h. zlib is linked statically so that its
# allocations are wrapped too (a die() with a z_stream open frees them).
ZLIB = -Wl,-Bstatic -lz -Wl,-Bdynamic
WRAP = -Wl,--wrap=exit,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=mmap,--wrap=munmap
$(O)/fuzz-%: fuzz/fuzz-%.c fuzz/fuzz-harness.h $(O)/libmini-fuzz.a
	$(CLANG) $(FCFLAGS) -Werror -fsanitize=fuzzer $(WRAP) -o $@ $< \
		$(O)/libmini-fuzz.a $(ZLIB) -lpthread

fuzz/corpus/.done: fuzz/make-corpus
	fuzz/make-corpus

run: build fuzz/corpus/.done
	@rm -f $(O)/summary.txt
	@fail=0; for t in $(TARGETS); do \
		$(MAKE) -s -f fuzz/fuzz.mk run-$$t || fail=1; \
	done; \
	echo "== fuzz summary ($(FUZZ_SECONDS) s per target)"; cat $(O)/summary.txt; \
	exit $$fail

run-%: $(O)/fuzz-% fuzz/corpus/.done
	@mkdir -p $(O)/work-$* fuzz/corpus/$*
	@echo "== fuzz-$* for $(FUZZ_SECONDS) s"
	@ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(O)/fuzz-$* -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) \
		-timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=$(FUZZ_RSS_MB) \
		-print_final_stats=1 $(if $(FUZZ_SEED),-seed=$(FUZZ_SEED)) -artifact_prefix=$(O)/$*- \
		$(O)/work-$* fuzz/corpus/$* >$(O)/log-$* 2>&1; \
	st=$$?; \
	runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(O)/log-$*); \
	rate=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $(O)/log-$*); \
	if [ $$st = 0 ]; then res=ok; else res="FAILED (exit $$st, see $(O)/log-$*)"; \
		grep -m1 -A12 -E '^==[0-9]+==|runtime error|^ERROR|out-of-memory|timeout' $(O)/log-$* >&2; fi; \
	printf '%-14s %10s runs %8s exec/s  %s\n' "$*" "$${runs:-0}" "$${rate:-0}" "$$res" \
		| tee -a $(O)/summary.txt; \
	exit $$st

clean:
	rm -rf $(O)

.PHONY: build run clean
.PRECIOUS: $(O)/fuzz-% $(O)/obj/%.o

-include $(shell find $(O)/obj -name '*.d' 2>/dev/null)
