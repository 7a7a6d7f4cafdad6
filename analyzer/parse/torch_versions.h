// The torch releases whose output the readers are tested on: fixtures/ holds real captures of each
// (2.11 on CUDA and the CPU; 2.12, 2.13 and 2.14 on the CPU, in fixtures/versions/), and
// docs/torch-versions.md says what changed between them.
#pragma once
#include <string_view>

namespace ilint {

inline constexpr std::string_view kTestedTorchReleases[] = {"2.11", "2.12", "2.13", "2.14"};
inline constexpr const char* kTestedTorchText = "torch 2.11 to 2.14";

// "2.13.0+cpu" -> true; "2.15.0.dev20260901" -> false.
inline bool is_tested_torch_version(std::string_view version) {
  for (std::string_view r : kTestedTorchReleases)
    if (version.size() > r.size() && version.substr(0, r.size()) == r && version[r.size()] == '.') return true;
  return false;
}

}  // namespace ilint
