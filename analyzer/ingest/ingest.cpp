#include "analyzer/ingest/ingest.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <system_error>
#include <thread>

namespace fs = std::filesystem;

namespace ilint {

namespace {

constexpr int kMaxDepth = 64;

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// Path pieces by string operations, as std::filesystem::path computes them for the paths the
// walk makes (a folder's path, '/', an entry's name): path's filename() and parent_path() parse
// the whole path into components, and were most of ingest's own instructions. A path with an
// empty component ("a//b") or a trailing '/' (only possible in what the user typed) goes
// through std::filesystem, which has rules of its own for those.
bool plain_path(std::string_view p) {
  return !p.empty() && p.back() != '/' && p.find("//") == std::string_view::npos;
}

std::string file_name_of(const std::string& p) {
  if (!plain_path(p)) return fs::path(p).filename().string();
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string parent_of(const std::string& p) {
  if (!plain_path(p)) return fs::path(p).parent_path().string();
  size_t slash = p.rfind('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : p.substr(0, slash);
}

// `dir` / `name`, as path's operator/ joins them (no separator added after one).
std::string join(const std::string& dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  std::string out;
  out.reserve(dir.size() + 1 + name.size());
  out = dir;
  if (out.back() != '/') out += '/';
  out += name;
  return out;
}

bool exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

// First bytes of a file, to classify it without reading all of it.
std::string head_of(const std::string& p, size_t n = 512) {
  std::ifstream in(p, std::ios::binary);
  std::string s(n, '\0');
  in.read(s.data(), static_cast<std::streamsize>(n));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

bool looks_like_trace_log(const std::string& p) {
  std::string h = head_of(p, 256);
  // Envelope lines: `V1202 12:16:11.824000 474 torch/_logging/structured.py:28] {"str": ...}`
  static const std::regex env(R"(^[VIWE]\d{4} [0-9:.]+ +\d+ [^\]]+\] \{)");
  return std::regex_search(h, env);
}

bool looks_like_fx_json(const std::string& p) {
  std::string h = head_of(p, 4096);
  return h.find("\"inductor_lint_fx_graph\"") != std::string::npos;
}

// Folders still to list, shared by the threads that walk. A thread takes one, lists it, hands
// its subfolders back, and stops when none is left and no other thread can add more.
class FolderQueue {
 public:
  void push(std::string dir, int depth) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      todo_.emplace_back(std::move(dir), depth);
    }
    cv_.notify_one();
  }
  // False when the walk is over. Otherwise the caller owns one folder until it calls done().
  bool pop(std::string& dir, int& depth) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !todo_.empty() || busy_ == 0; });
    if (todo_.empty()) return false;
    // Last in, first out: depth first, so the folders waiting stay few.
    dir = std::move(todo_.back().first);
    depth = todo_.back().second;
    todo_.pop_back();
    ++busy_;
    return true;
  }
  size_t waiting() {
    std::lock_guard<std::mutex> lock(mu_);
    return todo_.size();
  }
  void done() {
    bool over;
    {
      std::lock_guard<std::mutex> lock(mu_);
      over = --busy_ == 0 && todo_.empty();
    }
    if (over) cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::pair<std::string, int>> todo_;
  int busy_ = 0;
};

// What one walking thread finds. Nothing it adds depends on the order folders are visited in
// (ingest_paths merges the walkers' maps and sorts every list), so any split over threads
// gives the same IngestResult.
struct Walker {
  DiagSink& diags;
  IngestResult out;
  std::map<std::string, CompileFiles> compile_dirs;  // by folder path
  std::set<std::string> seen_files;
  // Whether the last folder asked about holds output_code.py or fx_graph_readable.py (the files
  // of a folder are classified one after the other: two stats per folder, not per file).
  std::string compile_dir_checked;
  bool compile_dir_answer = false;

  explicit Walker(DiagSink& d) : diags(d) {}

