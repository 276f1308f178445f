// The pose kernels for sse2 (see pose_kernels.inl; CMake sets this file's instruction set).
#define MARROW_SIMD_NS sse2
#include "pose_kernels.inl"
