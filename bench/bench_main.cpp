// benchmark_main's main, plus the SIMD level in the run's context (console header and JSON
// "context"): results from different levels are not comparable, and MARROW_SIMD can lower it.
#include <string>

#include <benchmark/benchmark.h>

#include "marrow/runtime/simd_level.hpp"

int main(int argc, char** argv) {
  benchmark::AddCustomContext("simd", marrow::to_string(marrow::simd_choice()));
  benchmark::AddCustomContext("simd_supported", std::string(marrow::to_string(marrow::supported_simd_level())));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