  // The files whose presence makes a folder a compile folder: asked of the file system here for
  // a file given directly, read off the listing by list_folder.
  static constexpr std::string_view kCompileFiles[] = {"output_code.py", "fx_graph_readable.py"};
  static bool names_compile_file(std::string_view name) {
    return std::find(std::begin(kCompileFiles), std::end(kCompileFiles), name) != std::end(kCompileFiles);
  }

  bool is_compile_dir(const std::string& dir) {
    if (compile_dir_checked.empty() || compile_dir_checked != dir) {
      compile_dir_checked = dir;
      compile_dir_answer = std::any_of(std::begin(kCompileFiles), std::end(kCompileFiles),
                                       [&](std::string_view f) { return exists(join(dir, f)); });
    }
    return compile_dir_answer;
  }

  void add_unique(std::vector<std::string>& v, const std::string& s) {
    if (seen_files.insert(s).second) v.push_back(s);
  }

  void classify_file(const std::string& path, bool given_directly) {
    const std::string name = file_name_of(path);
    const std::string parent_dir = parent_of(path);
    const std::string parent = file_name_of(parent_dir);
    if (name == "output_code.py" || name == "fx_graph_readable.py" || name == "fx_graph_runnable.py" ||
        name == "fx_graph_transformed.py" || name == "inductor_provenance_tracking_node_mappings.json") {
      if (given_directly && name == "output_code.py") {
        // A lone output_code.py: a compile of its own, even if siblings exist.
        CompileFiles cf;
        cf.output_code = path;
        out.compiles.push_back(cf);
        return;
      }
      if (!is_compile_dir(parent_dir)) return;
      CompileFiles& cf = compile_dirs[parent_dir];
      cf.dir = parent_dir;
      if (name == "output_code.py") cf.output_code = path;
      if (name == "fx_graph_readable.py") cf.fx_graph_readable = path;
      if (name == "fx_graph_runnable.py") cf.fx_graph_runnable = path;
      if (name == "fx_graph_transformed.py") cf.fx_graph_transformed = path;
      if (name == "inductor_provenance_tracking_node_mappings.json") cf.provenance_json = path;
      return;
    }
    if (name == "debug.log" && parent == "torchdynamo") return add_unique(out.dynamo_debug_logs, path);
    if (starts_with(name, "aot_model___") && ends_with(name, "_debug.log")) return add_unique(out.aot_debug_logs, path);
    if (ends_with(name, ".json") && looks_like_fx_json(path)) {
      // Beside an output_code.py it is that compile's graph; alone it is a compile of its own.
      if (!given_directly && is_compile_dir(parent_dir)) {
        CompileFiles& cf = compile_dirs[parent_dir];
        cf.dir = parent_dir;
        // Two graph JSONs in one folder: the last by name, whatever order the folder lists in.
        if (cf.fx_json.empty() || cf.fx_json.str() < path) cf.fx_json = path;
        return;
      }
      CompileFiles cf;
      cf.fx_json = path;
      out.compiles.push_back(cf);
      return;
    }
    if (starts_with(name, "dedicated_log_torch_trace") || (ends_with(name, ".log") && looks_like_trace_log(path)))
      return add_unique(out.trace_logs, path);
    if (name == "stderr.txt" || (given_directly && (ends_with(name, ".log") || ends_with(name, ".txt"))))
      return add_unique(out.torch_logs, path);
    if (name == "stdout.txt") return add_unique(out.capture_stdout, path);
    if (ends_with(name, ".py") && parent != "torchinductor" && !starts_with(parent, "model__") &&
        head_of(path, 64).find("torch") != std::string::npos)
      return add_unique(out.user_sources, path);
    if (given_directly) diags.warning("ingest-unknown-file", "not a file inductor-lint reads; ignored", SourceLoc{path, 0, 0});
  }

