#include "analyzer/util/install_layout.h"

#include <unistd.h>

#include <climits>
#include <filesystem>

namespace ilint {

std::string executable_dir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  std::string exe(buf, static_cast<size_t>(n));
  return exe.substr(0, exe.rfind('/'));
}

std::string companion_file(const std::string& relative) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // The installed layout first: an installed binary must not read the docs or run the tools of a
  // source tree that happens to exist where it was built.
  if (std::string dir = executable_dir(); !dir.empty()) {
    fs::path p = fs::path(dir).parent_path() / relative;
    if (fs::is_regular_file(p, ec)) return p.lexically_normal().string();
  }
#ifdef ILINT_SOURCE_DIR
  fs::path p = fs::path(ILINT_SOURCE_DIR) / relative;
  if (fs::is_regular_file(p, ec)) return p.string();
#endif
  return "";
}

}  // namespace ilint
