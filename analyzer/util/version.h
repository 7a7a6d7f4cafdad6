// The tool's version, one source: CMake's project(VERSION), passed to every target as ILINT_VERSION.
#pragma once

#ifndef ILINT_VERSION
#define ILINT_VERSION "0.0.0"
#endif

namespace ilint {
inline constexpr const char* kToolVersion = ILINT_VERSION;
}  // namespace ilint
