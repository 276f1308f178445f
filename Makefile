# Top-level entry points. Each target installs missing Debian packages first.
PRESET ?= release
WERROR ?= OFF
JOBS ?= $(shell nproc)
FILE ?=

TARGET ?= import_gltf
SECONDS ?= 60
FUZZ_TARGETS := gltf_json glb import_gltf native bvh compressed_clip assimp morph_blend player jobs animator draco meshopt humanoid_map bone_map graph motion_database

.PHONY: deps configure build demo test test-simd-levels bench test-sanitize test-tsan fuzz fuzz-smoke clean

deps:
	@scripts/install-deps

configure: deps
	@cmake --preset $(PRESET) -DMARROW_WERROR=$(WERROR) >/dev/null

build: configure
	@cmake --build build/$(PRESET) -j $(JOBS)

# The demo's pictures go to build/<preset>/demo (it prints where), never into the source tree.
demo: build
	@build/$(PRESET)/tools/marrow/marrow demo $(FILE) --out build/$(PRESET)/demo

test: build
	@ctest --test-dir build/$(PRESET) --output-on-failure -j $(JOBS) $(CTEST_FLAGS)

# The suite again at every other SIMD level: native where the processor has it, else emulated.
test-simd-levels: build
	@scripts/test-simd-levels build/$(PRESET) $(JOBS)

bench: build
	@build/$(PRESET)/bench/marrow_bench --benchmark_counters_tabular=true

# ASan + UBSan (clang): one build holds the suite and the libFuzzer targets (make fuzz, fuzz-smoke).
# The CLI feature test (hundreds of CLI runs over every shared asset, 25 s in Release) takes
# 4.5 min under ASan: the Release suite runs it; the fuzz targets cover its code instrumented.
test-sanitize:
	@$(MAKE) --no-print-directory test PRESET=sanitize WERROR=$(WERROR) CTEST_FLAGS='-E ^Cli\.FeaturesOnEverySharedAsset$$'

# The threaded tests (X5) under ThreadSanitizer.
test-tsan: deps
	@cmake --preset tsan -DMARROW_WERROR=$(WERROR) >/dev/null
	@cmake --build build/tsan -j $(JOBS) --target marrow_threaded_tests
	@TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ctest --test-dir build/tsan --output-on-failure -j $(JOBS) -R X5_

# make fuzz TARGET=import_gltf SECONDS=600: one libFuzzer target with its seed corpus.
fuzz: deps
	@cmake --preset sanitize -DMARROW_WERROR=$(WERROR) >/dev/null
	@cmake --build build/sanitize -j $(JOBS) --target fuzz_$(TARGET)
	@scripts/fuzz-run $(TARGET) $(SECONDS)

# Every fuzz target for 20 seconds (CI), as many at once as there are cores.
fuzz-smoke: deps
	@cmake --preset sanitize -DMARROW_WERROR=$(WERROR) >/dev/null
	@cmake --build build/sanitize -j $(JOBS)
	@scripts/fuzz-smoke 20 $(JOBS) $(FUZZ_TARGETS)

clean:
	rm -rf build
