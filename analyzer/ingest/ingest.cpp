#include "analyzer/ingest/ingest.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <system_error>

namespace fs = std::filesystem;

namespace ilint {

namespace {

constexpr int kMaxDepth = 64;

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// First bytes of a file, to classify it without reading all of it.
std::string head_of(const fs::path& p, size_t n = 512) {
  std::ifstream in(p, std::ios::binary);
  std::string s(n, '\0');
  in.read(s.data(), static_cast<std::streamsize>(n));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

bool looks_like_trace_log(const fs::path& p) {
  std::string h = head_of(p, 256);
  // Envelope lines: `V1202 12:16:11.824000 474 torch/_logging/structured.py:28] {"str": ...}`
  static const std::regex env(R"(^[VIWE]\d{4} [0-9:.]+ +\d+ [^\]]+\] \{)");
  return std::regex_search(h, env);
}

bool looks_like_fx_json(const fs::path& p) {
  std::string h = head_of(p, 4096);
  return h.find("\"inductor_lint_fx_graph\"") != std::string::npos;
}

struct Walker {
  DiagSink& diags;
  IngestResult& out;
  std::map<std::string, CompileFiles> compile_dirs;  // by folder path
  std::set<std::string> seen_files;
  // Whether the last folder asked about holds output_code.py or fx_graph_readable.py (the files
  // of a folder are classified one after the other: two stats per folder, not per file).
  std::string compile_dir_checked;
  bool compile_dir_answer = false;

  bool is_compile_dir(const fs::path& dir) {
    if (compile_dir_checked.empty() || compile_dir_checked != dir.native()) {
      compile_dir_checked = dir.native();
      compile_dir_answer = fs::exists(dir / "output_code.py") || fs::exists(dir / "fx_graph_readable.py");
    }
    return compile_dir_answer;
  }

  void add_unique(std::vector<std::string>& v, const std::string& s) {
    if (seen_files.insert(s).second) v.push_back(s);
  }

  void classify_file(const fs::path& p, bool given_directly) {
    std::string name = p.filename().string();
    std::string parent = p.parent_path().filename().string();
    std::string path = p.string();
    if (name == "output_code.py" || name == "fx_graph_readable.py" || name == "fx_graph_runnable.py" ||
        name == "fx_graph_transformed.py" || name == "inductor_provenance_tracking_node_mappings.json") {
      if (given_directly && name == "output_code.py") {
        // A lone output_code.py: a compile of its own, even if siblings exist.
        CompileFiles cf;
        cf.output_code = path;
        out.compiles.push_back(cf);
        return;
      }
      fs::path parent_dir = p.parent_path();
      if (!is_compile_dir(parent_dir)) return;
      std::string dir = parent_dir.string();
      CompileFiles& cf = compile_dirs[dir];
      cf.dir = dir;
      if (name == "output_code.py") cf.output_code = path;
      if (name == "fx_graph_readable.py") cf.fx_graph_readable = path;
      if (name == "fx_graph_runnable.py") cf.fx_graph_runnable = path;
      if (name == "fx_graph_transformed.py") cf.fx_graph_transformed = path;
      if (name == "inductor_provenance_tracking_node_mappings.json") cf.provenance_json = path;
      return;
    }
    if (name == "debug.log" && parent == "torchdynamo") return add_unique(out.dynamo_debug_logs, path);
    if (starts_with(name, "aot_model___") && ends_with(name, "_debug.log")) return add_unique(out.aot_debug_logs, path);
    if (ends_with(name, ".json") && looks_like_fx_json(p)) {
      // Beside an output_code.py it is that compile's graph; alone it is a compile of its own.
      if (!given_directly && (fs::exists(p.parent_path() / "output_code.py") ||
                              fs::exists(p.parent_path() / "fx_graph_readable.py"))) {
        CompileFiles& cf = compile_dirs[p.parent_path().string()];
        cf.dir = p.parent_path().string();
        cf.fx_json = path;
        return;
      }
      CompileFiles cf;
      cf.fx_json = path;
      out.compiles.push_back(cf);
      return;
    }
    if (starts_with(name, "dedicated_log_torch_trace") || (ends_with(name, ".log") && looks_like_trace_log(p)))
      return add_unique(out.trace_logs, path);
    if (name == "stderr.txt" || (given_directly && (ends_with(name, ".log") || ends_with(name, ".txt"))))
      return add_unique(out.torch_logs, path);
    if (name == "stdout.txt") return add_unique(out.capture_stdout, path);
    if (ends_with(name, ".py") && parent != "torchinductor" && !starts_with(parent, "model__") &&
        head_of(p, 64).find("torch") != std::string::npos)
      return add_unique(out.user_sources, path);
    if (given_directly) diags.warning("ingest-unknown-file", "not a file inductor-lint reads; ignored", SourceLoc{path, 0, 0});
  }

  void walk(const fs::path& root, int depth) {
    if (depth > kMaxDepth) {
      diags.warning("ingest-too-deep", "folder nesting deeper than " + std::to_string(kMaxDepth) + "; not descended",
                    SourceLoc{root.string(), 0, 0});
      return;
    }
    std::error_code ec;
    fs::directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
      diags.warning("ingest-unreadable", "cannot list folder: " + ec.message(), SourceLoc{root.string(), 0, 0});
      return;
    }
    std::vector<fs::directory_entry> entries;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      entries.push_back(*it);
    }
    // In path order. All entries share the folder, so that is the order of their last components
    // as strings (compared without building a path per comparison).
    auto last = [](const fs::directory_entry& e) {
      std::string_view n = e.path().native();
      size_t slash = n.rfind('/');
      return slash == std::string_view::npos ? n : n.substr(slash + 1);
    };
    std::sort(entries.begin(), entries.end(), [&](auto& a, auto& b) { return last(a) < last(b); });
    for (auto& e : entries) {
      std::error_code ec2;
      if (e.is_symlink(ec2)) {
        // Files behind links are read; folders behind links are not entered (loops).
        if (fs::is_regular_file(e.path(), ec2)) classify_file(e.path(), false);
        continue;
      }
      if (e.is_directory(ec2)) {
        walk(e.path(), depth + 1);
      } else if (e.is_regular_file(ec2)) {
        classify_file(e.path(), false);
      }
    }
  }
};

}  // namespace

