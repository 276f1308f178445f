#pragma once
// Whether two paths name one file, and the refusal every writer of marrow's tools makes before it
// writes: an output that is one of its inputs (`marrow convert`, `marrow retarget`, `marrow match
// build`, Python's convert()). A tool that wrote there would replace the file it read, often a
// file the user has no other copy of.
#include <filesystem>
#include <span>

namespace marrow {

// The path's file, whether or not it exists yet: absolute, `.`, `..` and symbolic links resolved
// as far as the path exists.
std::filesystem::path file_identity(const std::filesystem::path& path);

// Throws std::invalid_argument naming both paths when `out` is the same file as one of `inputs`.
void refuse_writing_over(const std::filesystem::path& out, std::span<const std::filesystem::path> inputs);

}  // namespace marrow
