#pragma once
// Where the shared third-party assets are (../shared/assets); tests that need them skip with a
// message naming this path when it is absent.
#include <filesystem>

namespace marrow::test {

inline const std::filesystem::path kAssets = MARROW_SHARED_ASSETS;

}  // namespace marrow::test