bool parse_compile_dir_name(const std::string& name, int& model_index, std::string& kind, std::string& trailing) {
  // What std::regex_match of ^.*?__(\d+)_(forward|backward|inference)_(.+)$ (ECMAScript) finds,
  // by one scan: the lazy prefix tries each "__" from the left and the rest is forced (the
  // digits stop at '_', the three kinds exclude each other). '.' matches anything but '\n' and
  // '\r', so the prefix cannot cross one and the trailing part cannot hold one.
  const size_t n = name.size();
  const size_t line_end = name.find_first_of("\n\r");
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t p = name.find("__"); p != std::string::npos && p <= line_end; p = name.find("__", p + 1)) {
    size_t d = p + 2, e = d;
    while (e < n && is_digit(name[e])) ++e;
    if (e == d || e >= n || name[e] != '_') continue;
    std::string_view rest(name.data() + e + 1, n - e - 1);
    for (std::string_view k : {"forward", "backward", "inference"}) {
      if (rest.size() <= k.size() || rest.compare(0, k.size(), k) != 0 || rest[k.size()] != '_') continue;
      std::string_view tail = rest.substr(k.size() + 1);
      if (tail.empty() || tail.find_first_of("\n\r") != std::string_view::npos) break;
      // from_chars, not stoi: a folder named model__99999999999_forward_0 threw out_of_range.
      const char* digits = name.data() + d;
      auto [end, ec] = std::from_chars(digits, name.data() + e, model_index);
      if (ec != std::errc() || end != name.data() + e) model_index = -1;
      kind = std::string(k);
      trailing = std::string(tail);
      return true;
    }
  }
  return false;
}

IngestResult ingest_paths(const std::vector<std::string>& paths, DiagSink& diags) {
  IngestResult out;
  Walker w{diags, out, {}, {}, {}, false};
  for (const auto& p : paths) {
    std::error_code ec;
    fs::path path(p);
    auto st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
      diags.error("ingest-missing", "no such file or folder", SourceLoc{p, 0, 0});
      continue;
    }
    if (fs::is_directory(st)) {
      w.walk(path, 0);
    } else if (fs::is_regular_file(st)) {
      w.classify_file(path, true);
    } else {
      diags.error("ingest-unreadable", "not a regular file or folder", SourceLoc{p, 0, 0});
    }
  }
  for (auto& [dir, cf] : w.compile_dirs) {
    // The run_* folder two levels up (run_*/torchinductor/model__...).
    fs::path d(dir);
    if (d.has_parent_path() && d.parent_path().filename() == "torchinductor")
      cf.run_dir = d.parent_path().parent_path().string();
    if (cf.output_code.empty() && !cf.fx_graph_readable.empty())
      diags.warning("ingest-missing-file", "compile folder has no output_code.py; only its FX graph is analyzed",
                    SourceLoc{dir, 0, 0});
    out.compiles.push_back(cf);
  }
  auto key = [](const CompileFiles& c) {
    return !c.dir.empty() ? c.dir : (!c.output_code.empty() ? c.output_code : c.fx_json);
  };
  std::sort(out.compiles.begin(), out.compiles.end(), [&](auto& a, auto& b) { return key(a) < key(b); });
  for (auto* v : {&out.dynamo_debug_logs, &out.aot_debug_logs, &out.trace_logs, &out.torch_logs,
                  &out.capture_stdout, &out.user_sources})
    std::sort(v->begin(), v->end());
  return out;
}

}  // namespace ilint