  // Lists one folder: its files are classified, its subfolders go to the queue. getdents64(2)
  // on a descriptor of our own: opendir(3) adds an fstat per folder, and directory_iterator
  // built and split a std::filesystem::path for every entry. Ingest is mostly system calls, and
  // on a VM each costs microseconds (docs/performance.md, 'Few system calls per file').
  void list_folder(const std::string& root, int depth, FolderQueue& queue) {
    if (depth > kMaxDepth) {
      diags.warning("ingest-too-deep", "folder nesting deeper than " + std::to_string(kMaxDepth) + "; not descended",
                    SourceLoc{root, 0, 0});
      return;
    }
    // The flags opendir(3) opens with: O_NONBLOCK so that a FIFO put in a folder's place cannot block.
    int fd = ::open(root.c_str(), O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      // As directory_iterator with skip_permission_denied: a folder we may not list is skipped.
      if (errno != EACCES)
        diags.warning("ingest-unreadable", "cannot list folder: " + std::error_code(errno, std::system_category()).message(),
                      SourceLoc{root, 0, 0});
      return;
    }
    // The whole listing first: whether the folder holds output_code.py or fx_graph_readable.py
    // (is_compile_dir) is then known from it, with no stat of either (one per compile folder).
    entries_.clear();
    bool holds_compile_file = false;
    alignas(8) char buf[32 * 1024];
    for (;;) {
      ssize_t n = ::getdents64(fd, buf, sizeof buf);
      if (n <= 0) break;  // the end, or a read error: what was listed stands
      for (ssize_t off = 0; off < n;) {
        const auto* e = reinterpret_cast<const struct dirent64*>(buf + off);
        off += e->d_reclen;
        std::string_view name(e->d_name);
        if (name == "." || name == "..") continue;
        Entry entry{join(root, name), e->d_type};
        if (entry.type == DT_UNKNOWN) {
          // Some file systems do not report types in the listing: ask the entry itself (not what
          // a link points to).
          struct stat st;
          if (::lstat(entry.path.c_str(), &st) != 0) continue;
          entry.type = S_ISLNK(st.st_mode) ? DT_LNK : S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
        }
        // What exists(path) answers: anything there but a dangling link.
        bool present = true;
        if (entry.type == DT_LNK) {
          // Files behind links are read; folders behind links are not entered (loops).
          struct stat st;
          present = ::stat(entry.path.c_str(), &st) == 0;
          entry.link_to_file = present && S_ISREG(st.st_mode);
        }
        if (present && names_compile_file(name)) holds_compile_file = true;
        entries_.push_back(std::move(entry));
      }
    }
    ::close(fd);
    compile_dir_checked = root;
    compile_dir_answer = holds_compile_file;
    for (Entry& e : entries_) {
      if (e.type == DT_LNK) {
        if (e.link_to_file) classify_file(e.path, false);
      } else if (e.type == DT_DIR) {
        queue.push(std::move(e.path), depth + 1);
      } else if (e.type == DT_REG) {
        classify_file(e.path, false);
      }
    }
  }

  // One folder's listing (list_folder), kept to reuse its capacity.
  struct Entry {
    std::string path;
    unsigned char type = DT_UNKNOWN;
    bool link_to_file = false;  // a link to a regular file
  };
  std::vector<Entry> entries_;

