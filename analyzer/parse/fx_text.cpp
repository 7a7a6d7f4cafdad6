#include "analyzer/parse/fx_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "analyzer/parse/line_scan.h"
#include "analyzer/parse/python.h"
#include "analyzer/util/read_file.h"

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

// py::normalize_space(s), interned. A text trimmed of its outer whitespace with none inside is its
// own normal form: interned from the view, without a string made (the pieces of every node's
// shape and stride, its argument texts).
IString interned_normal(std::string_view s) {
  s = py::trim_space(s);
  return has_space(s) ? IString(py::normalize_space(s)) : IString(s);
}

// split_top's pieces interned.
IStringList split_top_interned(std::string_view s) {
  std::vector<IString> out;
  out.reserve(top_piece_bound(s));
  split_top_each(s, [&](std::string_view piece, bool last) {
    if (!last || !py::trim_space(piece).empty()) out.push_back(interned_normal(piece));
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

bool read_file_comment(std::string_view c, SourceLoc& loc, std::string& fn, std::string& code) {
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

namespace {

// The node texts every graph repeats, interned once instead of at every node.
struct NodeWords {
  IString placeholder{"placeholder"}, call_function{"call_function"}, get_attr{"get_attr"}, output{"output"},
      getitem{"operator.getitem"};
};
const NodeWords& words() {
  static const NodeWords w;
  return w;
}

// One statement of a print_readable module, as the node builder needs it: taken from the
// parser's Stmt (from_parsed) or read straight from its line (ReadableScanner). Every text is a
// view into the module's source, which outlives the read.
struct ReadableStmt {
  enum Kind { Forward, AnnAssign, Assign, ExprCall, Return, Other };
  enum Form { Call, Subscript, Plain };
  Kind kind = Other;
  int line = 0, col = 0, def_depth = 0;
  std::vector<std::string_view> comments;  // the comment lines right above ('#' included)
  // Forward: the parameters, with their annotation when it is a string (else has_annotation false).
  struct Param {
    std::string_view name, annotation;
    bool has_annotation = false;
  };
  std::vector<Param> params;
  // AnnAssign, Assign: the target; AnnAssign: its annotation, when a string.
  std::string_view target, annotation;
  bool has_annotation = false;
  // The value: a call (`callee(args, key = value)`), a subscript (args: [value, index]) or
  // anything else (value_text, as written).
  Form form = Plain;
  std::string_view callee;
  std::string callee_storage;  // from_parsed: the dotted name, which the parser builds
  std::vector<std::string_view> args;
  std::vector<std::pair<std::string_view, std::string_view>> kwargs;
  std::string_view value_text;
  // The bare names of the value, in the order the builder visits them: a Name is one, an
  // attribute chain is none (torch.float32), a call's callee is skipped, its arguments and
  // keyword values are visited left to right.
  std::vector<std::string_view> names;

  void clear() {
    kind = Other;
    form = Plain;
    comments.clear();
    params.clear();
    target = annotation = callee = value_text = {};
    has_annotation = false;
    args.clear();
    kwargs.clear();
    names.clear();
  }
};

// The nodes of a graph, statement by statement, from either reading.
class ReadableBuilder {
 public:
  ReadableBuilder(const FilePath& path, FxGraph& out) : path_(path), out_(out), first_(out.nodes.size()) {}

  void add(const ReadableStmt& s) {
    // The "# File:" comment applies to the node statements that follow it, until the next one.
    for (std::string_view c : s.comments) {
      SourceLoc l;
      std::string fn, code;
      if (read_file_comment(c, l, fn, code)) {
        user_ = UserFrame::intern(UserFrame{l, IString(code), IString(fn)});
      } else if (c.find("No stacktrace found") != std::string_view::npos) {
        user_ = UserFrame::none();
      }
    }
    if (s.kind == ReadableStmt::Forward) {
      in_forward_ = true;
      forward_depth_ = s.def_depth;
      for (const auto& p : s.params) {
        if (p.name == "self") continue;
        FxNode n;
        n.name = IString(p.name);
        n.op = words().placeholder;
        n.target = n.name;
        n.def_loc = SourceLoc{path_, s.line, s.col};
        if (p.has_annotation) {
          n.annotation = IString(p.annotation);
          n.meta = parse_value_annotation(p.annotation, n.kind);
        }
        out_.add(std::move(n));
      }
      user_ = UserFrame::none();
      return;
    }
    if (!in_forward_ || s.def_depth <= forward_depth_) return;
    switch (s.kind) {
      case ReadableStmt::AnnAssign: {
        FxNode n;
        n.name = IString(s.target);
        n.def_loc = SourceLoc{path_, s.line, s.col};
        if (s.has_annotation) {
          n.annotation = IString(s.annotation);
          n.meta = parse_value_annotation(s.annotation, n.kind);
        }
        if (s.form == ReadableStmt::Call) {
          n.op = words().call_function;
          n.target = s.callee;
          n.args = arg_texts(s.args);
          for (const auto& [k, v] : s.kwargs) n.kwargs[std::string(k)] = py::normalize_space(v);
        } else if (s.form == ReadableStmt::Subscript) {
          n.op = words().call_function;
          n.target = words().getitem;
          n.args = arg_texts(s.args);
        } else {
          n.op = words().get_attr;
          n.target = py::normalize_space(s.value_text);
        }
        n.input_nodes = known_names(s);
        if (n.target.find(".copy_") != std::string::npos && !n.input_nodes.empty()) n.mutates = n.input_nodes[0];
        set_user(n);
        out_.add(std::move(n));
        return;
      }
      case ReadableStmt::Assign:
      case ReadableStmt::ExprCall: {
        // An unannotated node (rare: ops with no fake value), or an in-place op with no result:
        // `copy_: "f32[128]" = ...` is annotated, but `torch.ops.aten.copy_.default(arg0_1, add)`
        // can appear bare. A bare call is named after its line and defines no name.
        bool bare = s.kind == ReadableStmt::ExprCall;
        FxNode n;
        n.name = bare ? IString("stmt_" + std::to_string(s.line)) : IString(s.target);
        n.op = words().call_function;
        n.target = s.callee;
        n.def_loc = SourceLoc{path_, s.line, s.col};
        n.args = arg_texts(s.args);
        n.input_nodes = known_names(s);
        if (s.callee.find(".copy_") != std::string_view::npos && !n.input_nodes.empty()) n.mutates = n.input_nodes[0];
        set_user(n);
        if (bare) bare_.push_back(out_.nodes.size());
        out_.add(std::move(n));
        return;
      }
      case ReadableStmt::Return: {
        FxNode n;
        n.name = words().output;
        n.op = words().output;
        n.target = words().output;
        n.def_loc = SourceLoc{path_, s.line, s.col};
        n.input_nodes = known_names(s);
        out_.add(std::move(n));
        in_forward_ = false;  // a nested GraphModule class may follow; its nodes belong to it
        return;
      }
      default:
        return;
    }
  }

 private:
  // The argument texts of a call or subscript, whitespace-normalized.
  static IStringList arg_texts(const std::vector<std::string_view>& args) {
    std::vector<IString> out;
    out.reserve(args.size());
    for (std::string_view a : args) out.push_back(interned_normal(a));
    return out;
  }
  IStringList known_names(const ReadableStmt& s) const {
    std::vector<IString> out;
    for (std::string_view n : s.names)
      if (defines(n)) out.emplace_back(n);
    return out;
  }
  // Whether a node this builder added defines `name`: the graph's name index, less the nodes
  // that define no name (the output, a bare call). No set of the names beside the index: on a
  // large graph it would be as large as the nodes.
  bool defines(std::string_view name) const {
    const FxNode* f = out_.find(name);
    if (!f) return false;
    size_t pos = static_cast<size_t>(f - out_.nodes.data());
    return pos >= first_ && f->op != words().output && !std::binary_search(bare_.begin(), bare_.end(), pos);
  }
  void set_user(FxNode& n) const { n.user = user_; }

  const FilePath& path_;
  FxGraph& out_;
  const size_t first_;          // the graph's nodes before this builder's
  std::vector<size_t> bare_;    // positions of the bare calls it added, ascending
  const UserFrame* user_ = UserFrame::none();  // interned once per "# File:" comment
  bool in_forward_ = false;
  int forward_depth_ = -1;
};

// ---- From the parser's statements.

void collect_names(const py::Expr& e, std::vector<std::string_view>& out) {
  if (e.kind == py::Expr::Name) {
    out.push_back(e.text);
    return;
  }
  if (e.kind == py::Expr::Attribute) return;  // torch.float32, operator targets
  if (e.func && e.kind != py::Expr::Call) collect_names(*e.func, out);
  for (auto& i : e.items)
    if (i) collect_names(*i, out);
  for (auto& [k, v] : e.kwargs)
    if (v) collect_names(*v, out);
}

void set_call(const py::Module& m, const py::Expr& v, ReadableStmt& r) {
  r.form = ReadableStmt::Call;
  r.callee_storage = v.func->dotted();
  r.callee = r.callee_storage.empty() ? m.text_of(*v.func) : std::string_view(r.callee_storage);
  for (auto& a : v.items) r.args.push_back(m.text_of(*a));
  for (auto& [k, kv] : v.kwargs) r.kwargs.emplace_back(k, m.text_of(*kv));
}

bool torch_op_call(const py::Expr* v) {
  return v && v->kind == py::Expr::Call && v->func && v->func->dotted().find("torch.ops.") == 0;
}

void from_parsed(const py::Module& m, const py::Stmt& s, ReadableStmt& r) {
  r.clear();
  r.line = s.line;
  r.col = s.col;
  r.def_depth = s.def_depth;
  for (const auto& c : s.comments_above) r.comments.push_back(c.text);
  if (s.kind == py::Stmt::Def && s.name == "forward") {
    r.kind = ReadableStmt::Forward;
    for (const auto& [pname, ann] : s.params) {
      ReadableStmt::Param p{pname, {}, false};
      if (ann && ann->kind == py::Expr::String) p = {pname, ann->text, true};
      r.params.push_back(p);
    }
  } else if (s.kind == py::Stmt::AnnAssign && !s.targets.empty() && s.targets[0]->kind == py::Expr::Name && s.value) {
    r.kind = ReadableStmt::AnnAssign;
    r.target = s.targets[0]->text;
    if (s.annotation && s.annotation->kind == py::Expr::String) {
      r.has_annotation = true;
      r.annotation = s.annotation->text;
    }
    const py::Expr& v = *s.value;
    if (v.kind == py::Expr::Call && v.func) {
      set_call(m, v, r);
    } else if (v.kind == py::Expr::Subscript) {
      r.form = ReadableStmt::Subscript;
      for (auto& a : v.items) r.args.push_back(m.text_of(*a));
    } else {
      r.value_text = m.text_of(v);
    }
    collect_names(v, r.names);
  } else if (s.kind == py::Stmt::Assign && torch_op_call(s.value) && s.targets.size() == 1 &&
             s.targets[0]->kind == py::Expr::Name) {
    r.kind = ReadableStmt::Assign;
    r.target = s.targets[0]->text;
    set_call(m, *s.value, r);
    collect_names(*s.value, r.names);
  } else if (s.kind == py::Stmt::ExprStmt && torch_op_call(s.value)) {
    r.kind = ReadableStmt::ExprCall;
    set_call(m, *s.value, r);
    collect_names(*s.value, r.names);
  } else if (s.kind == py::Stmt::Return && s.value) {
    r.kind = ReadableStmt::Return;
    collect_names(*s.value, r.names);
  }
}

// ---- By lines.

// Reads a print_readable module line by line into ReadableStmts (module structure above
// parse_fx_readable in fx_text.h). Each form it takes is read as the parser reads it; read() is
// false at the first thing it does not take, and the caller then parses the whole file.
class ReadableScanner {
 public:
  // `first_line`: the line number of the text's first line in its file.
  explicit ReadableScanner(int first_line) : line_(first_line - 1) {}

  // The module's text, whole.
  template <class Emit>
  bool read(std::string_view text, Emit&& emit) {
    return feed(text, emit) && finished();
  }
  // The next lines of the module (whole lines, each block after the one before): false at the
  // first thing not taken. The statements of a block are emitted while it is valid.
  template <class Emit>
  bool feed(std::string_view text, Emit&& emit) {
    // Bytes the grammar below never takes outside a comment or string, and which change how
    // the tokenizer splits lines: give the file to the parser as soon as one is anywhere.
    for (char c : {'\r', '\t', '\\', '\f', '\v', '\0'})
      if (std::memchr(text.data(), c, text.size())) return false;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      size_t end = nl == std::string_view::npos ? text.size() : nl;
      std::string_view l = text.substr(pos, end - pos);
      pos = nl == std::string_view::npos ? text.size() : nl + 1;
      if (!line(l, emit)) return false;
    }
    keep_comments();
    return true;
  }
  // True when the lines fed were a whole module.
  bool finished() const { return state_ == AfterReturn; }

 private:
  template <class Emit>
  bool line(std::string_view l, Emit&& emit) {
    ++line_;
    size_t indent = l.find_first_not_of(' ');
    if (indent == std::string_view::npos) return true;  // blank
    if (l[indent] == '#') {
      if (state_ != Body || indent != 8) return false;
      if (line_ != last_comment_line_ + 1) start_comments();
      pending_.push_back(l.substr(indent));
      last_comment_line_ = line_;
      return true;
    }
    ReadableStmt& r = r_;
    r.clear();
    r.line = line_;
    r.col = static_cast<int>(indent) + 1;
    if (!pending_.empty() && last_comment_line_ >= line_ - 1) r.comments = pending_;
    pending_.clear();  // r.comments may view kept_comments_ until the next comment block starts
    kept_upto_ = 0;
    last_comment_line_ = -10;
    if (state_ == BeforeClass) {
      if (indent != 0 || !class_line(l)) return false;
      state_ = BeforeDef;
      emit(r);
      return true;
    }
    if (state_ == BeforeDef) {
      if (indent != 4 || !def_line(l.substr(4), r)) return false;
      r.kind = ReadableStmt::Forward;
      r.def_depth = 0;
      state_ = Body;
      emit(r);
      return true;
    }
    if (state_ != Body || indent != 8) return false;
    r.def_depth = 1;
    std::string_view body = l.substr(8);
    size_t p = 0;
    if (body.substr(0, 7) == "return ") {
      p = 7;
      if (!return_value(body, p, r.names) || p != body.size()) return false;
      r.kind = ReadableStmt::Return;
      state_ = AfterReturn;
      emit(r);
      return true;
    }
    if (!statement(body, p, r)) return false;
    emit(r);
    // `;  x = y = None` after a node: statements of their own on the same line, never nodes.
    // The parser gives them no comments and the same def depth.
    return none_assignments(body, p);
  }
  void start_comments() {
    pending_.clear();
    kept_comments_.clear();
    kept_upto_ = 0;
  }
  // The comment lines waiting for their statement view the block being fed: each is copied out
  // once before the next block replaces it (a deque: the copies do not move).
  void keep_comments() {
    for (size_t i = kept_upto_; i < pending_.size(); ++i) pending_[i] = kept_comments_.emplace_back(pending_[i]);
    kept_upto_ = pending_.size();
  }

  enum { BeforeClass, BeforeDef, Body, AfterReturn } state_ = BeforeClass;
  ReadableStmt r_;
  std::vector<std::string_view> pending_;  // the comment block being read
  std::deque<std::string> kept_comments_;  // those of its lines an earlier block held
  size_t kept_upto_ = 0;                   // pending_[0, kept_upto_) view kept_comments_
  int last_comment_line_ = -10;
  int line_;

 private:
  static bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
  // A table: identifier bytes are most of the bytes this reader looks at.
  static bool ident_char(char c) {
    static constexpr auto kTable = [] {
      std::array<bool, 256> t{};
      for (int i = 0; i < 256; ++i)
        t[i] = (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z') || (i >= '0' && i <= '9') || i == '_';
      return t;
    }();
    return kTable[static_cast<unsigned char>(c)];
  }

  // Python keywords (soft ones too) other than None/True/False, which are names to the builder:
  // a statement holding one is not in the grammar. By first letter: most names FX prints
  // (torch, aten, arg0_1, default) are answered by one length compare or none.
  static bool keyword(std::string_view w) {
    if (w.size() < 2 || w.size() > 8) return false;
    switch (w[0]) {
      case 'a': return w == "and" || w == "as" || w == "assert" || w == "async" || w == "await";
      case 'b': return w == "break";
      case 'c': return w == "class" || w == "continue" || w == "case";
      case 'd': return w == "def" || w == "del";
      case 'e': return w == "elif" || w == "else" || w == "except" || w == "exec";
      case 'f': return w == "finally" || w == "for" || w == "from";
      case 'g': return w == "global";
      case 'i': return w == "if" || w == "import" || w == "in" || w == "is";
      case 'l': return w == "lambda";
      case 'm': return w == "match";
      case 'n': return w == "nonlocal" || w == "not";
      case 'o': return w == "or";
      case 'p': return w == "pass" || w == "print";
      case 'r': return w == "raise" || w == "return";
      case 't': return w == "try";
      case 'w': return w == "while" || w == "with";
      case 'y': return w == "yield";
      default: return false;
    }
  }

  static bool name(std::string_view l, size_t& p, std::string_view& out) {
    if (p >= l.size() || !ident_start(l[p])) return false;
    size_t b = p;
    while (p < l.size() && ident_char(l[p])) ++p;
    out = l.substr(b, p - b);
    if (keyword(out)) return false;
    // Non-ASCII letters may follow an identifier in Python: not taken here.
    return p >= l.size() || static_cast<unsigned char>(l[p]) < 0x80;
  }
  // A name that can be assigned to or be a keyword argument's key.
  static bool assignable(std::string_view l, size_t& p, std::string_view& out) {
    return name(l, p, out) && out != "None" && out != "True" && out != "False";
  }
  static bool lit(std::string_view l, size_t& p, std::string_view word) {
    if (l.substr(p, word.size()) != word) return false;
    p += word.size();
    return true;
  }

  // The `.name` parts after a name (torch.ops.aten.add.Tensor); `dotted` tells whether any came.
  static bool attributes(std::string_view l, size_t& p, bool& dotted) {
    while (p < l.size() && l[p] == '.') {
      ++p;
      std::string_view part;
      if (!name(l, p, part)) return false;
      dotted = true;
    }
    return true;
  }

  // `class GraphModule(torch.nn.Module):`, `class <lambda>(torch.nn.Module):`
  static bool class_line(std::string_view l) {
    return l == "class GraphModule(torch.nn.Module):" || l == "class <lambda>(torch.nn.Module):";
  }

  // `def forward(self, arg0_1: "f32[16]", s0: "Sym(s0)"):`
  static bool def_line(std::string_view l, ReadableStmt& r) {
    size_t p = 0;
    if (!lit(l, p, "def forward(self")) return false;
    r.params.push_back({l.substr(12, 4), {}, false});
    while (lit(l, p, ", ")) {
      ReadableStmt::Param param;
      std::string_view ann;
      if (!name(l, p, param.name) || !lit(l, p, ": ") || !string_literal(l, p, ann)) return false;
      param.annotation = ann.substr(1, ann.size() - 2);
      param.has_annotation = true;
      r.params.push_back(param);
    }
    return lit(l, p, "):") && p == l.size();
  }

  // '...' or "..." on one line, no escape: the view includes the quotes.
  static bool string_literal(std::string_view l, size_t& p, std::string_view& out) {
    if (p >= l.size() || (l[p] != '\'' && l[p] != '"')) return false;
    char q = l[p];
    size_t close = l.find(q, p + 1);
    if (close == std::string_view::npos) return false;
    out = l.substr(p, close + 1 - p);
    p = close + 1;
    return true;
  }

  // 8, 0.5, 1e-08, 9223372036854775807: digits, an optional fraction, an optional exponent.
  // Anything else that starts with a digit (0x10, 1_000, 1j, 08) is left to the parser.
  static bool number(std::string_view l, size_t& p) {
    size_t b = p;
    auto digits = [&] {
      size_t d = p;
      while (p < l.size() && l[p] >= '0' && l[p] <= '9') ++p;
      return p > d;
    };
    if (!digits()) return false;
    if (p - b > 1 && l[b] == '0') {  // 00, 0.5 are fine; 08 is not Python
      bool zeros = l.substr(b, p - b).find_first_not_of('0') == std::string_view::npos;
      if (!zeros && (p >= l.size() || l[p] != '.')) return false;
    }
    if (p < l.size() && l[p] == '.') {
      ++p;
      digits();
    }
    if (p < l.size() && (l[p] == 'e' || l[p] == 'E')) {
      ++p;
      if (p < l.size() && (l[p] == '-' || l[p] == '+')) ++p;
      if (!digits()) return false;
    }
    return p >= l.size() || !ident_char(l[p]);
  }

  // One argument value. `names` gets its bare names in the builder's order.
  bool atom(std::string_view l, size_t& p, std::vector<std::string_view>& names, int depth) {
    if (depth > kMaxDepth || p >= l.size()) return false;
    char c = l[p];
    if (c == '[') {
      ++p;
      if (lit(l, p, "]")) return true;
      do {
        if (!atom(l, p, names, depth + 1)) return false;
      } while (lit(l, p, ", "));
      return lit(l, p, "]");
    }
    if (c == '\'' || c == '"') {
      std::string_view str;
      return string_literal(l, p, str) && (p >= l.size() || (l[p] != '\'' && l[p] != '"'));
    }
    if (c == '-') {  // -1, -0.5, -inf (FX prints infinities as the names inf and nan)
      ++p;
      if (l.substr(p, 3) == "inf" || l.substr(p, 3) == "nan") {
        std::string_view n;
        if (!name(l, p, n) || (n != "inf" && n != "nan")) return false;
        names.push_back(n);  // the operand is a Name to the builder
        return true;
      }
      return number(l, p);
    }
    if (c >= '0' && c <= '9') return number(l, p);
    std::string_view first;
    if (!name(l, p, first)) return false;
    bool dotted = false;
    if (!attributes(l, p, dotted)) return false;
    if (p < l.size() && l[p] == '(') {  // a call: its callee is not visited
      ++p;
      return call_args(l, p, names, nullptr, depth + 1);
    }
    if (!dotted) names.push_back(first);
    return true;
  }

  // After the '(': `a, b, key = c, key2=d)`; positional arguments first. `r` (the statement's
  // call) gets the argument texts; a nested call's are not kept.
  bool call_args(std::string_view l, size_t& p, std::vector<std::string_view>& names, ReadableStmt* r, int depth) {
    if (lit(l, p, ")")) return true;
    bool keywords = false;
    do {
      // A keyword argument: `name = value` or `name=value`.
      size_t q = p;
      std::string_view key;
      if (assignable(l, q, key) && q < l.size() && (l.substr(q, 3) == " = " || (l[q] == '=' && l.substr(q, 2) != "=="))) {
        q += l[q] == ' ' ? 3 : 1;
        size_t b = q;
        if (!atom(l, q, names, depth)) return false;
        if (r) r->kwargs.emplace_back(key, l.substr(b, q - b));
        keywords = true;
        p = q;
        continue;
      }
      if (keywords) return false;  // a positional argument after a keyword one: not Python
      size_t b = p;
      if (!atom(l, p, names, depth)) return false;
      if (r) r->args.push_back(l.substr(b, p - b));
    } while (lit(l, p, ", "));
    return lit(l, p, ")");
  }

  // A dotted callee and its call, from p to the ')'.
  bool call(std::string_view l, size_t& p, ReadableStmt& r) {
    size_t b = p;
    std::string_view first;
    bool dotted = false;
    if (!name(l, p, first) || !attributes(l, p, dotted) || !lit(l, p, "(")) return false;
    r.form = ReadableStmt::Call;
    r.callee = l.substr(b, p - 1 - b);
    return call_args(l, p, r.names, &r, 1);
  }

  // The value of an assignment: a call, `name[int]`, or a name or dotted name.
  bool value(std::string_view l, size_t& p, ReadableStmt& r) {
    size_t b = p;
    std::string_view first;
    if (!name(l, p, first)) return false;
    if (p < l.size() && l[p] == '[') {
      ++p;
      size_t ib = p;
      if (!number(l, p) || l.substr(ib, p - ib).find_first_not_of("0123456789") != std::string_view::npos ||
          !lit(l, p, "]"))
        return false;
      r.form = ReadableStmt::Subscript;
      r.args = {first, l.substr(ib, p - 1 - ib)};
      r.names.push_back(first);
      return true;
    }
    bool dotted = false;
    if (!attributes(l, p, dotted)) return false;
    if (p < l.size() && l[p] == '(') {
      p = b;
      return call(l, p, r);
    }
    r.form = ReadableStmt::Plain;
    r.value_text = l.substr(b, p - b);
    if (!dotted) r.names.push_back(first);
    return true;
  }

  // `add: "f32[8]" = <value>`, `split = <call>`, `<call>`: from the line's start (p == 0) up to
  // its end or a ';', where p is left.
  bool statement(std::string_view l, size_t& p, ReadableStmt& r) {
    std::string_view target;
    bool named = assignable(l, p, target);
    if (named && lit(l, p, ": ")) {
      std::string_view ann;
      if (!string_literal(l, p, ann) || !lit(l, p, " = ") || !value(l, p, r)) return false;
      r.kind = ReadableStmt::AnnAssign;
      r.target = target;
      r.annotation = ann.substr(1, ann.size() - 2);
      r.has_annotation = true;
    } else if (named && lit(l, p, " = ")) {
      if (!value(l, p, r)) return false;
      // A node only when it calls an op (the builder's rule); otherwise a statement that is none.
      r.kind = r.form == ReadableStmt::Call && r.callee.substr(0, 10) == "torch.ops." ? ReadableStmt::Assign
                                                                                       : ReadableStmt::Other;
      r.target = target;
      if (r.kind == ReadableStmt::Other) r.names.clear();
    } else {
      p = 0;
      if (!call(l, p, r)) return false;
      r.kind = r.callee.substr(0, 10) == "torch.ops." ? ReadableStmt::ExprCall : ReadableStmt::Other;
    }
    return true;
  }

  // What follows a statement, from p: the line's end, or `;  a = b = None` groups (statements
  // that are not nodes: nothing is emitted for them).
  static bool none_assignments(std::string_view l, size_t p) {
    while (p < l.size()) {
      if (!lit(l, p, ";")) return false;
      while (p < l.size() && l[p] == ' ') ++p;
      std::string_view n;
      if (!assignable(l, p, n) || !lit(l, p, " = ")) return false;
      while (!lit(l, p, "None")) {
        if (!assignable(l, p, n) || !lit(l, p, " = ")) return false;
      }
      if (p < l.size() && ident_char(l[p])) return false;  // `Nonex`
    }
    return true;
  }

  // `return (a, b)`, `return (a,)`, `return ()`, `return a`, `return [a, b]`, `return None`.
  bool return_value(std::string_view l, size_t& p, std::vector<std::string_view>& names) {
    if (lit(l, p, "(")) {
      if (lit(l, p, ")")) return true;
      if (!atom(l, p, names, 1)) return false;
      if (lit(l, p, ",)")) return true;
      while (lit(l, p, ", "))
        if (!atom(l, p, names, 1)) return false;
      return lit(l, p, ")");
    }
    return atom(l, p, names, 1);
  }

  // Nesting taken before the parser is asked: far under the parser's own limit.
  static constexpr int kMaxDepth = 32;
};

}  // namespace

bool fx_readable_scans(std::string_view text) {
  return ReadableScanner(1).read(text, [](const ReadableStmt&) {});
}

namespace {

// The nodes to reserve for a graph file: its lines that are neither blank nor a comment (at least
// one per node, and few more: the class, def and return lines), at most one per 64 bytes. Reserving
// up front spares a large graph the vector's doubling, whose old and new arrays are alive at once
// (3x the nodes). A node line is longer (the fixtures' graphs take 104-392 bytes a node): the cap
// only keeps a file of many short lines that are no nodes from reserving 144 bytes for each.
struct NodeReserve {
  size_t lines = 0, bytes = 0;
  void count(std::string_view text) {
    bytes += text.size();
    for (size_t pos = 0; pos < text.size();) {
      size_t nl = text.find('\n', pos);
      size_t end = nl == std::string_view::npos ? text.size() : nl;
      size_t first = text.find_first_not_of(' ', pos);
      if (first < end && text[first] != '#') ++lines;
      pos = end + 1;
    }
  }
  size_t nodes() const { return std::min(lines, bytes / 64); }
};

// Puts the nodes a line scan read into `out` (empty or not).
void take_scanned(FxGraph& scanned, FxGraph& out) {
  if (out.nodes.empty()) {
    out = std::move(scanned);
  } else {
    for (auto& n : scanned.nodes) out.add(std::move(n));
  }
}

bool finish_graph(const FilePath& path, FxGraph& out, DiagSink& diags, int first_line) {
  out.origin = "fx_graph_readable.py";
  out.file = path;
  if (out.nodes.empty()) {
    diags.warning("parse-fx-empty", "no FX graph nodes found", SourceLoc{path, first_line, 0});
    return false;
  }
  return true;
}

}  // namespace

bool parse_fx_readable(const FilePath& path, std::string_view text, FxGraph& out, DiagSink& diags,
                       FxReadableRead how, int first_line) {
  NodeReserve reserve;
  reserve.count(text);
  if (how == FxReadableRead::Scan) {
    // Into a scratch graph: a file the line reader gives up on halfway leaves nothing behind.
    FxGraph scanned;
    scanned.nodes.reserve(reserve.nodes());
    ReadableBuilder builder(path, scanned);
    if (ReadableScanner(first_line).read(text, [&](const ReadableStmt& r) { builder.add(r); }))
      take_scanned(scanned, out);
    else
      how = FxReadableRead::Parse;
  }
  if (how == FxReadableRead::Parse) {
    // `text` outlives the pieces: they are parsed in place.
    ReadableBuilder builder(path, out);
    ReadableStmt r;
    std::vector<py::ParseIssue> issues;
    out.nodes.reserve(out.nodes.size() + reserve.nodes());
    py::parse_module_by_pieces(text, first_line - 1, issues, [&](const py::Module& m) {
      // At most one node per statement; the capacity at least doubles, so pieces do not copy the
      // graph's nodes once each.
      size_t need = out.nodes.size() + m.stmts.size();
      if (need > out.nodes.capacity()) out.nodes.reserve(std::max(need, 2 * out.nodes.capacity()));
      for (const auto& s : m.stmts) {
        from_parsed(m, s, r);
        builder.add(r);
      }
    });
    for (auto& i : issues) diags.warning("parse-python", i.message, SourceLoc{path, i.line, i.col});
  }
  return finish_graph(path, out, diags, first_line);
}

bool read_fx_readable(const FilePath& path, FxGraph& out, DiagSink& diags, size_t& bytes, size_t block_bytes) {
  // A file under one block is read whole. A larger one is read twice, a block at a time:
  // once to count the nodes to reserve, once to scan; its text (a fifth of the peak memory of a
  // compile whose graph is 20 MB of short node lines) is never held whole. Only a file the line
  // reader does not take is then read whole, for the parser.
  bytes = 0;
  std::optional<bool> whole_read;  // the file in one block: whether it gave nodes
  FxGraph scanned;
  std::optional<ReadableBuilder> builder;
  ReadableScanner scanner(1);
  bool scanning = true;
  auto take = [&](std::string_view block, int, bool whole) {
    bytes += block.size();
    if (whole) {
      whole_read = parse_fx_readable(path, block, out, diags);
      return true;
    }
    if (!builder) {
      DiagSink ignored;  // the scan reads the same bytes and reports on them
      NodeReserve reserve;
      read_text_blocks(path, block_bytes, ignored, [&](std::string_view b, int, bool) {
        reserve.count(b);
        return true;
      });
      scanned.nodes.reserve(reserve.nodes());
      builder.emplace(path, scanned);
    }
    scanning = scanner.feed(block, [&](const ReadableStmt& r) { builder->add(r); });
    return scanning;
  };
  if (read_text_blocks(path, block_bytes, diags, take)) {
    if (whole_read) return *whole_read;
    if (!builder) return finish_graph(path, out, diags, 1);  // an empty file
    if (scanner.finished()) {
      take_scanned(scanned, out);
      return finish_graph(path, out, diags, 1);
    }
  } else if (scanning) {
    return false;  // the file could not be read: the diagnostic says why
  }
  // The line reader stopped: the parser reads the whole file. Where the blocks were all read, they
  // said already what there is to say of its bytes: the read's own diagnostics then count only if
  // it fails.
  scanned = FxGraph();
  std::string text;
  DiagSink reread;
  if (!read_text_file(path, text, scanning ? reread : diags)) {
    for (const Diagnostic& d : reread.sorted()) diags.report(d.level, d.code, d.message, d.loc);
    return false;
  }
  bytes = text.size();
  return parse_fx_readable(path, text, out, diags, FxReadableRead::Parse);
}

}  // namespace ilint
