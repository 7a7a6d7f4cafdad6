#include "analyzer/model/user_source_lines.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace ilint {

UserSourceLines::UserSourceLines(const Program& program, std::vector<std::string> roots, bool read_files)
    : program_(program), roots_(std::move(roots)), read_files_(read_files) {}

bool UserSourceLines::readable(const std::string& file) {
  if (roots_.empty()) return true;
  auto [it, fresh] = readable_.try_emplace(file, false);
  if (fresh) {
    std::error_code ec;
    std::string real = fs::weakly_canonical(fs::absolute(file, ec), ec).string();
    for (const auto& root : roots_)
      if (!ec && real.size() > root.size() && real.compare(0, root.size(), root) == 0 &&
          (root.back() == '/' || real[root.size()] == '/'))
        it->second = true;
  }
  return it->second;
}

void UserSourceLines::want(const SourceLoc& loc) {
  if (loc.valid() && read_files_ && readable(loc.file.str())) files_.want(loc.file, loc.line);
}

UserSourceLine UserSourceLines::line(const SourceLoc& loc) {
  UserSourceLine out;
  if (!loc.valid()) return out;
  bool allowed = readable(loc.file.str());
  if (read_files_ && allowed) {
    if (const std::string* text = files_.line(loc.file, loc.line)) {
      out.text = *text;
      out.from = UserSourceLine::From::File;
      return out;
    }
  }
  out.outside_roots = !allowed;
  if (!fx_code_made_) {
    fx_code_made_ = true;
    for (const auto& c : program_.compiles)
      for (const auto& n : c.fx.nodes)
        if (n.user_loc() && !n.user_code().empty()) {
          fx_code_.emplace(std::pair{fs::path(n.user_loc()->file.str()).filename().string(), n.user_loc()->line},
                           n.user_code().str());
          fx_code_path_.emplace(std::pair{n.user_loc()->file.str(), n.user_loc()->line}, n.user_code().str());
        }
  }
  if (auto exact = fx_code_path_.find({loc.file.str(), loc.line}); exact != fx_code_path_.end()) {
    out.text = exact->second;
    out.from = UserSourceLine::From::FxComment;
    out.same_path = true;
    return out;
  }
  auto it = fx_code_.find({fs::path(loc.file.str()).filename().string(), loc.line});
  if (it != fx_code_.end()) {
    out.text = it->second;
    out.from = UserSourceLine::From::FxComment;
  }
  return out;
}

}  // namespace ilint
