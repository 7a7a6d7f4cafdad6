#include "analyzer/cpp/cpp_hand.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace ilint {

namespace {
std::atomic<int>& hand_state() {  // -1: not read yet, 0: off, 1: on
  static std::atomic<int> state{-1};
  return state;
}
}  // namespace

bool cpp_hand_readers_enabled() {
  int s = hand_state().load(std::memory_order_relaxed);
  if (s < 0) {
    const char* env = std::getenv("ILINT_CPP_READER");
    s = env && std::strcmp(env, "clang") == 0 ? 0 : 1;
    hand_state().store(s, std::memory_order_relaxed);
  }
  return s == 1;
}

void set_cpp_hand_readers_enabled(bool on) { hand_state().store(on ? 1 : 0, std::memory_order_relaxed); }

}  // namespace ilint
