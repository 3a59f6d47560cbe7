# pnrsim build.  Entry targets: all (default), check, demo, bench, install,
# clean.  Every entry target first runs tools/deps.sh, which installs the
# libraries (GSL, inih, Check, zlib, jansson) on a fresh Debian/Ubuntu machine.
#
# Layers (includes point one way): core <- hw, net <- sched, pnr <- app.
# Everything but app/main.c goes into one static library that the program,
# the tests and the benchmarks link against.

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc
SAN     ?=
PKGS    := gsl inih zlib

OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WARN     := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
DEFS     := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
ifeq ($(SAN),1)
  CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDSAN  := -fsanitize=address,undefined
endif
# SAN=fuzz: clang, ASan + UBSan, and libFuzzer's coverage (build-fuzz).
ifeq ($(SAN),fuzz)
  CFLAGS := -O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDSAN  := -fsanitize=address,undefined
endif
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)
# jansson: pnrsim-sweep's reader of metrics.json (study/metrics.c) only.
SWEEP_PKG_CFLAGS = $(shell pkg-config --cflags jansson 2>/dev/null)
SWEEP_PKG_LIBS   = $(shell pkg-config --libs jansson 2>/dev/null)
ALL_CFLAGS = $(WARN) $(DEFS) -I. $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
LDLIBS_ALL = $(PKG_LIBS) -lm -ldl $(LDSAN)
# A program that loads plugins (issue 34: pnrsim, pnrsim-sweep) links the
# whole library, so that every public function a plugin may call is in it,
# called by pnrsim or not, and exports to plugins exactly the functions and
# data of the public headers (DYNLIST, generated from PUBLIC_HEADERS by
# tools/dynamic-list.sh): not its internals, which a plugin can then
# neither call nor have its own functions of the same name interposed by.
DYNLIST  = $(BUILD)/pnrsim.dynlist
HOST_LIB = -Wl,--dynamic-list=$(DYNLIST) -Wl,--whole-archive $(LIB) -Wl,--no-whole-archive
# The public headers (issue 34), installed under PREFIX/include/pnrsim/
# with their folder; a plugin includes only these (tools/check-public.sh).
PUBLIC_HEADERS := core/registry.h core/rng.h sched/order.h sched/packing.h sched/profile.h sched/reserve.h sched/reserve_bound.h sched/allocation.h pnr/strategy_api.h

