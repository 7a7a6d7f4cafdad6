// Reads Inductor's Python wrapper module (output_code.py): the kernels it defines, with the
// provenance comments above each, and the `call` function: inputs, buffer allocations and
// aliases, kernel launches in order, ATen fallbacks, in-place copies into inputs, outputs.
#include "analyzer/parse/output_code.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "analyzer/cpp/cpp_hand.h"
#include "analyzer/cpp/cpp_wrapper_hand.h"
#include "analyzer/parse/fx_text.h"
#include "analyzer/parse/line_scan.h"
#include "analyzer/parse/python.h"
#include "analyzer/parse/torch_versions.h"
#include "analyzer/parse/triton_kernel.h"
#include "analyzer/util/read_file.h"
#include "analyzer/parse/build_compiles.h"

namespace ilint {

namespace {

using py::Expr;
using py::Stmt;

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  size_t commas = 0;
  for (char c : s) commas += c == ',';
  out.reserve(commas + 1);
  size_t start = 0;
  int d = 0;
  auto piece = [&](size_t end) {
    std::string p = py::normalize_space(s.substr(start, end - start));
    if (!p.empty()) out.push_back(std::move(p));
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[') ++d;
    if (c == ')' || c == ']') --d;
    if (c == ',' && d == 0) {
      piece(i);
      start = i + 1;
    }
  }
  piece(s.size());
  return out;
}

std::string_view strip_comment_marker(std::string_view c) {
  size_t i = 0;
  if (i < c.size() && c[i] == '#') ++i;
  if (i < c.size() && c[i] == ' ') ++i;
  return c.substr(i);
}

// "# Topologically Sorted Source Nodes: [view, x, cumulative_trapezoid], Original ATen: [aten.view, ...]"
bool parse_source_nodes(std::string_view c, std::vector<std::string>& nodes, std::vector<std::string>& aten) {
  // Most comments are not this one: a substring test is far cheaper than any matching.
  if (c.find("Topologically Sorted Source Nodes") == std::string_view::npos) return false;
  std::string_view n, a;
  scan::Match r = scan::source_nodes(c, n, a);
  if (r == scan::Match::No) return false;
  if (r == scan::Match::Unsure) {
    static const RE2 re(scan::kSourceNodesPattern);
    re2::StringPiece np, ap;
    if (!RE2::FullMatch(c, re, &np, &ap)) return false;
    n = std::string_view(np.data(), np.size());
    a = std::string_view(ap.data(), ap.size());
  }
  nodes = split_list(n);
  aten = split_list(a);
  return true;
}

// "# [Provenance debug handles] triton_poi_fused_add_0:3": the handle.
bool parse_provenance_handle(std::string_view c, std::string& handle) {
  if (c.find("[Provenance debug handles]") == std::string_view::npos) return false;
  std::string_view h;
  scan::Match r = scan::provenance_handle(c, h);
  if (r == scan::Match::No) return false;
  if (r == scan::Match::Unsure) {
    static const RE2 re(scan::kProvenanceHandlePattern);
    return RE2::FullMatch(c, re, &handle);
  }
  handle = std::string(h);
  return true;
}

// Reads the comment block above a kernel definition.
void read_kernel_comments(py::Span<py::Token> comments, const FilePath& file, Kernel& k) {
  enum { None, Mapping, Fragment } section = None;
  for (const auto& c : comments) {
    std::string_view t = c.text;
    if (parse_source_nodes(t, k.source_nodes, k.aten_ops)) {
      section = None;
      continue;
    }
    if (t.rfind("# Source node to ATen node mapping:", 0) == 0) {
      section = Mapping;
      continue;
    }
    if (t.rfind("# Graph fragment:", 0) == 0) {
      section = Fragment;
      k.fragment.nodes.reserve(k.fragment.nodes.size() + comments.size());  // at most one node per line
      k.fragment.origin = "graph_fragment";
      k.fragment.file = file;
      continue;
    }
    if (t.rfind("# kernel path:", 0) == 0) {
      section = None;
      continue;
    }
    std::string_view body = strip_comment_marker(t);
    size_t lead = body.find_first_not_of(' ');
    if (lead == std::string_view::npos) continue;
    body = body.substr(lead);
    if (section == Mapping) {
      auto arrow = body.find(" => ");
      if (arrow != std::string_view::npos)
        k.source_to_aten[std::string(body.substr(0, arrow))] = split_list(body.substr(arrow + 4));
    } else if (section == Fragment) {
      FxNode n;
      if (parse_graph_fragment_line(body, n)) {
        n.def_loc = SourceLoc{file, c.line, c.col};
        k.fragment.add(std::move(n));
      } else if (body.rfind("return ", 0) == 0) {
        FxNode out;
        out.name = "output";
        out.op = "output";
        out.target = "output";
        out.def_loc = SourceLoc{file, c.line, c.col};
        std::vector<IString> refs;
        collect_fragment_refs(body, refs);
        out.input_nodes = refs;
        k.fragment.add(std::move(out));
      }
    }
  }
}

// The C++ kernel header `extern "C" void kernel(const at::BFloat16* in_ptr0, float* out_ptr0, const int64_t ks0)`:
// enough to name the parameters when no C++ reader is installed.
void read_cpp_signature(Kernel& k) {
  static const RE2 header(R"(extern\s+"C"[^(]*\(([^)]*)\))");
  std::string params;
  if (!RE2::PartialMatch(k.source, header, &params)) return;
  k.params.clear();
  for (auto& p : split_list(params)) {
    KernelParam kp;
    auto sp = p.find_last_of(" *&");
    if (sp == std::string::npos) continue;
    kp.name = p.substr(sp + 1);
    kp.type_text = py::normalize_space(p.substr(0, sp + 1));
    kp.is_pointer = kp.type_text.find('*') != std::string::npos;
    kp.is_const = kp.type_text.rfind("const", 0) == 0;
    kp.is_restrict = kp.type_text.find("__restrict__") != std::string::npos;
    std::string base = kp.type_text;
    for (const char* w : {"__restrict__", "*", "const "})
      for (size_t pos; (pos = base.find(w)) != std::string::npos;) base.erase(pos, std::strlen(w));
    kp.dtype = parse_dtype(py::normalize_space(base));
    k.params.push_back(kp);
  }
}

// The body's loops with literal bounds (model.h CppLoop), each with the lines it spans: its header
// to its body's closing brace (Inductor braces every loop body; an unbraced one ends at its `;`).
void read_cpp_loops(Kernel& k) {
  static const RE2 loop(
      R"(for\s*\(\s*(?:int64_t|long)\s+(\w+)\s*=\s*(?:static_cast<int64_t>\(\s*)?(-?\d+)L?\s*\)?\s*;)"
      R"(\s*(\w+)\s*<\s*static_cast<int64_t>\(\s*(-?\d+)L?\s*\)\s*;\s*(\w+)\s*(?:\+\+|\+=\s*static_cast<int64_t>\(\s*(\d+)L?\s*\))\s*\))");
  const std::string_view src = k.source;
  re2::StringPiece in(k.source);
  re2::StringPiece var_at;  // the loop variable, where the header names it first
  std::string var2, var3, lo, hi, step;
  size_t line_at = 0;
  int line = k.source_first_line;  // the file's line of src[line_at]
  auto line_of = [&](size_t offset) {
    line += static_cast<int>(std::count(src.begin() + static_cast<std::ptrdiff_t>(line_at),
                                        src.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    line_at = offset;
    return line;
  };
  while (RE2::FindAndConsume(&in, loop, &var_at, &lo, &var2, &hi, &var3, &step)) {
    const std::string var(var_at.data(), var_at.size());
    if (var != var2 || var != var3) continue;
    const size_t header_end = static_cast<size_t>(in.data() - src.data());
    CppLoop l;
    l.var = var;
    try {
      l.start = std::stoll(lo);
      l.end = std::stoll(hi);
      l.step = step.empty() ? 1 : std::stoll(step);
    } catch (...) {
      continue;
    }
    if (l.step < 1) continue;
    size_t body = src.find_first_not_of(" \t\r\n", header_end), end = body;
    if (body != std::string_view::npos && src[body] == '{') {
      for (int depth = 0; end < src.size(); ++end) {
        if (src[end] == '{') ++depth;
        if (src[end] == '}' && --depth == 0) break;
      }
    } else {
      end = src.find(';', header_end);
    }
    end = std::min(end, src.size());
    // The `for` before the variable: only `(int64_t ` or `(long ` lies between them.
    const size_t header = src.rfind("for", static_cast<size_t>(var_at.data() - src.data()));
    l.first_line = line_of(header);
    // Lines counted from the header: the next header is further on, so the count goes on from here.
    l.last_line = l.first_line + static_cast<int>(std::count(src.begin() + static_cast<std::ptrdiff_t>(header),
                                                             src.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
    k.loops.push_back(std::move(l));
  }
}

std::vector<std::string> tuple_texts(const py::Module& m, const Expr* e) {
  std::vector<std::string> out;
  if (!e) return out;
  if (e->kind == Expr::Tuple || e->kind == Expr::List)
    for (auto& i : e->items) out.push_back(py::normalize_space(m.text_of(*i)));
  else
    out.push_back(py::normalize_space(m.text_of(*e)));
  return out;
}

std::string string_arg(const Expr* e) { return e && e->kind == Expr::String ? std::string(e->text) : std::string(); }

bool is_fallback_callee(const std::string& f) {
  return f.rfind("torch.ops.", 0) == 0 || f.rfind("aten.", 0) == 0 || f.rfind("extern_kernels.", 0) == 0 ||
         f.rfind("inductor_ops.", 0) == 0 || f.rfind("torch._C._nn.", 0) == 0 ||
         f.rfind("torch._ops.", 0) == 0;
}

// Reads the statements of output_code.py in one pass, a piece of the file at a time (a piece's
// nodes are gone when the next comes): Inductor writes the kernel definitions and the C++ wrapper
// source at module level before the `call` and `get_args` functions that use them.
class OutputCodeReader {
 public:
  OutputCodeReader(const FilePath& path, const std::string& text, Compile& c, DiagSink& diags,
                   const OutputCodeOptions& options)
      : path_(path), text_(text), text_is_kept_(&text == &c.output_code_text), c_(c), diags_(diags),
        options_(options) {}

  void read(const py::Module& m) {
    for (size_t si = 0; si < m.stmts.size(); ++si) {
      const Stmt& s = m.stmts[si];
      if (first_) {
        first_ = false;
        tuning_block(s);
      }
      if (s.def_depth == 0) {
        kernel_definition(s);
        cpp_wrapper_source(s);
      } else if (s.enclosing_def == "get_args") {
        get_args_input(m, s);
      } else if (s.enclosing_def == "call") {
        call_statement(m, si);
      }
    }
  }

 private:
  // `K = async_compile.triton('K', """...""")` or `K = async_compile.cpp_pybinding([...], r"""...""")`.
  void kernel_definition(const Stmt& s) {
    if (s.kind != Stmt::Assign || !s.value || s.value->kind != Expr::Call || !s.value->func) return;
    const Expr& f = *s.value->func;
    bool triton = f.dotted_is("async_compile.triton");
    bool cpp = f.dotted_is("async_compile.cpp_pybinding") || f.dotted_is("async_compile.cpp");
    if (!triton && !cpp) return;
    if (s.targets.empty() || s.targets[0]->kind != Expr::Name) return;
    Kernel k;
    k.name = std::string(s.targets[0]->text);
    k.def_loc = SourceLoc{path_, s.line, s.col};
    const Expr* src = nullptr;
    if (triton) {
      if (s.value->items.size() >= 2) src = s.value->items[1];
      k.backend = KernelBackend::Triton;
      std::string declared = s.value->items.empty() ? "" : string_arg(s.value->items[0]);
      if (!declared.empty() && declared != k.name)
        diags_.note("parse-kernel-name", "kernel variable " + k.name + " compiles Triton function " + declared,
                    k.def_loc);
    } else {
      // cpp_pybinding(['const at::BFloat16*', 'float*'], r"""...""")
      if (s.value->items.size() >= 2) src = s.value->items[1];
      else if (s.value->items.size() == 1) src = s.value->items[0];
      k.backend = KernelBackend::Cpp;
    }
    if (!src || src->kind != Expr::String) {
      diags_.warning("parse-kernel", "kernel " + k.name + ": source string not found", k.def_loc);
      return;
    }
    if (triton) c_.device_type = "cuda";
    else if (c_.device_type.empty()) c_.device_type = "cpu";
    // A kernel over the size limit, or met past the memory budget, is said and not read.
    std::string code, why;
    if (options_.max_kernel_bytes && src->text.size() > options_.max_kernel_bytes) {
      code = "kernel-too-large";
      why = "source of " + std::to_string(src->text.size()) + " bytes, over the limit of " +
            std::to_string(options_.max_kernel_bytes) + " (--max-kernel-bytes)";
    } else if (options_.budget && options_.budget->exceeded()) {
      code = "memory-budget";
      why = options_.budget->reason();
    }
    if (!why.empty()) {
      diags_.warning(code, "kernel " + k.name + " not read: " + why, k.def_loc);
      k.parse_errors.push_back(std::move(why));
      c_.add_kernel(std::move(k));
      return;
    }
    k.source = src->text;
    // A literal that is one piece of the kept text is a slice of it (adjacent literals joined are not).
    // The text is an input file or a log's payload: at most kMaxInputFileBytes, so offsets fit.
    static_assert(kMaxInputFileBytes <= UINT32_MAX);
    if (text_is_kept_ && src->text.data() >= text_.data() && src->text.data() + src->text.size() <= text_.data() + text_.size()) {
      k.text_begin = static_cast<uint32_t>(src->text.data() - text_.data());
      k.text_size = static_cast<uint32_t>(src->text.size());
    }
    // The string's content starts right after the opening quotes, on the same line.
    k.source_first_line = src->line;
    read_kernel_comments(s.comments_above, path_, k);
    if (triton) {
      read_triton_kernel(k, path_, diags_);
      drop_read_source(k, options_.keep_kernel_sources);
      k.shrink_to_fit();
    } else {
      read_cpp_signature(k);
      read_cpp_loops(k);
    }
    for (auto& n : k.fragment.nodes)
      if (n.op != "placeholder" && n.op != "output" && n.target.find("PlaceHolder") == std::string::npos)
        k.fx_nodes.push_back(n.name);
    c_.add_kernel(std::move(k));
    if (cpp) {
      if (options_.cpp_kernels_to_read) {
        options_.cpp_kernels_to_read->push_back(c_.kernels.size() - 1);
      } else {
        read_cpp_kernels({CppKernelJob{&c_.kernels.back(), path_}}, diags_, 1);
      }
    }
  }

  // A cpp_wrapper=True module of a CUDA compile opens with a docstring, `r"""Compile-time auto-tuning
  // block: ...`, holding the `async_compile.triton(...)` definitions of the kernels its C++ wrapper
  // launches (and an autotuning run of each): its kernels are read as the module's own, at their lines
  // in the file. The block of a CPU compile defines no kernel (they are in the C++ source).
  void tuning_block(const Stmt& s) {
    if (s.kind != Stmt::ExprStmt || !s.value || s.value->kind != Expr::String) return;
    const Expr& doc = *s.value;
    std::string_view block = doc.text;
    size_t lead = block.find_first_not_of(" \t\n");
    size_t header_end = lead == std::string_view::npos ? lead : block.find('\n', lead);
    if (header_end == std::string_view::npos || block.substr(lead).rfind("Compile-time auto-tuning block:", 0) != 0)
      return;
    // The string's content starts right after its opening quotes, on the line of the quotes; the
    // code starts on the line after the header, which is prose.
    std::string_view code = block.substr(header_end + 1);
    int lines_before = static_cast<int>(std::count(block.begin(), block.begin() + header_end + 1, '\n'));
    std::vector<py::ParseIssue> issues;
    py::parse_module_by_pieces(code, doc.line - 1 + lines_before, issues, [&](const py::Module& tuning) {
      for (const auto& t : tuning.stmts)
        if (t.def_depth == 0) kernel_definition(t);
    });
    for (auto& i : issues) diags_.warning("parse-python", i.message, SourceLoc{path_, i.line, i.col});
  }

  // cpp_wrapper=True: the wrapper and its C++ kernels are one C++ string, read by the hand reader
  // (analyzer/cpp/cpp_wrapper_hand.h) or, for what it declines, by the Clang reader when there is
  // one (before `get_args`, which fills input metadata).
  void cpp_wrapper_source(const Stmt& s) {
    if (s.kind != Stmt::Assign || s.targets.empty() || s.targets[0]->kind != Expr::Name ||
        s.targets[0]->text != "cpp_wrapper_src" || !s.value)
      return;
    const Expr* src = s.value;
    if (src->kind == Expr::Tuple && src->items.size() == 1) src = src->items[0];
    if (src->kind != Expr::String) return;
    c_.cpp_wrapper = true;
    std::string source(src->text);
    // The hand reader first (it reads Inductor's own vocabulary and declines the rest), then Clang.
    if (cpp_hand_readers_enabled() &&
        read_cpp_wrapper_hand(c_, source, src->line, path_, diags_, options_.cpp_kernels_to_read))
      return;
    if (cpp_wrapper_reader())
      cpp_wrapper_reader()(c_, source, src->line, path_, diags_, options_.cpp_kernels_to_read);
    else
      diags_.note("cpp-wrapper-skipped", "C++ wrapper not read: built without the Clang reader",
                  SourceLoc{path_, s.line, 1});
  }

  // primals_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.float32)
  void get_args_input(const py::Module& m, const Stmt& s) {
    if (s.kind != Stmt::Assign || !s.value || s.value->kind != Expr::Call || s.targets.empty() ||
        s.targets[0]->kind != Expr::Name)
      return;
    const Expr& v = *s.value;
    std::string_view name = s.targets[0]->text;
    for (auto& in : c_.inputs)
      if (in.name == name && v.func && v.func->dotted_is("rand_strided")) {
        if (!v.items.empty()) in.meta.shape = to_istrings(tuple_texts(m, v.items[0]));
        if (v.items.size() > 1) in.meta.stride = to_istrings(tuple_texts(m, v.items[1]));
        if (const Expr* d = v.kwarg("device")) in.meta.device = string_arg(d);
        if (const Expr* d = v.kwarg("dtype")) in.meta.dtype = parse_dtype(d->dotted());
        in.is_cpu_scalar = in.meta.shape.empty() && in.meta.device == "cpu";
      }
  }

  // Whether a statement on the line of m.stmts[si], from it on, carries a `# reuse` comment
  // (`buf3 = buf2; del buf2  # reuse`). A line's statements are in one piece.
  static bool marked_reuse(const py::Module& m, size_t si) {
    for (size_t j = si; j < m.stmts.size() && m.stmts[j].line == m.stmts[si].line; ++j)
      if (m.stmts[j].trailing_comment.find("reuse") != std::string::npos) return true;
    return false;
  }

  void call_statement(const py::Module& m, size_t si);
  void launch(const py::Module& m, const Stmt& s, const Expr& call, const std::string& callee,
              std::vector<std::string> results);

  const FilePath& path_;
  std::string_view text_;
  // The text read is the compile's output_code_text, kept for a report: a kernel's source is
  // recorded as its slice and its own copy given up once read.
  bool text_is_kept_;
  Compile& c_;
  DiagSink& diags_;
  const OutputCodeOptions& options_;
  bool first_ = true;
  std::set<std::string> inputs_;
  int order_ = 0;
  std::vector<std::string> pending_nodes_;  // from the provenance comments above the next launch
  std::string pending_handle_;
};

// A statement of `call`: inputs, outputs, allocations and aliases, then launches and fallbacks.
void OutputCodeReader::call_statement(const py::Module& m, size_t si) {
  const Stmt& s = m.stmts[si];
  SourceLoc loc{path_, s.line, s.col};
  for (const auto& cm : s.comments_above) {
    std::vector<std::string> nodes, aten;
    if (parse_source_nodes(cm.text, nodes, aten)) pending_nodes_ = nodes;
    std::string h;
    if (parse_provenance_handle(cm.text, h)) pending_handle_ = h;
  }
  if (s.kind == Stmt::Assign && s.value && s.value->kind == Expr::Name && s.value->text == "args" &&
      !s.targets.empty()) {
    for (auto& n : tuple_texts(m, s.targets[0])) {
      GraphInput gi;
      gi.name = n;
      inputs_.insert(n);
      c_.inputs.push_back(gi);
      Buffer b;
      b.name = n;
      b.is_graph_input = true;
      b.alloc_loc = loc;
      c_.add_buffer(b);
    }
    return;
  }
  if (s.kind == Stmt::Return && s.value) {
    for (auto& n : tuple_texts(m, s.value)) {
      c_.outputs.push_back(n);
      if (c_.buffer_index.count(n)) c_.buffers[c_.buffer_index[n]].is_graph_output = true;
    }
    return;
  }
  const Expr* call = nullptr;
  std::vector<std::string> results;
  if (s.kind == Stmt::ExprStmt && s.value && s.value->kind == Expr::Call) call = s.value;
  if (s.kind == Stmt::Assign && s.value) {
    for (auto& t : s.targets)
      for (auto& n : tuple_texts(m, t)) results.push_back(n);
    if (s.value->kind == Expr::Call) call = s.value;
    if (s.value->kind == Expr::Name && results.size() == 1) {
      // `buf3 = buf2; del buf2  # reuse` or `buf2 = buf1` (an alias of a fallback's result).
      Buffer b;
      b.name = results[0];
      b.alias_of = std::string(s.value->text);
      b.alloc_loc = loc;
      if (const Buffer* src = c_.buffer(b.alias_of)) b.meta = src->meta;
      b.is_reuse = marked_reuse(m, si);
      c_.add_buffer(b);
      return;
    }
  }
  if (!call || !call->func) return;
  std::string callee = call->func->dotted();
  if (callee == "assert_size_stride" && call->items.size() >= 3) {
    std::string n = py::normalize_space(m.text_of(*call->items[0]));
    for (auto& in : c_.inputs)
      if (in.name == n) {
        in.meta.shape = to_istrings(tuple_texts(m, call->items[1]));
        in.meta.stride = to_istrings(tuple_texts(m, call->items[2]));
      }
    if (c_.buffer_index.count(n)) {
      auto& b = c_.buffers[c_.buffer_index[n]];
      b.meta.shape = to_istrings(tuple_texts(m, call->items[1]));
      b.meta.stride = to_istrings(tuple_texts(m, call->items[2]));
    }
    return;
  }
  if (callee.rfind("empty_strided", 0) == 0 && results.size() == 1) {
    Buffer b;
    b.name = results[0];
    b.alloc_loc = loc;
    if (call->items.size() >= 2) {
      b.meta.shape = to_istrings(tuple_texts(m, call->items[0]));
      b.meta.stride = to_istrings(tuple_texts(m, call->items[1]));
    }
    if (call->items.size() >= 3) b.meta.dtype = parse_dtype(call->items[2]->dotted());
    if (const Expr* d = call->kwarg("dtype")) b.meta.dtype = parse_dtype(d->dotted());
    if (callee == "empty_strided_cuda") b.meta.device = "cuda";
    if (callee == "empty_strided_cpu" || callee == "empty_strided_cpu_pinned") b.meta.device = "cpu";
    if (const Expr* d = call->kwarg("device")) b.meta.device = py::normalize_space(m.text_of(*d));
    c_.add_buffer(b);
    return;
  }
  if ((callee == "reinterpret_tensor" || callee == "alloc_from_pool") && results.size() == 1 &&
      !call->items.empty()) {
    Buffer b;
    b.name = results[0];
    b.alias_of = py::normalize_space(m.text_of(*call->items[0]));
    b.alloc_loc = loc;
    if (const Buffer* src = c_.buffer(b.alias_of)) b.meta = src->meta;
    if (callee == "alloc_from_pool") {
      // alloc_from_pool(pool, offset, dtype, size, stride): a tensor of its own dtype in a pool's
      // bytes (the pool is a uint8 buffer).
      if (call->items.size() >= 3) b.meta.dtype = parse_dtype(call->items[2]->dotted());
      if (call->items.size() >= 5) {
        b.meta.shape = to_istrings(tuple_texts(m, call->items[3]));
        b.meta.stride = to_istrings(tuple_texts(m, call->items[4]));
      }
    } else if (call->items.size() >= 3) {
      b.meta.shape = to_istrings(tuple_texts(m, call->items[1]));
      b.meta.stride = to_istrings(tuple_texts(m, call->items[2]));
    }
    if (callee == "reinterpret_tensor" && call->items.size() >= 4)
      b.alias_offset = py::normalize_space(m.text_of(*call->items[3]));
    b.is_reuse = marked_reuse(m, si);
    c_.add_buffer(b);
    return;
  }
  launch(m, s, *call, callee, std::move(results));
}

// Kernel launch: `K.run(args..., stream=stream0)` (Triton) or `K(args...)` (C++); an ATen fallback;
// a copy into an input.
void OutputCodeReader::launch(const py::Module& m, const Stmt& s, const Expr& call, const std::string& callee,
                              std::vector<std::string> results) {
  SourceLoc loc{path_, s.line, s.col};
  std::string kname;
  if (call.func->kind == Expr::Attribute && call.func->text == "run" && call.func->func &&
      call.func->func->kind == Expr::Name) {
    std::string n(call.func->func->text);
    if (c_.kernel(n)) kname = std::move(n);
  } else if (call.func->kind == Expr::Name) {
    std::string n(call.func->text);
    if (c_.kernel(n)) kname = std::move(n);
  }
  bool fallback = kname.empty() && is_fallback_callee(callee);
  bool copy_into = callee.find("copy_") != std::string::npos ||
                   (call.func->kind == Expr::Attribute && call.func->text == "copy_");
  if (kname.empty() && !fallback && !copy_into) return;
  KernelLaunch l;
  l.order = order_++;
  l.kernel = kname.empty() ? callee : kname;
  if (copy_into && kname.empty() && !fallback) l.kernel = "copy_";
  l.is_fallback = kname.empty();
  // A launch's arguments at once (one more for a copy_'s target): grown one at a time, a wrapper
  // of 110k launches would hold ~2 MB of their slack.
  l.args.reserve(call.items.size() + 1);
  for (auto& a : call.items) l.args.push_back(py::normalize_space(m.text_of(*a)));
  for (auto& [k, v] : call.kwargs) l.kwargs[std::string(k)] = py::normalize_space(m.text_of(*v));
  if (call.func->kind == Expr::Attribute && call.func->text == "copy_" && call.func->func)
    l.args.insert(l.args.begin(), py::normalize_space(m.text_of(*call.func->func)));
  l.results = to_istrings(results);
  l.source_nodes = to_istrings(pending_nodes_);
  l.provenance_handle = std::move(pending_handle_);
  pending_nodes_.clear();
  pending_handle_.clear();
  l.loc = loc;
  for (auto& r : l.results)
    if (!c_.buffer_index.count(r)) {
      Buffer b;
      b.name = r;
      b.alloc_loc = loc;
      c_.add_buffer(b);
    }
  if (copy_into && !l.args.empty() && inputs_.count(l.args[0]))
    c_.mutations.push_back(Mutation{l.args[0], "copy_", "", loc});
  if (!kname.empty()) {
    // In-place writes through kernel arguments: in_out_ptr params and mutated_arg_names.
    const Kernel* k = c_.kernel(kname);
    for (size_t i = 0; i < k->params.size() && i < l.args.size(); ++i) {
      const auto& p = k->params[i];
      bool in_out = p.name.rfind("in_out_ptr", 0) == 0;
      bool mutated = std::find(k->mutated_args.begin(), k->mutated_args.end(), p.name) != k->mutated_args.end();
      if (in_out || (mutated && inputs_.count(l.args[i])))
        c_.mutations.push_back(Mutation{l.args[i], in_out ? "in_out_ptr" : "mutated_arg", kname, loc});
    }
  }
  c_.launches.push_back(std::move(l));
}

}  // namespace

void parse_output_code(const FilePath& path, const std::string& text, Compile& c, DiagSink& diags,
                       const OutputCodeOptions& options) {
  static const RE2 aot_re(R"(^# AOT ID: \[(.*)\])");
  std::string aot;
  bool has_aot_header = RE2::PartialMatch(text.substr(0, text.find('\n')), aot_re, &aot);
  if (has_aot_header)
    for (auto& a : split_list(aot)) c.aot_ids.push_back(a.size() >= 2 ? a.substr(1, a.size() - 2) : a);

  // `text` outlives the pieces: they are parsed in place.
  OutputCodeReader reader(path, text, c, diags, options);
  std::vector<py::ParseIssue> issues;
  py::parse_module_by_pieces(text, options.first_line - 1, issues, [&](const py::Module& m) { reader.read(m); });
  for (auto& i : issues) diags.warning("parse-python", i.message, SourceLoc{path, i.line, i.col});

  // torch writes the header on Python-wrapper modules only; a cpp_wrapper=True module
  // (recognized by its `cpp_wrapper_src` string) starts with its autotuning block.
  if (!has_aot_header && !c.cpp_wrapper)
    diags.warning("version-mismatch",
                  std::string("output_code.py has no '# AOT ID:' header (inductor-lint is tested on ") +
                      kTestedTorchText + " output); reading it anyway",
                  SourceLoc{path, options.first_line, 1});
}

}  // namespace ilint
