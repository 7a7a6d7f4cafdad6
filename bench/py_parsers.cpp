// Cost of the Python-side readers alone (no Clang, no rules, no report): the tokenizer, the
// parser, and the output_code.py / fx_graph_readable.py readers (with the Triton kernel reader
// they call), over every such file under the given folders. Not a test: prints numbers.
//
//   bench_py_parsers [--repeat N] [--stage load|tokenize|parse|read|all] PATH...
//   bench_py_parsers --dump OUT PATH...   # writes every parse tree, for comparing two builds
//
// Files are read into memory once before timing. Each stage is run N times (default 5); the
// table shows the minimum CPU (user+sys) and wall time of the rounds. C++ kernels and C++
// wrappers are not read (no Clang reader is installed here), so those captures only cost their
// Python part.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/parse/fx_text.h"
#include "analyzer/parse/output_code.h"
#include "analyzer/parse/python.h"
#include "analyzer/util/read_file.h"

namespace fs = std::filesystem;
using namespace ilint;

namespace {

struct Input {
  std::string path;
  bool is_output_code = false;
  std::string text;
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// ---- The --dump mode: a text form of every token stream (hashed) and parse tree (in full).

uint64_t fnv(uint64_t h, const void* p, size_t n) {
  auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
template <class T>
uint64_t fnv_val(uint64_t h, const T& v) {
  return fnv(h, &v, sizeof v);
}
uint64_t fnv_str(uint64_t h, std::string_view s) {
  h = fnv_val(h, s.size());
  return fnv(h, s.data(), s.size());
}

struct Dumper {
  std::FILE* out;
  const py::Module* m = nullptr;

  void str(std::string_view s) {
    std::fputc('"', out);
    for (char c : s) {
      if (c == '\n') std::fputs("\\n", out);
      else if (c == '"' || c == '\\') std::fprintf(out, "\\%c", c);
      else std::fputc(c, out);
    }
    std::fputc('"', out);
  }

  void expr(const py::Expr* e, int depth) {
    if (!e) {
      std::fputs("null", out);
      return;
    }
    std::fprintf(out, "(%d ", static_cast<int>(e->kind));
    str(e->text);
    std::fprintf(out, " @%d:%d [%zu,%zu) ", e->line, e->col, static_cast<size_t>(e->begin), static_cast<size_t>(e->end));
    str(m->text_of(*e));
    if (e->func) {
      std::fputs(" func=", out);
      expr(&*e->func, depth + 1);
    }
    if (!e->items.empty()) {
      std::fprintf(out, " items%zu=[", static_cast<size_t>(e->items.size()));
      for (const auto& i : e->items) {
        expr(i ? &*i : nullptr, depth + 1);
        std::fputc(' ', out);
      }
      std::fputc(']', out);
    }
    if (!e->kwargs.empty()) {
      std::fputs(" kw=[", out);
      for (const auto& kv : e->kwargs) {
        str(kv.first);
        std::fputc('=', out);
        expr(kv.second ? &*kv.second : nullptr, depth + 1);
        std::fputc(' ', out);
      }
      std::fputc(']', out);
    }
    std::fprintf(out, " dotted=%s)", e->dotted().c_str());
  }

  void module(const std::string& label, const py::Module& mod) {
    m = &mod;
    std::fprintf(out, "== %s: %zu stmts, %zu issues, line_offset %d, %zu bytes\n", label.c_str(), mod.stmts.size(),
                 mod.issues.size(), mod.line_offset, static_cast<size_t>(mod.source.size()));
    for (const auto& i : mod.issues) std::fprintf(out, "issue %d:%d %s\n", i.line, i.col, i.message.c_str());
    for (const auto& s : mod.stmts) {
      std::fprintf(out, "stmt %d ind=%d @%d:%d [%zu,%zu) def_depth=%d def=", static_cast<int>(s.kind), s.indent, s.line,
                   s.col, static_cast<size_t>(s.begin), static_cast<size_t>(s.end), s.def_depth);
      str(s.enclosing_def);
      std::fputs(" name=", out);
      str(s.name);
      std::fputs(" trailing=", out);
      str(s.trailing_comment);
      std::fputc('\n', out);
      for (const auto& c : s.comments_above) {
        std::fprintf(out, "  comment %d @%d:%d [%zu,%zu) ", static_cast<int>(c.kind), c.line, c.col,
                     static_cast<size_t>(c.begin), static_cast<size_t>(c.end));
        str(c.text);
        std::fputc('\n', out);
      }
      for (const auto& t : s.targets) {
        std::fputs("  target ", out);
        expr(t ? &*t : nullptr, 0);
        std::fputc('\n', out);
      }
      if (s.value) {
        std::fputs("  value ", out);
        expr(&*s.value, 0);
        std::fputc('\n', out);
      }
      if (s.annotation) {
        std::fputs("  annotation ", out);
        expr(&*s.annotation, 0);
        std::fputc('\n', out);
      }
      for (const auto& p : s.params) {
        std::fputs("  param ", out);
        str(p.first);
        std::fputc(' ', out);
        expr(p.second ? &*p.second : nullptr, 0);
        std::fputc('\n', out);
      }
    }
  }

  void tokens(const std::string& label, std::string_view src) {
    std::vector<py::ParseIssue> issues;
    auto toks = py::tokenize(src, &issues);
    uint64_t h = 1469598103934665603ull;
    for (const auto& t : toks) {
      h = fnv_val(h, static_cast<int>(t.kind));
      // Indent tokens are checked through Stmt::indent (their text was the width as digits).
      if (t.kind != py::Tok::Indent) h = fnv_str(h, t.text);
      h = fnv_val(h, t.line);
      h = fnv_val(h, t.col);
      h = fnv_val(h, static_cast<size_t>(t.begin));
      h = fnv_val(h, static_cast<size_t>(t.end));
      h = fnv_val(h, t.triple);
      h = fnv_str(h, t.prefix);
      h = fnv_val(h, t.content_line);
    }
    for (const auto& i : issues) {
      h = fnv_val(h, i.line);
      h = fnv_val(h, i.col);
      h = fnv_str(h, i.message);
    }
    std::fprintf(out, "tokens %s: %zu, hash %016llx\n", label.c_str(), toks.size(), static_cast<unsigned long long>(h));
  }
};

void dump_all(const std::vector<Input>& inputs, const char* file) {
  std::FILE* out = std::fopen(file, "w");
  if (!out) {
    std::perror(file);
    std::exit(2);
  }
  Dumper d{out};
  for (const auto& in : inputs) {
    d.tokens(in.path, in.text);
    py::Module m = py::parse_module(in.text);
    d.module(in.path, m);
    if (!in.is_output_code) continue;
    // The Triton kernel sources, parsed the way read_triton_kernel parses them.
    for (const auto& s : m.stmts) {
      if (s.def_depth != 0 || s.kind != py::Stmt::Assign || !s.value || s.value->kind != py::Expr::Call ||
          !s.value->func || s.value->func->dotted() != "async_compile.triton" || s.value->items.size() < 2)
        continue;
      const py::Expr& src = *s.value->items[1];
      if (src.kind != py::Expr::String) continue;
      std::string label = in.path + " kernel@" + std::to_string(s.line);
      std::string text(src.text);
      d.tokens(label, text);
      py::Module km = py::parse_module(text, src.line - 1);
      d.module(label, km);
    }
  }
  std::fclose(out);
}

struct Row {
  const char* name;
  double cpu = 1e30, wall = 1e30;
  size_t count = 0;
};

}  // namespace

int main(int argc, char** argv) {
  int repeat = 5;
  std::string stage = "all";
  const char* dump = nullptr;
  std::vector<fs::path> roots;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (a == "--stage" && i + 1 < argc) stage = argv[++i];
    else if (a == "--dump" && i + 1 < argc) dump = argv[++i];
    else roots.emplace_back(a);
  }
  std::vector<fs::path> files;
  for (const auto& r : roots) {
    if (fs::is_directory(r)) {
      for (const auto& e : fs::recursive_directory_iterator(r)) {
        auto n = e.path().filename();
        if (n == "output_code.py" || n == "fx_graph_readable.py") files.push_back(e.path());
      }
    } else if (fs::exists(r)) {
      files.push_back(r);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "usage: bench_py_parsers [--repeat N] [--stage S] [--dump OUT] PATH...\n"
                         "no output_code.py or fx_graph_readable.py found\n");
    return 2;
  }