LIB_SRC   := $(filter-out app/main.c,$(wildcard core/*.c hw/*.c net/*.c sched/*.c pnr/*.c app/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB       := $(BUILD)/libpnrsim.a
PROG      := $(BUILD)/pnrsim
TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_SH   := $(wildcard tests/test_*.sh)
SWEEP_SRC := $(wildcard study/*.c)
SWEEP_OBJ := $(SWEEP_SRC:%.c=$(BUILD)/%.o)
SWEEP     := $(if $(SWEEP_SRC),$(BUILD)/pnrsim-sweep)
$(SWEEP_OBJ): ALL_CFLAGS += $(SWEEP_PKG_CFLAGS)
BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
PLOT      := $(BUILD)/pnrsim-plot
# pnrsim-fault-curve: the stack-distance pass of tools/fault-curve (issue
# 33 item 2); a tool beside the simulator, linked against none of it.
FCURVE    := $(BUILD)/pnrsim-fault-curve
# pnrsim-gen: the workload generator of gen/ (issue 36 item 1); core and
# app's SWF reader only (gen/ may not use sched/: tools/check-layers.py).
GEN_SRC   := $(wildcard gen/*.c)
GEN_OBJ   := $(GEN_SRC:%.c=$(BUILD)/%.o)
GEN       := $(BUILD)/pnrsim-gen
# Manual pages: pnrsim.ini(5) is generated from configs/reference.ini.
MAN1      := $(patsubst man/%,$(BUILD)/man/%,$(wildcard man/*.1))
MAN5      := $(BUILD)/man/pnrsim.ini.5
MANS      := $(MAN1) $(MAN5)
# The version: VERSION, plus +g<commit>[-dirty] when building in a git
# checkout of pnrsim itself (not in a copy inside another repository,
# e.g. make identical's git archive under build-identical/).
GIT_TOP   := $(shell git rev-parse --show-toplevel 2>/dev/null)
GIT_REV   := $(if $(filter $(abspath $(CURDIR)),$(GIT_TOP)),$(shell git describe --always --dirty --abbrev=7 --exclude '*' 2>/dev/null))
VERSION_STR := $(shell cat VERSION 2>/dev/null || echo unknown)$(if $(GIT_REV),+g$(GIT_REV))
FUZZ_TIME ?= 60
FUZZ_SMOKE_TIME ?= 4

.PHONY: demo-plots demo-plots-docs FORCE
.PHONY: all check test demo bench install clean deps tests benches study fuzz fuzzers fuzz-smoke identical
.PHONY: check-slurm check-slurm-predict check-valgrind
all: deps
	@$(MAKE) --no-print-directory $(PROG) $(SWEEP) $(PLOT) $(FCURVE) $(GEN) $(MANS) examples

# examples: the example plugins of examples/plugins/ (issue 34) as shared
# objects under BUILD/examples/plugins/, built as a user builds them (the
# public headers only; here from the tree: -I.), for the bundled study
# configs/studies/p2c.ini. tests/test_plugins.sh builds them out of tree.
EXAMPLE_SO := $(patsubst examples/plugins/%.c,$(BUILD)/examples/plugins/%.so,$(wildcard examples/plugins/*.c))
.PHONY: examples
examples: $(EXAMPLE_SO)
$(BUILD)/examples/plugins/%.so: examples/plugins/%.c $(PUBLIC_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -D_POSIX_C_SOURCE=200809L -I. $(CFLAGS) -shared -fPIC $< -o $@ -lm

deps:
	@sh tools/deps.sh

# version.txt changes only when the version does, so that only
# app/version.o is rebuilt after a commit.
$(BUILD)/version.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION_STR)' | cmp -s - $@ || echo '$(VERSION_STR)' > $@
FORCE:
$(BUILD)/app/version.o: app/version.c $(BUILD)/version.txt
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DPNRSIM_VERSION='"$(VERSION_STR)"' -c $< -o $@

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(DYNLIST): $(PUBLIC_HEADERS) tools/dynamic-list.sh
	@mkdir -p $(dir $@)
	sh tools/dynamic-list.sh '$(CC)' $(PUBLIC_HEADERS) > $@.tmp && mv $@.tmp $@

$(PROG): $(BUILD)/app/main.o $(LIB) $(DYNLIST)
	$(CC) $(CFLAGS) -o $@ $(BUILD)/app/main.o $(HOST_LIB) $(LDLIBS_ALL)

# pnrsim-plot: a sh wrapper running the Python companion (python/pnrsim)
# from this tree with /usr/bin/python3 (tools/plot-wrapper.sh).
$(PLOT): tools/plot-wrapper.sh $(BUILD)/version.txt
	@mkdir -p $(dir $@)
	sh tools/plot-wrapper.sh '$(abspath python)' '$(VERSION_STR)' > $@.tmp && chmod 755 $@.tmp && mv $@.tmp $@

$(BUILD)/man/%.1: man/%.1 $(BUILD)/version.txt
	@mkdir -p $(dir $@)
	sed 's/@VERSION@/$(VERSION_STR)/' $< > $@

$(MAN5): configs/reference.ini tools/ini2man.sh $(BUILD)/version.txt
	@mkdir -p $(dir $@)
	sh tools/ini2man.sh $< '$(VERSION_STR)' > $@.tmp && mv $@.tmp $@

$(GEN): $(GEN_OBJ) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(GEN_OBJ) $(LIB) $(LDLIBS_ALL)

$(FCURVE): tools/fault_curve.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -o $@ $< $(LDSAN)

$(BUILD)/pnrsim-sweep: $(SWEEP_OBJ) $(LIB) $(DYNLIST)
	$(CC) $(CFLAGS) -o $@ $(SWEEP_OBJ) $(HOST_LIB) $(LDLIBS_ALL) $(SWEEP_PKG_LIBS)

$(BUILD)/tests/%: tests/%.c $(LIB) tests/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(CHECK_LIBS) $(LDLIBS_ALL)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDLIBS_ALL)

# tests: after all (a prerequisite, so that `make -j2 all tests` does not
# build the library in two makes at once: all's recipe is a sub-make).
# (test-bins, not the programs as goals: no line per program up to date)
.PHONY: test-bins
tests: all
	@$(MAKE) --no-print-directory test-bins
test-bins: $(TEST_BIN)
	@:

# libFuzzer harnesses (build with CC=clang SAN=fuzz): the library, plus the
# study reader's objects for fuzz_study.
$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB) $(filter-out $(BUILD)/study/main.o,$(SWEEP_OBJ)) $(wildcard tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(filter-out $(BUILD)/study/main.o,$(SWEEP_OBJ)) $(LIB) $(LDLIBS_ALL) $(SWEEP_PKG_LIBS)
fuzzers: $(FUZZ_BIN)
benches: $(PROG) $(BENCH_BIN)

# The test programs make check runs and those make check-long adds (issue
# 32: make check within 10 minutes on 2 cores). Every test program runs in
# one of the two, in both builds:
#   LONG_TESTS       run in make check-long only, plain and sanitized;
#   LONG_ASAN_TESTS  plain in make check, sanitized in make check-long
#                    (fast enough plain, 3-10 times slower under ASan).
# Names without folder or extension (test_combos, test_cli_traces); a new
# test goes in make check unless it is named here. Why each one is here:
# README.md, "Tests".
LONG_TESTS      := test_sweep test_sweep_plugins
LONG_ASAN_TESTS := test_schedule test_pnr_trace test_rng test_presets \
                   test_cli test_plots test_study_plots test_path_costs \
                   test_cli_traces test_observers
TEST_ALL   := $(TEST_BIN) $(TEST_SH)
TEST_NAMES := $(basename $(notdir $(TEST_ALL)))
$(foreach n,$(LONG_TESTS) $(LONG_ASAN_TESTS),$(if $(filter $(n),$(TEST_NAMES)),,$(error LONG_TESTS or LONG_ASAN_TESTS names $(n), which is no tests/test_*.c or tests/test_*.sh)))
LONG_HERE  := $(LONG_TESTS) $(if $(filter 1,$(SAN)),$(LONG_ASAN_TESTS))
TEST_QUICK := $(foreach t,$(TEST_ALL),$(if $(filter $(basename $(notdir $(t))),$(LONG_HERE)),,$(t)))
TEST_LONG  := $(foreach t,$(TEST_ALL),$(if $(filter $(basename $(notdir $(t))),$(LONG_HERE)),$(t)))
# SUITE: which of one build's test programs make test runs: all (the
# default), quick (make check's) or long (make check-long's).
SUITE      ?= all
TEST_RUN   := $(if $(filter quick,$(SUITE)),$(TEST_QUICK),$(if $(filter long,$(SUITE)),$(TEST_LONG),$(TEST_ALL)))
# TEST_JOBS: test programs run at once (and make -j for building them in
# make check), by default one per core.
TEST_JOBS  ?= $(shell nproc 2>/dev/null || echo 1)

# test: run the test programs of one build (BUILD, SAN select which; SUITE
# which of them), TEST_JOBS at a time, each one's output printed whole and
# in order; the ten slowest at the end (tools/runtests.sh; their times in
# BUILD/test-times-SUITE.txt; the longest of the last run start first, or
# without one the long tests). Under the sanitizers every Check timeout is
# 3 times longer (they run 3-5 times slower, and a loaded CI machine must
# not turn that into failures).
test: tests
	@$(if $(filter 1,$(SAN)),CK_TIMEOUT_MULTIPLIER=3) sh tools/runtests.sh -j $(TEST_JOBS) \
	    -t $(BUILD)/test-times-$(SUITE).txt -f '$(LONG_TESTS) $(LONG_ASAN_TESTS)' $(BUILD) $(TEST_RUN)

# check: the dependency check (check-layers), the packages the tests use,
# the plain build's tests, then the AddressSanitizer + UBSan build's (both
# without LONG_TESTS; the second without LONG_ASAN_TESTS), fuzz-smoke,
# then check-slurm (about 15 s; it skips where Slurm cannot run). It must
# stay under 10 minutes on 2 free cores (issue 32): 10 min 16 s at the
# end of issue 36 with test_sweep and test_sweep_plugins in it (plain 4:54,
# ASan 3:52, fuzz 1:15), so those two moved to LONG_TESTS and
# test_path_costs to LONG_ASAN_TESTS (about 2.5 min of test time); 10 min
# 27 s at the end of issue 37, so test_cli_traces and test_observers went
# to LONG_ASAN_TESTS too (91 s under ASan) and test_results no longer
# waits out its pipes (35 s of sleep per build). At the end: each step's time, the
# ten slowest test programs and the total (tools/timed-steps.sh).
# check-long: what make check leaves out, the long tests in both builds,
# then check-slurm-predict (about 70 s)
# (CI runs make check, then make check-long: .ci/run).
CHECK_STEPS := check-layers check-packages check-plain check-asan fuzz-smoke check-slurm
LONG_STEPS  := check-packages long-plain long-asan check-slurm-predict
.PHONY: check-long check-packages check-plain check-asan long-plain long-asan
check: deps
	@sh tools/timed-steps.sh check 'build/test-times-quick.txt build-asan/test-times-quick.txt' \
	    -- $(MAKE) --no-print-directory -- $(CHECK_STEPS)
check-long: deps
	@sh tools/timed-steps.sh check-long 'build/test-times-long.txt build-asan/test-times-long.txt' \
	    -- $(MAKE) --no-print-directory -- $(LONG_STEPS)
check-packages:
	@sh tools/deps.sh schedule
	@sh tools/deps.sh plot
	@sh tools/deps.sh html
check-plain long-plain:
	@$(if $(filter long-plain,$@),$(if $(strip $(LONG_TESTS)),,echo "long-plain: LONG_TESTS is empty: every plain test runs in make check" && exit 0;)) \
	$(MAKE) --no-print-directory -j$(TEST_JOBS) BUILD=build tests && \
	$(MAKE) --no-print-directory BUILD=build SUITE=$(if $(filter long-%,$@),long,quick) test
check-asan long-asan:
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) BUILD=build-asan SAN=1 tests
	@$(MAKE) --no-print-directory BUILD=build-asan SAN=1 SUITE=$(if $(filter long-%,$@),long,quick) test

# fuzz: every libFuzzer target for FUZZ_TIME seconds each (one at a time),
# from seeds cut from configs/ and traces/; findings go to build-fuzz/fuzz/.
# fuzz-smoke (part of check): FUZZ_SMOKE_TIME seconds each, or a message
# saying why it is skipped when clang cannot build libFuzzer programs.
fuzz: deps
	@sh tools/deps.sh fuzz
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang SAN=fuzz fuzzers
	@sh tests/fuzz/run.sh build-fuzz $(FUZZ_TIME)

fuzz-smoke:
	@sh tools/deps.sh fuzz-smoke
	@if sh tests/fuzz/run.sh probe; then \
	    $(MAKE) --no-print-directory BUILD=build-fuzz CC=clang SAN=fuzz fuzzers && \
	    sh tests/fuzz/run.sh build-fuzz $(FUZZ_SMOKE_TIME) smoke; \
	else echo "fuzz-smoke: skipped: clang cannot build libFuzzer programs here (make fuzz installs clang)"; fi

# check-slurm: pnrsim-sweep --emit-slurm through a real one-node Slurm
# (tools/slurm-local.sh, as root), results byte-identical to a direct run.
# Skips with a message where Slurm cannot be installed or started.
check-slurm: deps
	@$(MAKE) --no-print-directory BUILD=build build/pnrsim $(if $(SWEEP_SRC),build/pnrsim-sweep)
	@if sh tools/deps.sh slurm; then sh tests/check_slurm.sh build; \
	 else echo "check_slurm: SKIPPED: Slurm could not be installed (tools/deps.sh slurm)"; fi

# check-slurm-predict: pnrsim predict against a real one-node Slurm of 8
# CPUs with sched/backfill (tests/check_slurm_predict.sh, about 70 s: in
# make check-long, not make check): predicted, Slurm's squeue --start and
# actual starts. Skips with a message where Slurm cannot run.
check-slurm-predict: deps
	@$(MAKE) --no-print-directory BUILD=build build/pnrsim
	@if sh tools/deps.sh slurm; then sh tests/check_slurm_predict.sh build; \
	 else echo "check_slurm_predict: SKIPPED: Slurm could not be installed (tools/deps.sh slurm)"; fi

# check-valgrind: the unit tests and two whole runs under valgrind memcheck.
check-valgrind: deps
	@sh tools/deps.sh valgrind
	@$(MAKE) --no-print-directory BUILD=build tests
	@sh tests/check_valgrind.sh build

# demo: the whole way from a fresh clone (issue 37 item 8): the libraries
# and what --plot needs (tools/deps.sh, tools/deps.sh plot: Python's pandas
# and matplotlib), a parallel build of what make builds (-j the machine's
# cores, nproc or getconf; none forced when make already runs with -j) with
# its compiler lines in BUILD/demo-build.log and one line here (the log's
# end when it fails), the default scenario with --plot (its five pictures),
# then where the results and the pictures are.
NPROC  := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
DEMO_J := $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(NPROC))
DEMO   := out/demo
demo: deps
	@sh tools/deps.sh plot
	@mkdir -p $(BUILD)
	@printf 'demo: building pnrsim (%s cores; compiler output in %s) ...' '$(NPROC)' '$(BUILD)/demo-build.log'
	@t0=$$(date +%s); \
	 if $(MAKE) --no-print-directory $(DEMO_J) $(PROG) $(SWEEP) $(PLOT) $(FCURVE) $(GEN) $(MANS) examples \
	        > $(BUILD)/demo-build.log 2>&1; then \
	     echo " done in $$(($$(date +%s) - t0)) s"; \
	 else echo " FAILED; the end of $(BUILD)/demo-build.log:"; tail -n 25 $(BUILD)/demo-build.log; exit 1; fi
	@echo 'demo: running configs/default.ini (3,170 HPC2N jobs on 240 PEs, MPL 2) with --plot ...'
	@./$(PROG) -c configs/default.ini --plot -o $(DEMO)
	@echo ''
	@echo 'demo: results in $(DEMO)/: metrics.json (the metrics above), jobs.csv (a row per job),'
	@echo '      samples.csv (every metrics_period), config.ini (the configuration, each key'"'"'s origin),'
	@echo '      schedule.csv, pes.csv, memory.csv, paging.csv (the schedule, event by event)'
	@echo "demo: pictures in $(DEMO)/plots/: $$(cd $(DEMO)/plots && ls *.png | sed 's/\.png$$//' | tr '\n' ' ')(.png and .svg)"
	@echo 'demo: next: build/pnrsim -c configs/default.ini --print-config --changed (what the scenario sets);'
	@echo '      make demo-plots (a window and a paging case too); docs/ and man pnrsim (man/pnrsim.1)'

# demo-plots: the pictures of the whole demo (out/demo-plots/demo/plots:
# gantt, paging, overalloc, memory, queue) and of its window 384300 ..
# 384700 s (out/demo-plots/window), and the paging of the demo's first 100
# jobs with 127 MB of RAM per PE, where two 64 MB threads on one PE
# overflow it (out/demo-plots/pressure/plots). Writes only under out/; the
# bulky schedule files are removed once drawn (the pictures stay). The
# README's pictures are copies: make demo-plots-docs copies them into docs/.
demo-plots: all
	@sh tools/deps.sh plot
	rm -rf out/demo-plots
	./$(PROG) -c configs/default.ini -q --schedule -o out/demo-plots/demo
	./$(PLOT) --format png out/demo-plots/demo
	./$(PLOT) --format png --from 384300s --to 384700s -o out/demo-plots/window out/demo-plots/demo
	./$(PROG) -c configs/default.ini -q --schedule -o out/demo-plots/pressure \
	    --set workload.max_jobs=100 --set computer.ram=127 \
	    --set simulation.max_time=450000
	./$(PLOT) --format png --from 370000s --to 440000s out/demo-plots/pressure
	cd out/demo-plots && rm -f */schedule.csv* */pes.csv* */memory.csv* */paging.csv* */schedule.paje*
	@du -sh out/demo-plots

# demo-plots-docs: the README's pictures from make demo-plots (tracked
# files: run it on purpose, then commit).
demo-plots-docs: demo-plots
	cp out/demo-plots/demo/plots/gantt.png docs/demo-gantt.png
	cp out/demo-plots/pressure/plots/paging.png docs/demo-paging.png
	cp out/demo-plots/demo/plots/utilisation.png docs/demo-utilisation.png
	cp out/demo-plots/demo/plots/memory.png docs/demo-memory.png

# bench: a release build (asserts off) of everything, then bench/run.sh.
bench: deps
	@sh tools/deps.sh bench
	@$(MAKE) --no-print-directory BUILD=build-bench CFLAGS="-O2 -g -DNDEBUG" benches
	@sh bench/run.sh build-bench

# identical: build git revision REV (default HEAD) under build-identical/
# and the working tree under build-bench/, both as release builds, then
# bench/identical.sh compares their results byte for byte (exact
# speed-ups must not change any output).
REV ?= HEAD
identical: deps
	@rm -rf build-identical && mkdir -p build-identical/src
	git archive $(REV) | tar -x -C build-identical/src
	@$(MAKE) --no-print-directory -C build-identical/src BUILD=build CFLAGS="-O2 -g -DNDEBUG" build/pnrsim
	@$(MAKE) --no-print-directory BUILD=build-bench CFLAGS="-O2 -g -DNDEBUG" build-bench/pnrsim
	sh bench/identical.sh build-identical/src/build/pnrsim build-bench/pnrsim

# validate: the replays of docs/VALIDATION.md (configs/validation.ini):
# simulated against logged start times per bundled trace that records
# them, for the machine's documented scheduler, FCFS and EASY
# (pnrsim-plot validate; about 2 s), into out/validation/: the table
# validation.csv, the commands (commands.sh), a run and its errors.csv
# per row. Not in make check (tests/test_validate.sh is, on a slice).
.PHONY: validate
validate: all
	@sh tools/deps.sh plot
	./$(PLOT) validate --pnrsim ./$(PROG) -o out/validation configs/validation.ini

# study: the bundled memory-pressure study, with its plots.
study: deps
	@sh tools/deps.sh study
	@$(MAKE) --no-print-directory $(PROG) $(SWEEP)
	./$(SWEEP) configs/studies/memory-pressure.ini

# install also puts the public headers (PUBLIC_HEADERS) under
# PREFIX/include/pnrsim/ with their folders, and PREFIX/lib/pkgconfig/
# pnrsim.pc (Cflags -I${includedir}/pnrsim, no Libs: pnrsim provides the
# symbols), so that a plugin builds out of tree with
#   cc -shared -fPIC $(pkg-config --cflags pnrsim) my.c -o my.so
# (docs/PLUGINS.md), and the example plugins' sources beside the docs.
# install: the programs, man pages, configurations and traces, the bundled
# studies (share/pnrsim/configs/studies: their base = ../default.ini and
# trace = ../../traces/... resolve there as in the source tree) and the
# docs the man pages and README point to, with their pictures
# (share/doc/pnrsim).
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/pnrsim/configs $(DESTDIR)$(PREFIX)/share/pnrsim/traces
	install -m 755 $(PROG) $(DESTDIR)$(PREFIX)/bin/pnrsim
	$(if $(SWEEP),install -m 755 $(SWEEP) $(DESTDIR)$(PREFIX)/bin/pnrsim-sweep)
	install -m 755 $(GEN) $(DESTDIR)$(PREFIX)/bin/pnrsim-gen
	install -d $(DESTDIR)$(PREFIX)/share/pnrsim/python/pnrsim
	install -m 644 python/pnrsim/*.py $(DESTDIR)$(PREFIX)/share/pnrsim/python/pnrsim/
	sh tools/plot-wrapper.sh '$(PREFIX)/share/pnrsim/python' '$(VERSION_STR)' ../share/pnrsim/python > $(DESTDIR)$(PREFIX)/bin/pnrsim-plot
	chmod 755 $(DESTDIR)$(PREFIX)/bin/pnrsim-plot
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 644 $(MAN1) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(MAN5) $(DESTDIR)$(PREFIX)/share/man/man5/
	install -m 644 configs/*.ini configs/*.cfg $(DESTDIR)$(PREFIX)/share/pnrsim/configs/
	install -d $(DESTDIR)$(PREFIX)/share/pnrsim/configs/machines
	install -m 644 configs/machines/*.ini $(DESTDIR)$(PREFIX)/share/pnrsim/configs/machines/
	install -m 644 $(filter-out traces/curves,$(wildcard traces/*)) $(DESTDIR)$(PREFIX)/share/pnrsim/traces/
	install -d $(DESTDIR)$(PREFIX)/share/pnrsim/traces/curves
	$(if $(wildcard traces/curves/*.curve),install -m 644 traces/curves/*.curve $(DESTDIR)$(PREFIX)/share/pnrsim/traces/curves/)
	install -d $(DESTDIR)$(PREFIX)/share/pnrsim/configs/studies $(DESTDIR)$(PREFIX)/share/doc/pnrsim
	install -m 644 configs/studies/*.ini $(DESTDIR)$(PREFIX)/share/pnrsim/configs/studies/
	install -m 644 docs/*.md docs/*.png $(DESTDIR)$(PREFIX)/share/doc/pnrsim/
	install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/pnrsim/
	@$(MAKE) --no-print-directory install-dev
	$(if $(wildcard examples/plugins/*.c),install -d $(DESTDIR)$(PREFIX)/share/doc/pnrsim/examples/plugins && install -m 644 examples/plugins/*.c $(DESTDIR)$(PREFIX)/share/doc/pnrsim/examples/plugins/)

# install-dev: what a plugin builds against, alone (no program): the public
# headers and pnrsim.pc (tests/test_plugins.sh installs it so, with the
# build's own pnrsim, plain or sanitized).
.PHONY: install-dev
install-dev:
	for h in $(PUBLIC_HEADERS); do \
	    install -d $(DESTDIR)$(PREFIX)/include/pnrsim/$$(dirname $$h) && \
	    install -m 644 $$h $(DESTDIR)$(PREFIX)/include/pnrsim/$$h || exit 1; done
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION_STR)|' tools/pnrsim.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/pnrsim.pc

clean:
	rm -rf build build-asan build-bench build-fuzz build-identical out

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# check-layers: the dependency check (tools/check-layers.py, issue 24):
# fails on an include or call that runs up a layer or closes a circle
# inside a folder, on a function pointer named as a function, and on the
# map docs/ARCHITECTURE.md out of date (a .c file missing or out of its
# layer order, a function named there that does not exist); prints the
# layer order it found. The first step of make check.
.PHONY: check-layers
check-layers:
	@/usr/bin/python3 tools/check-layers.py --refs --macros --map docs/ARCHITECTURE.md
	@sh tools/check-public.sh $(PUBLIC_HEADERS)
