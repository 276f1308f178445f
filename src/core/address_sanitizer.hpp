#pragma once
// MARROW_ASAN is defined when this translation unit is built with AddressSanitizer: GCC says so
// with __SANITIZE_ADDRESS__, clang 14 only through __has_feature. (ASan reserves terabytes of
// address space and catches fatal signals itself, which changes what a worker-process limit or
// crash looks like.)
#if defined(__SANITIZE_ADDRESS__)
#define MARROW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MARROW_ASAN 1
#endif
#endif
