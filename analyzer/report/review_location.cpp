#include "analyzer/report/review_location.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace ilint {

GeneratedFiles::GeneratedFiles(const IngestResult& in) {
  auto add_dir = [&](const std::string& d) {
    if (!d.empty()) dirs_.push_back(d.back() == '/' ? d : d + "/");
  };
  for (const auto& c : in.compiles) {
    add_dir(c.dir.str());
    add_dir(c.run_dir.str());
    for (const FilePath* p : {&c.output_code, &c.fx_graph_readable, &c.fx_graph_runnable, &c.fx_graph_transformed,
                              &c.provenance_json, &c.fx_json})
      if (!p->empty()) files_.push_back(p->str());
  }
  for (const auto* list : {&in.dynamo_debug_logs, &in.aot_debug_logs, &in.trace_logs, &in.torch_logs, &in.capture_stdout})
    files_.insert(files_.end(), list->begin(), list->end());
  std::sort(files_.begin(), files_.end());
  files_.erase(std::unique(files_.begin(), files_.end()), files_.end());
  std::sort(dirs_.begin(), dirs_.end());
  dirs_.erase(std::unique(dirs_.begin(), dirs_.end()), dirs_.end());
}

bool GeneratedFiles::contains(std::string_view file) const {
  if (std::binary_search(files_.begin(), files_.end(), file)) return true;
  // Each folder above the file, looked up: a path has a dozen, an input may have 100k folders.
  for (size_t slash = file.find('/'); slash != std::string_view::npos; slash = file.find('/', slash + 1))
    if (std::binary_search(dirs_.begin(), dirs_.end(), file.substr(0, slash + 1))) return true;
  return false;
}

bool is_library_file(std::string_view file) {
  for (std::string_view part : {"/site-packages/", "/dist-packages/", "/lib/python"})
    if (file.find(part) != std::string_view::npos) return true;
  return false;
}

std::vector<SourceLoc> user_locations(const Finding& f, const GeneratedFiles& generated) {
  std::vector<SourceLoc> own, library;
  auto add = [&](const SourceLoc& l) {
    if (!l.valid() || generated.contains(l.file.str())) return;
    auto& list = is_library_file(l.file.str()) ? library : own;
    if (std::find(list.begin(), list.end(), l) == list.end()) list.push_back(l);
  };
  add(f.location);
  for (const auto& r : f.related) add(r.loc);
  own.insert(own.end(), library.begin(), library.end());
  return own;
}

SourceLoc review_location(const Finding& f, const GeneratedFiles& generated) {
  auto users = user_locations(f, generated);
  return users.empty() ? f.location : users.front();
}

std::string path_under_root(const std::string& path, const std::string& root) {
  if (root.empty() || path.empty() || fs::path(path).is_relative()) return path;
  fs::path rel = fs::path(path).lexically_normal().lexically_relative(fs::path(root).lexically_normal());
  std::string r = rel.generic_string();
  if (rel.empty() || r == "." || r.rfind("..", 0) == 0) return path;
  return r;
}

}  // namespace ilint
