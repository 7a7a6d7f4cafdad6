// Where the binary's companion files are. One layout for the build tree and for an installed copy
// (the wheel, `cmake --install`): the executable, libilint-clang.so and ilint-pch/ side by side in
// a `bin/` folder, the rule docs and the Python tools beside that folder:
//
//   <root>/bin/inductor-lint   <root>/bin/libilint-clang.so   <root>/bin/ilint-pch/*.pch
//   <root>/rules/<id>.md       <root>/tools/confirm.py, localize.py, capture.py
//
// In the build tree <root> is whatever holds build/ (the source tree, when the build folder is the
// usual one), and the source tree the binary was built from is the fallback.
#pragma once
#include <string>

namespace ilint {

// The folder of the running executable (/proc/self/exe), or empty when it cannot be read.
std::string executable_dir();

// The companion file `relative` ("rules/nan-check.md", "tools/confirm.py"): under the folder above
// the executable's, else under the source tree the binary was built from; empty when neither has it.
std::string companion_file(const std::string& relative);

}  // namespace ilint
