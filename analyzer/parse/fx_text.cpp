#include "analyzer/parse/fx_text.h"

#include <re2/re2.h>

#include <deque>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/parse/line_scan.h"
#include "analyzer/parse/python.h"

namespace ilint {

namespace {

std::string_view sv(const re2::StringPiece& p) { return std::string_view(p.data(), p.size()); }

// Splits "8, 1, s0 + 1" at top-level commas; each piece whitespace-normalized and handed to
// `emit`, the last only when it is not empty ("8, 1," has two pieces).
template <class Emit>
void split_top_each(std::string_view s, Emit&& emit) {
  int d = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[') ++d;
    if (c == ')' || c == ']') --d;
    if (c == ',' && d == 0) {
      emit(s.substr(start, i - start), false);
      start = i + 1;
    }
  }
  emit(s.substr(start), true);
}

size_t top_piece_bound(std::string_view s) {
  size_t commas = 0;
  for (char c : s) commas += c == ',';
  return commas + 1;  // a few more slots than pieces inside brackets: no regrowth
}

std::vector<std::string> split_top(std::string_view s) {
  std::vector<std::string> out;
  out.reserve(top_piece_bound(s));
  split_top_each(s, [&](std::string_view piece, bool last) {
    std::string t = py::normalize_space(piece);
    if (!last || !t.empty()) out.push_back(std::move(t));
  });
  return out;
}

bool has_space(std::string_view s) {
  for (char c : s)
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return true;
  return false;
}

// split_top's pieces interned. A piece trimmed of its outer whitespace and with none inside is its
// own normal form: interned from the view, without a string made per piece (shapes and strides
// of every node).
IStringList split_top_interned(std::string_view s) {
  std::vector<IString> out;
  out.reserve(top_piece_bound(s));
  split_top_each(s, [&](std::string_view piece, bool last) {
    piece = py::trim_space(piece);  // the space after each comma
    if (!has_space(piece)) {
      if (!last || !piece.empty()) out.emplace_back(piece);
      return;
    }
    std::string t = py::normalize_space(piece);
    if (!last || !t.empty()) out.emplace_back(t);
  });
  return out;
}

TensorMeta read_value_annotation(std::string_view text, ValueKind& kind) {
  TensorMeta m;
  kind = ValueKind::Other;
  std::string_view inner;
  auto sym_match = [&] {
    scan::Match r = scan::sym_annotation(text, inner);
    if (r != scan::Match::Unsure) return r == scan::Match::Yes;
    static const RE2 sym(scan::kSymPattern);
    re2::StringPiece piece;
    if (!RE2::FullMatch(text, sym, &piece)) return false;
    inner = sv(piece);
    return true;
  };
  if (text.rfind("Sym(", 0) == 0 && sym_match()) {
    // Sym(s0) is an int; Sym(zf0)/Sym(0.5*zf0) a float; Sym(Eq(s0, 1)) a bool.
    if (inner.find("zf") != std::string::npos || inner.find("zuf") != std::string::npos ||
        inner.find('.') != std::string::npos)
      kind = ValueKind::SymFloat;
    else if (inner.rfind("Eq(", 0) == 0 || inner.rfind("Ne(", 0) == 0 || inner == "True" || inner == "False")
      kind = ValueKind::SymBool;
    else
      kind = ValueKind::SymInt;
    m.shape = {IString(inner)};
    return m;
  }
  scan::TensorAnnotation t;
  scan::Match r = scan::tensor_annotation(text, t);
  if (r == scan::Match::Unsure) {
    static const RE2 tensor(scan::kTensorPattern);
    re2::StringPiece dt, shape, stride, device;
    r = RE2::FullMatch(text, tensor, &dt, &shape, &stride, &device) ? scan::Match::Yes : scan::Match::No;
    t = {sv(dt), sv(shape), sv(stride), sv(device)};
  }
  if (r == scan::Match::Yes) {
    m.dtype = parse_dtype(t.dtype);
    if (m.dtype == DType::Unknown && t.dtype != "unknown") return m;
    kind = ValueKind::Tensor;
    m.shape = split_top_interned(t.shape);
    m.stride = split_top_interned(t.stride);
    m.device = py::normalize_space(t.device);
  }
  return m;
}

// The annotations already read on this thread. An annotation's meaning is a function of its text
// alone, and its TensorMeta holds only interned values, so an answer can be handed out again:
// the same few annotations ("f32[8, 16][16, 1]cuda:0") recur on every node of a graph and its
// kernels' fragments, and reading one (split, intern, intern the lists) cost ~2.4k instructions.
class AnnotationCache {
 public:
  const std::pair<TensorMeta, ValueKind>& get(std::string_view text) {
    auto it = map_.find(text);
    if (it != map_.end()) return it->second;
    if (map_.size() >= kMaxEntries) {  // bounded: a model with endless distinct shapes starts over
      map_.clear();
      keys_.clear();
    }
    ValueKind kind;
    TensorMeta meta = read_value_annotation(text, kind);
    const std::string& key = keys_.emplace_back(text);  // the map's views point here
    return map_.emplace(std::string_view(key), std::make_pair(std::move(meta), kind)).first->second;
  }

