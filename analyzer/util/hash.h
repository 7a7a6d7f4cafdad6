// Non-cryptographic hashes of text, one place for the whole analyzer.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace ilint {

// One step of the multiply-rotate hash rustc's FxHasher uses, and a finalizer that mixes into
// the low bits the tables index by. std::hash's was a fifth of the interning time.
inline constexpr uint64_t kHashMul = 0x517cc1b727220a95ull;
inline uint64_t hash_step(uint64_t h, uint64_t word) { return (std::rotl(h, 5) ^ word) * kHashMul; }
inline uint64_t hash_finish(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

// Hash of a text, 8 bytes per step: the interning tables' key, and the checksum of the
// precompiled prelude files (analyzer/cpp/clang/clang_common.cpp).
inline uint64_t text_hash(std::string_view s) {
  uint64_t h = s.size() * kHashMul;
  const char* p = s.data();
  size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = hash_step(h, w);
  }
  if (n) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = hash_step(h, w);
  }
  return hash_finish(h);
}

// 64-bit FNV-1a, a byte at a time, continuing from `h`: finding fingerprints (their values are
// part of baselines and SARIF, so this function must never change) and the C++ parse cache's key.
inline constexpr uint64_t kFnv1aOffset = 1469598103934665603ull;
inline uint64_t fnv1a(std::string_view s, uint64_t h = kFnv1aOffset) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace ilint
