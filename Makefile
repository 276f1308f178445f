# Top-level entry points. Each target installs missing Debian packages first.
PRESET ?= release
WERROR ?= OFF
JOBS ?= $(shell nproc)
FILE ?=

.PHONY: deps configure build demo test bench test-sanitize clean

deps:
	@scripts/install-deps

configure: deps
	@cmake --preset $(PRESET) -DMARROW_WERROR=$(WERROR) >/dev/null

build: configure
	@cmake --build build/$(PRESET) -j $(JOBS)

demo: build
	@build/$(PRESET)/tools/marrow/marrow demo $(FILE)

test: build
	@ctest --test-dir build/$(PRESET) --output-on-failure -j $(JOBS)

bench: build
	@build/$(PRESET)/bench/marrow_bench --benchmark_counters_tabular=true

test-sanitize:
	@$(MAKE) --no-print-directory test PRESET=sanitize

clean:
	rm -rf build