 private:
  static constexpr size_t kMaxEntries = 4096;
  std::deque<std::string> keys_;
  std::unordered_map<std::string_view, std::pair<TensorMeta, ValueKind>> map_;
};

}  // namespace

TensorMeta parse_value_annotation(std::string_view text, ValueKind& kind) {
  thread_local AnnotationCache cache;
  const auto& [meta, k] = cache.get(text);
  kind = k;
  return meta;
}

void collect_fragment_refs(std::string_view args, std::vector<IString>& out) {
  if (scan::plain_line(args)) {
    std::string_view in = args, name;
    while (scan::next_fragment_ref(in, name)) out.emplace_back(name);
    return;
  }
  static const RE2 ref(scan::kFragmentRefPattern);
  re2::StringPiece in(args);
  re2::StringPiece name;
  while (RE2::FindAndConsume(&in, ref, &name)) out.emplace_back(sv(name));
}

bool parse_graph_fragment_line(std::string_view line, FxNode& out) {
  // %add : Tensor "bf16[8, 1, 5, 15][75, 75, 15, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%slice_3, %slice_4), kwargs = {})
  if (line.empty() || line[0] != '%') return false;  // the pattern is anchored on '%': skip it early
  scan::FragmentLine f;
  scan::Match r = scan::fragment_line(line, f);
  if (r == scan::Match::Unsure) {
    static const RE2 node(scan::kFragmentLinePattern);
    re2::StringPiece name, type, ann, op, target, args, kwargs;
    if (!RE2::FullMatch(line, node, &name, &type, &ann, &op, &target, &args, &kwargs)) return false;
    f = {sv(name), sv(type), sv(ann), sv(op), sv(target), sv(args), sv(kwargs)};
  } else if (r == scan::Match::No) {
    return false;
  }
  out = FxNode{};
  out.name = IString(f.name);
  out.op = IString(f.op);
  out.target = IString(f.target);
  out.annotation = IString(f.annotation);
  ValueKind k;
  out.meta = parse_value_annotation(f.annotation, k);
  out.kind = f.type == "Tensor" ? ValueKind::Tensor : (f.type == "Sym" ? k : k);
  if (f.type == "Tensor") out.kind = ValueKind::Tensor;
  out.args = split_top_interned(f.args);
  for (auto& kv : split_top(f.kwargs)) {
    auto colon = kv.find(':');
    if (colon == std::string::npos) continue;
    std::string key = py::normalize_space(kv.substr(0, colon));
    if (key.size() >= 2 && (key.front() == '\'' || key.front() == '"')) key = key.substr(1, key.size() - 2);
    out.kwargs[key] = py::normalize_space(kv.substr(colon + 1));
  }
  std::vector<IString> refs;
  collect_fragment_refs(f.args, refs);
  collect_fragment_refs(f.kwargs, refs);
  out.input_nodes = refs;
  if (out.target.find("copy_") != std::string::npos && !out.input_nodes.empty()) out.mutates = out.input_nodes[0];
  return true;
}

namespace {

// "# File: /work/steering/probe/seed2.py:12 in fn, code: x = x_base.view(1, 1, 1, 16).expand_as(y)"
bool parse_file_comment(std::string_view c, SourceLoc& loc, std::string& fn, std::string& code) {
  if (c.find("File: ") == std::string_view::npos) return false;  // cheap test first: most comments are not this
  scan::FileComment f;
  scan::Match r = scan::file_comment(c, f);
  if (r == scan::Match::No) return false;
  if (r == scan::Match::Unsure) {
    static const RE2 re(scan::kFileCommentPattern);
    int line = 0;
    std::string file;
    if (!RE2::FullMatch(c, re, &file, &line, &fn, &code)) return false;
    loc = SourceLoc{file, line, 0};
    return true;
  }
  fn = std::string(f.function);
  code = std::string(f.code);
  loc = SourceLoc{std::string(f.file), f.line, 0};
  return true;
}

// The node texts every graph repeats, interned once instead of at every node.
struct NodeWords {
  IString placeholder{"placeholder"}, call_function{"call_function"}, get_attr{"get_attr"}, output{"output"},
      getitem{"operator.getitem"};
};
const NodeWords& words() {
  static const NodeWords w;
  return w;
}

// The node names defined so far, as views into the graph file's text (which outlives the parse).
using KnownNames = std::unordered_set<std::string_view>;

void collect_names(const py::Expr& e, const KnownNames& known, std::vector<IString>& out) {
  if (e.kind == py::Expr::Name) {
    if (known.count(e.text)) out.emplace_back(e.text);
    return;
  }
  if (e.kind == py::Expr::Attribute) return;  // torch.float32, operator targets
  if (e.func && e.kind != py::Expr::Call) collect_names(*e.func, known, out);
  for (auto& i : e.items)
    if (i) collect_names(*i, known, out);
  for (auto& [k, v] : e.kwargs)
    if (v) collect_names(*v, known, out);
}

IStringList names_in(const py::Expr& e, const KnownNames& known) {
  std::vector<IString> out;
  collect_names(e, known, out);
  return out;
}

// The argument texts of a call or subscript, whitespace-normalized.
template <class Items>
IStringList arg_texts(const py::Module& m, const Items& items) {
  std::vector<IString> out;
  out.reserve(items.size());
  for (auto& a : items) out.emplace_back(py::normalize_space(m.text_of(*a)));
  return out;
}

}  // namespace

bool parse_fx_readable(const FilePath& path, const std::string& text, FxGraph& out, DiagSink& diags) {
  // `text` outlives the module: parse it in place.
  py::Module m = py::parse_module_view(text);
  for (auto& i : m.issues) diags.warning("parse-python", i.message, SourceLoc{path, i.line, i.col});
  out.origin = "fx_graph_readable.py";
  out.file = path;
  out.nodes.reserve(out.nodes.size() + m.stmts.size());  // at most one node per statement
  KnownNames known;
  known.reserve(m.stmts.size());
  SourceLoc user;
  IString user_fn, user_code;  // interned once per "# File:" comment, not at each node it covers
  bool have_user = false;
  bool in_forward = false;
  int forward_depth = -1;
  for (const auto& s : m.stmts) {
    // The "# File:" comment applies to the node statements that follow it, until the next one.
    for (const auto& c : s.comments_above) {
      SourceLoc l;
      std::string fn, code;
      if (parse_file_comment(c.text, l, fn, code)) {
        user = l;
        user_fn = fn;
        user_code = code;
        have_user = true;
      } else if (c.text.find("No stacktrace found") != std::string_view::npos) {
        have_user = false;
      }
    }
    if (s.kind == py::Stmt::Def && s.name == "forward") {
      in_forward = true;
      forward_depth = s.def_depth;
      for (const auto& [pname, ann] : s.params) {
        if (pname == "self") continue;
        FxNode n;
        n.name = IString(pname);
        n.op = words().placeholder;
        n.target = n.name;
        n.def_loc = SourceLoc{path, s.line, s.col};
        if (ann && ann->kind == py::Expr::String) {
          n.annotation = IString(ann->text);
          n.meta = parse_value_annotation(ann->text, n.kind);
        }
        known.emplace(pname);
        out.add(std::move(n));
      }
      have_user = false;
      continue;
    }
    if (!in_forward) continue;
    if (s.def_depth <= forward_depth) continue;
    if (s.kind == py::Stmt::AnnAssign && !s.targets.empty() && s.targets[0]->kind == py::Expr::Name && s.value) {
      FxNode n;
      n.name = IString(s.targets[0]->text);
      n.def_loc = SourceLoc{path, s.line, s.col};
      if (s.annotation && s.annotation->kind == py::Expr::String) {
        n.annotation = IString(s.annotation->text);
        n.meta = parse_value_annotation(s.annotation->text, n.kind);
      }
      const py::Expr& v = *s.value;
      if (v.kind == py::Expr::Call && v.func) {
        n.op = words().call_function;
        n.target = v.func->dotted();
        if (n.target.empty()) n.target = std::string(m.text_of(*v.func));
        n.args = arg_texts(m, v.items);
        for (auto& [k, kv] : v.kwargs) n.kwargs[std::string(k)] = py::normalize_space(m.text_of(*kv));
      } else if (v.kind == py::Expr::Subscript) {
        n.op = words().call_function;
        n.target = words().getitem;
        n.args = arg_texts(m, v.items);
      } else {
        n.op = words().get_attr;
        n.target = py::normalize_space(m.text_of(v));
      }
      n.input_nodes = names_in(v, known);
      if (n.target.find(".copy_") != std::string::npos && !n.input_nodes.empty()) n.mutates = n.input_nodes[0];
      if (have_user) {
        n.user_loc = user;
        n.user_function = user_fn;
        n.user_code = user_code;
      }
      known.insert(s.targets[0]->text);
      out.add(std::move(n));
    } else if (s.kind == py::Stmt::Assign && s.value && s.value->kind == py::Expr::Call && s.value->func &&
               s.targets.size() == 1 && s.targets[0]->kind == py::Expr::Name &&
               s.value->func->dotted().find("torch.ops.") == 0) {
      // Unannotated node (rare: ops with no fake value).
      FxNode n;
      n.name = IString(s.targets[0]->text);
      n.op = words().call_function;
      n.target = s.value->func->dotted();
      n.def_loc = SourceLoc{path, s.line, s.col};
      n.args = arg_texts(m, s.value->items);
      n.input_nodes = names_in(*s.value, known);
      if (have_user) {
        n.user_loc = user;
        n.user_function = user_fn;
        n.user_code = user_code;
      }
      known.insert(s.targets[0]->text);
      out.add(std::move(n));
    } else if (s.kind == py::Stmt::ExprStmt && s.value && s.value->kind == py::Expr::Call && s.value->func) {
      // In-place ops with no result: `copy_: "f32[128]" = ...` is annotated, but
      // `torch.ops.aten.copy_.default(arg0_1, add)` can appear bare.
      std::string tgt = s.value->func->dotted();
      if (tgt.find("torch.ops.") == 0) {
        FxNode n;
        n.name = "stmt_" + std::to_string(s.line);
        n.op = words().call_function;
        n.target = tgt;
        n.def_loc = SourceLoc{path, s.line, s.col};
        n.args = arg_texts(m, s.value->items);
        n.input_nodes = names_in(*s.value, known);
        if (tgt.find(".copy_") != std::string::npos && !n.input_nodes.empty()) n.mutates = n.input_nodes[0];
        if (have_user) {
          n.user_loc = user;
          n.user_function = user_fn;
          n.user_code = user_code;
        }
        out.add(std::move(n));
      }
    } else if (s.kind == py::Stmt::Return && s.value) {
      FxNode n;
      n.name = words().output;
      n.op = words().output;
      n.target = words().output;
      n.def_loc = SourceLoc{path, s.line, s.col};
      n.input_nodes = names_in(*s.value, known);
      out.add(std::move(n));
      in_forward = false;  // a nested GraphModule class may follow; its nodes belong to it
    }
  }
  if (out.nodes.empty()) {
    diags.warning("parse-fx-empty", "no FX graph nodes found", SourceLoc{path, 1, 0});
    return false;
  }
  return true;
}

}  // namespace ilint
