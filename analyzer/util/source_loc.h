// A position in an input file. Lines and columns are 1-based, as compilers print them.
#pragma once
#include <string>

namespace ilint {

struct SourceLoc {
  std::string file;  // path as found during ingest (or the user's path, for user source lines)
  int line = 0;
  int column = 0;

  bool valid() const { return !file.empty() && line > 0; }
  bool operator==(const SourceLoc&) const = default;
};

}  // namespace ilint
