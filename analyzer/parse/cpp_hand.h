// Hand readers of Inductor's C++: the kernels (`cpp_fused_*`) and the wrapper of cpp_wrapper=True
// compiles, read without Clang. Why: Clang's parse alone costs more than issue 7's whole budget on
// a C++ capture (docs/performance.md, sessions 12 and 14), while Inductor writes its C++ from a
// small, regular vocabulary. A hand reader reads that vocabulary and declines anything else, and
// a declined kernel or wrapper goes to the Clang reader as before; for what it accepts it fills
// exactly what the Clang reader fills (the unit tests compare the two on every fixture).
#pragma once

namespace ilint {

// False when the environment says ILINT_CPP_READER=clang (everything goes to Clang: the oracle
// the hand readers are checked against, and a way out should a hand reader be wrong); read once.
bool cpp_hand_readers_enabled();
// For tests: overrides the environment.
void set_cpp_hand_readers_enabled(bool on);

}  // namespace ilint
