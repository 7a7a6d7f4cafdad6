// Hand readers of Inductor's C++: the kernels (`cpp_fused_*`) and the wrapper of cpp_wrapper=True
// compiles, read without Clang. Why: on a C++ capture, loading Clang and its parse alone cost more
// than the whole analysis may (0.25x Python's parse; docs/performance.md, 'Inductor's C++ read by
// hand'), while Inductor writes its C++ from a small, regular vocabulary. A hand reader reads that
// vocabulary and declines anything else; a declined kernel or wrapper goes to Clang as before, and
// for what it accepts it fills exactly what the Clang reader fills (unit tests compare both on every fixture).
#pragma once

namespace ilint {

// False when the environment says ILINT_CPP_READER=clang (everything goes to Clang: the oracle
// the hand readers are checked against, and a way out should a hand reader be wrong); read once.
bool cpp_hand_readers_enabled();
// For tests: overrides the environment.
void set_cpp_hand_readers_enabled(bool on);

}  // namespace ilint