  Row load{"load (read_text_file)"}, tok{"tokenize"}, parse{"parse_module"},
      read_oc{"read output_code.py"}, read_fx{"read fx_graph_readable"};
  std::vector<Input> inputs;
  size_t bytes = 0;
  for (int r = 0; r < (dump ? 1 : repeat); ++r) {
    std::vector<Input> got;
    DiagSink d;
    double c0 = cpu_seconds(), w0 = wall_seconds();
    for (const auto& f : files) {
      Input in;
      in.path = f.string();
      in.is_output_code = f.filename() == "output_code.py";
      if (read_text_file(in.path, in.text, d)) got.push_back(std::move(in));
    }
    load.cpu = std::min(load.cpu, cpu_seconds() - c0);
    load.wall = std::min(load.wall, wall_seconds() - w0);
    load.count = got.size();
    inputs = std::move(got);
  }
  for (const auto& in : inputs) bytes += in.text.size();
  if (dump) {
    dump_all(inputs, dump);
    std::printf("wrote %s (%zu files)\n", dump, inputs.size());
    return 0;
  }

  auto run = [&](Row& row, const std::function<size_t()>& body) {
    for (int r = 0; r < repeat; ++r) {
      double c0 = cpu_seconds(), w0 = wall_seconds();
      row.count = body();
      row.cpu = std::min(row.cpu, cpu_seconds() - c0);
      row.wall = std::min(row.wall, wall_seconds() - w0);
    }
  };
  bool all = stage == "all";
  if (all || stage == "tokenize")
    run(tok, [&] {
      size_t n = 0;
      for (const auto& in : inputs) n += py::tokenize(in.text, nullptr).size();
      return n;
    });
  if (all || stage == "parse")
    run(parse, [&] {
      size_t n = 0;
      for (const auto& in : inputs) n += py::parse_module(in.text).stmts.size();
      return n;
    });
  // The two readers apart: output_code.py (with the Triton kernel reader) and fx_graph_readable.py.
  auto read_files = [&](bool output_code) {
    size_t n = 0;
    for (const auto& in : inputs) {
      if (in.is_output_code != output_code) continue;
      DiagSink d;
      if (in.is_output_code) {
        Compile c;
        parse_output_code(in.path, in.text, c, d);
        n += c.kernels.size() + c.launches.size();
      } else {
        FxGraph g;
        parse_fx_readable(in.path, in.text, g, d);
        n += g.nodes.size();
      }
    }
    return n;
  };
  if (all || stage == "read") {
    run(read_oc, [&] { return read_files(true); });
    run(read_fx, [&] { return read_files(false); });
  }

  std::printf("%zu files, %.1f MiB; min of %d rounds\n", inputs.size(), bytes / 1048576.0, repeat);
  std::printf("%-24s %10s %10s %10s %12s\n", "stage", "cpu s", "wall s", "MiB/s cpu", "count");
  for (const Row* row : {&load, &tok, &parse, &read_oc, &read_fx}) {
    if (row->cpu > 1e29) continue;
    std::printf("%-24s %10.3f %10.3f %10.1f %12zu\n", row->name, row->cpu, row->wall,
                row->cpu > 0 ? bytes / 1048576.0 / row->cpu : 0.0, row->count);
  }
  std::printf("peak RSS: %ld KiB\n", peak_rss_kib());
  return 0;
}