  // Lists folders until the walk is over; after_each() runs after each folder is listed.
  template <class AfterEach>
  void walk(FolderQueue& queue, AfterEach after_each) {
    std::string dir;
    int depth = 0;
    while (queue.pop(dir, depth)) {
      list_folder(dir, depth, queue);
      queue.done();
      after_each();
    }
  }
};

// `from`'s paths fill the fields `into` lacks (a folder reached through two given paths is
// listed twice, with the same files).
void merge_compile_files(CompileFiles& into, const CompileFiles& from) {
  for (auto [a, b] : {std::pair{&into.dir, &from.dir}, {&into.output_code, &from.output_code},
                      {&into.fx_graph_readable, &from.fx_graph_readable},
                      {&into.fx_graph_runnable, &from.fx_graph_runnable},
                      {&into.fx_graph_transformed, &from.fx_graph_transformed},
                      {&into.provenance_json, &from.provenance_json}})
    if (a->empty()) *a = *b;
  if (into.fx_json.empty() || into.fx_json.str() < from.fx_json.str()) into.fx_json = from.fx_json;
}

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

namespace {

// Everything `from` found, added to `into` as if `into` had found it next: a file already
// listed (given twice, or inside two given folders) keeps its first classification.
void merge_walker(Walker& into, Walker& from) {
  for (auto& [dir, cf] : from.compile_dirs) merge_compile_files(into.compile_dirs[dir], cf);
  into.out.compiles.insert(into.out.compiles.end(), from.out.compiles.begin(), from.out.compiles.end());
  for (auto [to, list] : {std::pair{&into.out.dynamo_debug_logs, &from.out.dynamo_debug_logs},
                          {&into.out.aot_debug_logs, &from.out.aot_debug_logs},
                          {&into.out.trace_logs, &from.out.trace_logs}, {&into.out.torch_logs, &from.out.torch_logs},
                          {&into.out.capture_stdout, &from.out.capture_stdout},
                          {&into.out.user_sources, &from.out.user_sources}})
    for (auto& f : *list) into.add_unique(*to, f);
}

// Walks one given folder on up to `threads` threads. Listing folders is most of ingest's time
// (getdents and a stat per compile folder); what each thread finds is merged into `into` in
// thread order, which cannot change the result: within one folder tree no file is found twice.
// With `folders_per_thread` > 0 the calling thread walks alone until that many folders wait to be
// listed, and a further thread joins at each further multiple: a debug dir of a few compiles is
// walked on one thread, since a second one costs more than it saves there (docs/performance.md,
// 'Threads fitted to the input').
int walk_folder(const std::string& root, int threads, size_t folders_per_thread, Walker& into) {
  FolderQueue queue;
  queue.push(root, 0);
  std::vector<std::unique_ptr<Walker>> walkers;
  for (int t = 0; t < threads; ++t) walkers.push_back(std::make_unique<Walker>(into.diags));
  std::vector<std::thread> pool;
  auto all_started = [&] { return static_cast<int>(pool.size()) + 1 >= threads; };
  auto start_helpers = [&](size_t waiting) {
    while (!all_started() && (folders_per_thread == 0 || waiting >= folders_per_thread * (pool.size() + 1))) {
      int t = static_cast<int>(pool.size()) + 1;
      pool.emplace_back([&, t] { walkers[t]->walk(queue, [] {}); });
    }
  };
  start_helpers(1);
  // Only this thread starts helpers; the queue's lock is taken for its count only while some
  // are still to start.
  walkers[0]->walk(queue, [&] {
    if (!all_started()) start_helpers(queue.waiting());
  });
  for (auto& t : pool) t.join();
  for (auto& w : walkers) merge_walker(into, *w);
  return static_cast<int>(pool.size()) + 1;
}

}  // namespace

IngestResult ingest_paths(const std::vector<std::string>& paths, DiagSink& diags, int jobs,
                          size_t folders_per_thread) {
  Walker w(diags);
  // The paths in the order given: a file named twice keeps what the first naming made of it.
  for (const auto& p : paths) {
    std::error_code ec;
    fs::path path(p);
    auto st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
      diags.error("ingest-missing", "no such file or folder", SourceLoc{p, 0, 0});
      continue;
    }
    if (fs::is_directory(st)) {
      int threads = walk_folder(p, std::max(1, jobs), folders_per_thread, w);
      w.out.walk_threads = std::max(w.out.walk_threads, threads);
    } else if (fs::is_regular_file(st)) {
      w.classify_file(p, true);
    } else {
      diags.error("ingest-unreadable", "not a regular file or folder", SourceLoc{p, 0, 0});
    }
  }
  IngestResult& out = w.out;
  for (auto& [dir, cf] : w.compile_dirs) {
    // The run_* folder two levels up (run_*/torchinductor/model__...).
    std::string up = parent_of(dir);
    if (!up.empty() && file_name_of(up) == "torchinductor") cf.run_dir = parent_of(up);
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
  return std::move(out);
}

}  // namespace ilint
