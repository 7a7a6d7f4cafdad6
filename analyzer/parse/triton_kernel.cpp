// Reads one Triton kernel source (the string inside async_compile.triton('name', '''...''')) into
// the model: decorator metadata (kind, signature, mutated_arg_names), the SSA statements of the
// body, loads/stores/casts/literals, and scans/reductions with their compute dtype and length.
#include "analyzer/parse/triton_kernel.h"

#include <functional>
#include <map>
#include <tuple>
#include <set>
#include <unordered_map>

#include "analyzer/model/index_expr.h"
#include "analyzer/parse/python.h"
#include "analyzer/parse/triton_decorator.h"

namespace ilint {

namespace {

using py::Expr;
using py::Stmt;

const Expr* dict_get(const Expr& dict, std::string_view key) {
  if (dict.kind != Expr::Dict) return nullptr;
  for (size_t i = 0; i + 1 < dict.items.size(); i += 2)
    if (dict.items[i]->kind == Expr::String && dict.items[i]->text == key) return dict.items[i + 1];
  return nullptr;
}

KernelKind kind_from_decorator(const std::string& d) {
  if (d == "pointwise") return KernelKind::Pointwise;
  if (d == "reduction") return KernelKind::Reduction;
  if (d == "persistent_reduction") return KernelKind::PersistentReduction;
  if (d == "split_scan" || d == "scan") return KernelKind::Scan;
  if (d == "template" || d == "user_autotune" || d == "foreach") return d == "foreach" ? KernelKind::Pointwise : KernelKind::Template;
  return KernelKind::Unknown;
}

bool is_module_name(std::string_view n) {
  return n == "tl" || n == "triton_helpers" || n == "libdevice" || n == "tl_math" || n == "math" || n == "torch" ||
         n == "triton";
}

// The variable names an expression reads (Names only, skipping attribute chains like tl.float32).
template <class Names>
void read_vars(const Expr& e, Names& out) {
  if (e.kind == Expr::Name) {
    if (!is_module_name(e.text)) out.emplace_back(e.text);
    return;
  }
  if (e.kind == Expr::Attribute) {
    if (e.func && e.func->kind != Expr::Name) read_vars(*e.func, out);
    else if (e.func && e.func->kind == Expr::Name && e.func->text.rfind("tmp", 0) == 0) out.emplace_back(e.func->text);
    return;
  }
  if (e.kind == Expr::Call) {
    if (e.func && e.func->kind == Expr::Attribute && e.func->func) read_vars(*e.func->func, out);
  } else if (e.func) {
    read_vars(*e.func, out);
  }
  for (auto& i : e.items)
    if (i) read_vars(*i, out);
  for (auto& [k, v] : e.kwargs)
    if (v) read_vars(*v, out);
}

// "(a + b)" -> "a + b", but "(a) + (b)" stays as it is.
std::string strip_outer_parens(std::string s) {
  while (s.size() >= 2 && s.front() == '(' && s.back() == ')') {
    int d = 0;
    bool encloses = true;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '(') ++d;
      if (s[i] == ')') --d;
      if (d == 0 && i + 1 < s.size()) {
        encloses = false;
        break;
      }
    }
    if (!encloses) break;
    s = s.substr(1, s.size() - 2);
  }
  return s;
}

// Splits `ptr + (index)` into the pointer parameter and the index text.
void split_pointer(const py::Module& m, const Expr& e, const std::set<std::string, std::less<>>& ptrs, IString& ptr,
                   IString& index) {
  if (e.kind == Expr::Name && ptrs.count(e.text)) {
    ptr = std::string(e.text);
    index = "0";
    return;
  }
  if (e.kind == Expr::BinOp && e.text == "+" && e.items.size() == 2) {
    if (e.items[0]->kind == Expr::Name && ptrs.count(e.items[0]->text)) {
      ptr = std::string(e.items[0]->text);
      index = strip_outer_parens(py::normalize_space(m.text_of(*e.items[1])));
      return;
    }
  }
  ptr = "";
  index = py::normalize_space(m.text_of(e));
}

DType tl_dtype(const Expr* e) {
  if (!e) return DType::Unknown;
  std::string d = e->dotted();
  if (d.empty()) return DType::Unknown;
  return parse_dtype(d);
}

DType promote(DType a, DType b) {
  auto rank = [](DType d) {
    switch (d) {
      case DType::F64: return 6;
      case DType::F32: return 5;
      case DType::BF16: return 4;
      case DType::F16: return 4;
      case DType::I64: return 2;
      case DType::I32: return 1;
      default: return 0;
    }
  };
  if (a == DType::Unknown) return b;
  if (b == DType::Unknown) return a;
  if (a == b) return a;
  if ((a == DType::BF16 && b == DType::F16) || (a == DType::F16 && b == DType::BF16)) return DType::F32;
  return rank(a) >= rank(b) ? a : b;
}

// The dtype of each pointer parameter and kernel variable (tmp0, tmp1, ...); hashed: an
// ordered map's compares of names that share the `tmp` prefix were ~3% of a Triton corpus run.
using DTypeByName = std::unordered_map<std::string, DType>;

// map[name], or Unknown when absent (one lookup).
DType dtype_in(const DTypeByName& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? DType::Unknown : it->second;
}

// `tl.atomic_add(...)`, `tl.atomic_max(...)`, ...: a read-modify-write of memory.
bool is_triton_atomic(const Expr& call) {
  if (!call.func) return false;
  std::string f = call.func->dotted();
  return f.rfind("tl.atomic_", 0) == 0;
}

// The text of a call's argument given at `position` or as `name=`, whitespace-normalized; "" when
// not given.
std::string argument_text(const py::Module& m, const Expr& call, size_t position, std::string_view name) {
  if (const Expr* kw = call.kwarg(name)) return py::normalize_space(m.text_of(*kw));
  if (call.items.size() > position) return py::normalize_space(m.text_of(*call.items[position]));
  return "";
}

// The forms of one statement of a kernel body (kernel_forms.h): its kind unless an assignment or an
// expression, and the callee of every call in it: a dotted name ("tl.load", "libdevice.exp"), or
// ".<method>" for a method of a value ("tmp3.to(...)" -> ".to").
void add_triton_forms(const Stmt& s, std::set<std::string>& out) {
  static const char* const kStmtForms[] = {"assign", "assign", "augassign", "expr", "def", "class", "return",
                                           "del", "with", "for", "while", "if", "elif", "else", "try", "except",
                                           "finally", "import", "pass", "decorator", "other"};
  if (s.kind != Stmt::Assign && s.kind != Stmt::AnnAssign && s.kind != Stmt::ExprStmt)
    out.insert(std::string("stmt:") + kStmtForms[s.kind]);
  std::function<void(const Expr*)> walk = [&](const Expr* e) {
    if (!e) return;
    if (e->kind == Expr::Call && e->func) {
      // A module's function keeps its dotted name; a method of a value is ".<method>".
      static const std::set<std::string, std::less<>> kModules = {"tl", "triton", "libdevice", "triton_helpers",
                                                                 "tl_math", "math", "torch"};
      std::string callee = e->func->dotted();
      size_t dot = callee.find('.');
      bool method = e->func->kind == Expr::Attribute &&
                    (callee.empty() || (dot != std::string::npos && !kModules.count(std::string_view(callee).substr(0, dot))));
      if (method) callee = "." + std::string(e->func->text);
      out.insert(callee.empty() ? "call:<expression>" : callee);
      if (method) walk(e->func->func);
    } else if (e->kind == Expr::Lambda || e->kind == Expr::Starred) {
      out.insert(e->kind == Expr::Lambda ? "expr:lambda" : "expr:starred");
    }
    for (const Expr* i : e->items) walk(i);
    for (const auto& kw : e->kwargs) walk(kw.second);
  };
  for (const Expr* t : s.targets) walk(t);
  walk(s.value);
}

// Reads a Triton kernel module statement by statement, in source order (the parser hands it the
// module a piece at a time): the decorator's metadata, the jit function's parameters, then each
// statement of its body. Inductor writes the combine helpers and the decorator before the kernel.
class TritonKernelReader {
 public:
  TritonKernelReader(Kernel& k, const FilePath& file, const scan::TritonDecorator* scanned)
      : k_(k), file_(file), first_load_(k.loads.size()), first_store_(k.stores.size()) {
    if (!scanned) return;
    decorator_kind_ = std::string(scanned->kind);
    for (auto& [name, type_text] : scanned->signature) add_param(name, type_text);
    if (scanned->has_mutated_args) {
      k_.has_mutated_args = true;
      for (std::string_view a : scanned->mutated_args) k_.mutated_args.emplace_back(a);
    }
  }

  void statement(const py::Module& m, const Stmt& s) {
    if (s.kind == Stmt::Decorator) decorator(s);
    if (s.kind == Stmt::Def && s.name == k_.name) kernel_def(m, s);
    if (!s.enclosing_def.empty() && s.enclosing_def != k_.name) helper_statement(s);
    if (def_seen_ && s.enclosing_def == k_.name) body_statement(m, s);
  }

  // After the last statement; `issues` are the parser's.
  void finish(const std::vector<py::ParseIssue>& issues, DiagSink& diags);

 private:
  void add_param(std::string_view name, std::string_view type_text) {
    KernelParam p;
    p.name = std::string(name);
    p.type_text = std::string(type_text);
    p.is_constexpr = p.type_text == "constexpr";
    p.is_pointer = !p.type_text.empty() && p.type_text[0] == '*';
    p.dtype = p.is_constexpr ? DType::Unknown : parse_dtype(p.type_text);
    k_.params.push_back(p);
  }
  void decorator(const Stmt& s);
  void kernel_def(const py::Module& m, const Stmt& s);
  void helper_statement(const Stmt& s);
  void body_statement(const py::Module& m, const Stmt& s);
  // What a body statement computes, past the pointer bookkeeping and the writes.
  void assignment(const py::Module& m, const Stmt& s, KernelStmt st, const std::vector<std::string>& targets);
  bool reduction(const py::Module& m, const Expr& core, KernelStmt& st, const std::vector<std::string>& targets);
  void record_literal(const Expr& e, const std::string& var);
  void literals_in(const Expr& e, const std::string& var);
  std::string combine_of(const std::string& helper) const;

  // Block pointers and tensor descriptors (`block_ptr0 = tl.make_block_ptr(in_ptr0, ...)`,
  // `tma_descriptor0 = tl.make_tensor_descriptor(in_ptr0, ...)`): the pointer parameter each
  // addresses and the text of its layout, "block(offsets=[xoffset, 0], strides=[1024, 1])".
  bool block_of(const py::Module& m, const Expr& e, std::string& ptr, std::string& index) const;
  // Pointers made from a parameter: a workspace's `tmp13_ws = (ws_ptr + 4096).to(tl.pointer_type(tl.float32))`,
  // a split scan's `tmp2 = ws_ptr.to(tl.pointer_type(tl.uint64)) + xoffset * 1 * tmp1`: the parameter,
  // the alias's text, and the element dtype a `tl.pointer_type` gives it.
  struct PointerAlias {
    std::string ptr, text;
    DType dtype = DType::Unknown;
  };
  bool alias_of(const Expr& e, PointerAlias& out) const;
  // Where a load or store goes: `ptr + (index)`, a block pointer, a pointer made from a parameter,
  // or a descriptor's `.load([offsets])` / `.store([offsets], value)` (`offsets` given for those).
  // Every access of the kernel is placed here, and so gets its nest.
  void locate(const py::Module& m, const Expr& e, MemAccess& a, const Expr* offsets = nullptr) const;
  // `desc.load([...])`, `tl.make_tensor_descriptor(...).store([...], v)`: the descriptor called.
  const Expr* descriptor_call(const py::Module& m, const Expr& call, std::string_view method) const {
    if (call.kind != Expr::Call || !call.func || call.func->kind != Expr::Attribute || call.func->text != method ||
        !call.func->func || call.items.empty())
      return nullptr;
    std::string ptr, index;
    return block_of(m, *call.func->func, ptr, index) ? call.func->func : nullptr;
  }

  Kernel& k_;
  const FilePath& file_;
  size_t first_load_, first_store_;  // the accesses this reader adds start here
  std::string decorator_kind_;
  bool def_seen_ = false;
  std::set<std::string, std::less<>> ptrs_;
  DTypeByName ptr_dtype_, var_dtype_;
  std::map<std::string, std::pair<std::string, std::string>, std::less<>> blocks_;
  std::map<std::string, PointerAlias, std::less<>> aliases_;
  std::set<std::string> forms_;
  // Grid barriers (a cooperative reduction's `triton_helpers.x_grid_barrier`) met so far: an
  // access's MemAccess::nest. A kernel with no barrier gives its accesses nest -1 (finish()).
  int barriers_ = 0;
  bool has_barrier_ = false;
  std::map<std::string, std::string, std::less<>> helper_combine_;  // helper def -> its combine op
};

void TritonKernelReader::decorator(const Stmt& s) {
  if (!s.value || s.value->kind != Expr::Call || !s.value->func) return;
  std::string d = s.value->func->dotted();
  if (d.rfind("triton_heuristics.", 0) != 0) return;
  decorator_kind_ = d.substr(std::string("triton_heuristics.").size());
  if (const Expr* tm = s.value->kwarg("triton_meta")) {
    if (const Expr* sig = dict_get(*tm, "signature")) {
      for (size_t i = 0; i + 1 < sig->items.size(); i += 2) add_param(sig->items[i]->text, sig->items[i + 1]->text);
    }
  }
  if (const Expr* im = s.value->kwarg("inductor_meta")) {
    if (const Expr* mut = dict_get(*im, "mutated_arg_names")) {
      k_.has_mutated_args = true;
      for (auto& it : mut->items)
        if (it->kind == Expr::String) k_.mutated_args.emplace_back(it->text);
    }
  }
}

void TritonKernelReader::kernel_def(const py::Module& m, const Stmt& s) {
  k_.body_loc = SourceLoc{file_, s.line, s.col};
  if (def_seen_) return;
  def_seen_ = true;
  // Without the decorator's signature, the parameters as the def writes them.
  if (k_.params.empty()) {
    for (auto& [pname, ann] : s.params) {
      KernelParam p;
      p.name = std::string(pname);
      p.is_constexpr = ann && m.text_of(*ann).find("constexpr") != std::string::npos;
      p.is_pointer = pname.find("ptr") != std::string::npos;
      k_.params.push_back(p);
    }
  }
  for (auto& p : k_.params)
    if (p.is_pointer) {
      ptrs_.insert(p.name);
      ptr_dtype_[p.name] = p.dtype;
    }
  // Scalar (non-pointer) params: fp32/fp64/i32 values.
  for (auto& p : k_.params)
    if (!p.is_pointer && !p.is_constexpr) var_dtype_[p.name] = p.dtype;
}

// _triton_helper_fn_add0(arg0_0, arg1_0): tmp0 = arg0_0 + arg1_0; return tmp0. The first
// assignment of a helper that names an operation says its combine op.
void TritonKernelReader::helper_statement(const Stmt& s) {
  if (s.kind != Stmt::Assign || !s.value) return;
  auto [it, fresh] = helper_combine_.try_emplace(std::string(s.enclosing_def));
  if (!it->second.empty()) return;
  const Expr& v = *s.value;
  if (v.kind == Expr::BinOp) {
    if (v.text == "+") it->second = "add";
    if (v.text == "*") it->second = "mul";
  }
  if (v.kind == Expr::Call && v.func) {
    std::string f = v.func->dotted();
    if (f.find("maximum") != std::string::npos) it->second = "max";
    else if (f.find("minimum") != std::string::npos) it->second = "min";
    else if (f.find("logaddexp") != std::string::npos || f.find("log1p") != std::string::npos) it->second = "logaddexp";
  }
}

std::string TritonKernelReader::combine_of(const std::string& helper) const {
  if (auto it = helper_combine_.find(helper); it != helper_combine_.end() && !it->second.empty()) return it->second;
  // The helper name itself says it: _triton_helper_fn_add0.
  for (const char* c : {"add", "mul", "maximum", "minimum", "logaddexp"})
    if (helper.find(c) != std::string::npos)
      return c == std::string("maximum") ? "max" : (c == std::string("minimum") ? "min" : c);
  return "unknown";
}

void TritonKernelReader::record_literal(const Expr& e, const std::string& var) {
  double v;
  if (e.kind == Expr::Number && py::number_value(e.text, v)) {
    k_.literals.push_back(LiteralUse{std::string(e.text), v, var, SourceLoc{file_, e.line, e.col}});
  } else if (e.kind == Expr::UnaryOp && e.text == "-" && e.items.size() == 1 && e.items[0]->kind == Expr::Number &&
             py::number_value(e.items[0]->text, v)) {
    k_.literals.push_back(LiteralUse{"-" + std::string(e.items[0]->text), -v, var, SourceLoc{file_, e.line, e.col}});
  }
}

// Literals anywhere in an expression that are operands of arithmetic (not indices or shapes).
void TritonKernelReader::literals_in(const Expr& e, const std::string& var) {
  if (e.kind == Expr::BinOp) {
    for (auto& i : e.items) {
      if (i->kind == Expr::Number ||
          (i->kind == Expr::UnaryOp && i->text == "-" && !i->items.empty() && i->items[0]->kind == Expr::Number))
        record_literal(*i, var);
      else
        literals_in(*i, var);
    }
    return;
  }
  if (e.kind == Expr::Call && e.func) {
    std::string f = e.func->dotted();
    if (f == "tl.full" && e.items.size() >= 2) {
      record_literal(*e.items[1], var);
      return;
    }
    if (f == "tl.load" || f == "tl.store" || f == "tl.arange" || f == "tl.program_id" || f == "tl.broadcast_to" ||
        f == "tl.reshape" || f == "tl.range" || f == "range")
      return;
    for (auto& i : e.items) literals_in(*i, var);
  }
}

bool TritonKernelReader::block_of(const py::Module& m, const Expr& e, std::string& ptr, std::string& index) const {
  if (e.kind == Expr::Name) {
    auto it = blocks_.find(e.text);
    if (it == blocks_.end()) return false;
    std::tie(ptr, index) = it->second;
    return true;
  }
  if (e.kind != Expr::Call || !e.func || e.items.empty() || e.items[0]->kind != Expr::Name ||
      !ptrs_.count(e.items[0]->text))
    return false;
  std::string f = e.func->dotted();
  bool block = f == "tl.make_block_ptr", descriptor = f == "tl.make_tensor_descriptor";
  if (!block && !descriptor) return false;
  ptr = std::string(e.items[0]->text);
  const Expr* strides = e.kwarg("strides");
  const Expr* offsets = e.kwarg("offsets");
  index = std::string(block ? "block(" : "descriptor(") +
          (offsets ? "offsets=" + py::normalize_space(m.text_of(*offsets)) + ", " : "") + "strides=" +
          (strides ? py::normalize_space(m.text_of(*strides)) : "?") + ")";
  return true;
}

bool TritonKernelReader::alias_of(const Expr& e, PointerAlias& out) const {
  if (e.kind == Expr::Name) {
    if (ptrs_.count(e.text)) {
      out.ptr = std::string(e.text);
      out.dtype = dtype_in(ptr_dtype_, out.ptr);
      return true;
    }
    auto it = aliases_.find(e.text);
    if (it == aliases_.end()) return false;
    out = it->second;
    return true;
  }
  if (e.kind == Expr::BinOp && (e.text == "+" || e.text == "-") && e.items.size() == 2) return alias_of(*e.items[0], out);
  // `p.to(tl.pointer_type(tl.float32))`
  if (e.kind == Expr::Call && e.func && e.func->kind == Expr::Attribute && e.func->text == "to" && e.func->func &&
      !e.items.empty() && alias_of(*e.func->func, out)) {
    const Expr& t = *e.items[0];
    if (t.kind == Expr::Call && t.func && t.func->dotted_is("tl.pointer_type") && !t.items.empty())
      out.dtype = tl_dtype(t.items[0]);
    return true;
  }
  return false;
}

void TritonKernelReader::locate(const py::Module& m, const Expr& e, MemAccess& a, const Expr* offsets) const {
  a.nest = barriers_;
  split_pointer(m, e, ptrs_, a.ptr, a.index);
  std::string ptr, index;
  if (a.ptr.empty() && block_of(m, e, ptr, index)) {
    a.ptr = ptr;
    a.index = offsets ? index + py::normalize_space(m.text_of(*offsets)) : index;
  }
  PointerAlias alias;
  if (a.ptr.empty() && alias_of(e, alias)) {
    a.ptr = alias.ptr;
    a.index = py::normalize_space(m.text_of(e));  // the whole address: "tmp13_ws + (xindex * RSPLIT + rsplit_id)"
    a.value_dtype = alias.dtype;
  }
}

void TritonKernelReader::body_statement(const py::Module& m, const Stmt& s) {
  add_triton_forms(s, forms_);
  SourceLoc loc{file_, s.line, s.col};
  bool barrier = s.value && s.value->kind == Expr::Call && s.value->func &&
                 s.value->func->dotted_is("triton_helpers.x_grid_barrier");
  has_barrier_ = has_barrier_ || barrier;
  if (barrier && s.kind == Stmt::ExprStmt) ++barriers_;
  if (s.kind == Stmt::Assign && s.value && !s.targets.empty() && s.targets[0]->kind == Expr::Name) {
    // `block_ptr0 = tl.make_block_ptr(...)`, and `block_ptr0 = tl.advance(block_ptr0, [0, R0_BLOCK])`.
    const Expr& v = *s.value;
    PointerAlias alias;
    if (v.kind != Expr::Name && alias_of(v, alias)) {
      alias.text = py::normalize_space(m.text_of(v));
      aliases_[std::string(s.targets[0]->text)] = alias;
      k_.var_defs[std::string(s.targets[0]->text)] = alias.text;
      return;
    }
    std::string ptr, index;
    bool advance = v.kind == Expr::Call && v.func && v.func->dotted_is("tl.advance") && !v.items.empty();
    if (block_of(m, advance ? *v.items[0] : v, ptr, index)) {
      if (advance && v.items.size() >= 2) index += " advanced by " + py::normalize_space(m.text_of(*v.items[1]));
      blocks_[std::string(s.targets[0]->text)] = {ptr, index};
      return;
    }
  }
  // Writes: tl.store(ptr, value, mask), a descriptor's `.store([offsets], value)`, and the atomics
  // tl.atomic_add(ptr, value, mask, sem=...) (a statement, or an assignment of the old value).
  const Expr* desc_store = s.kind == Stmt::ExprStmt && s.value ? descriptor_call(m, *s.value, "store") : nullptr;
  if ((s.kind == Stmt::ExprStmt || s.kind == Stmt::Assign) && s.value && s.value->kind == Expr::Call &&
      s.value->func && s.value->items.size() >= 2 &&
      (s.kind == Stmt::ExprStmt ? desc_store || s.value->func->dotted_is("tl.store") || is_triton_atomic(*s.value)
                                : is_triton_atomic(*s.value))) {
    const Expr& call = *s.value;
    MemAccess a;
    if (desc_store) locate(m, *desc_store, a, call.items[0]);
    else locate(m, *call.items[0], a);
    std::vector<std::string> vars;
    read_vars(*call.items[1], vars);
    a.var = vars.empty() ? py::normalize_space(m.text_of(*call.items[1])) : vars[0];
    if (a.value_dtype == DType::Unknown) a.value_dtype = dtype_in(ptr_dtype_, a.ptr);
    a.atomic = is_triton_atomic(call);
    if (!desc_store) a.mask = argument_text(m, call, 2, "mask");
    a.loc = loc;
    KernelStmt st{"", a.atomic ? "atomic" : "store", {a.var}, loc};
    if (s.kind == Stmt::Assign && !s.targets.empty() && s.targets[0]->kind == Expr::Name) {
      st.var = std::string(s.targets[0]->text);
      var_dtype_[std::string(st.var.str())] = a.value_dtype;
    }
    k_.stores.push_back(std::move(a));
    k_.stmts.push_back(std::move(st));
    return;
  }
  if ((s.kind != Stmt::Assign && s.kind != Stmt::AnnAssign) || !s.value || s.targets.empty()) return;
  // Target variable(s): `tmp10, = tl.associative_scan(...)` has a one-element tuple target.
  std::vector<std::string> targets;
  const Expr& t = *s.targets[0];
  if (t.kind == Expr::Name) targets.emplace_back(t.text);
  else if (t.kind == Expr::Tuple)
    for (auto& i : t.items)
      if (i->kind == Expr::Name) targets.emplace_back(i->text);
  if (targets.empty()) return;
  const std::string& var = targets[0];
  // Index variables (`x0 = xindex % 16`, `r0_1 = r0_index`): kept so that rules can compare
  // index expressions spelled through different variables (inplace-read-after-write).
  if (t.kind == Expr::Name && var.rfind("tmp", 0) != 0) k_.var_defs[var] = py::normalize_space(m.text_of(*s.value));
  KernelStmt st;
  st.var = var;
  st.loc = loc;
  std::vector<IString> operands;
  read_vars(*s.value, operands);
  st.operands = operands;
  assignment(m, s, std::move(st), targets);
}

void TritonKernelReader::assignment(const py::Module& m, const Stmt& s, KernelStmt st,
                                    const std::vector<std::string>& targets) {
  const std::string& var = targets[0];
  const Expr& v = *s.value;
  SourceLoc loc = st.loc;
  // numel literals: `xnumel = 40`, `r0_numel = 15`.
  if (v.kind == Expr::Number &&
      (var == "xnumel" || var == "ynumel" || var == "znumel" || var.find("_numel") != std::string::npos)) {
    double n;
    // Only values an int64 holds: `xnumel = 1e99` is no static numel (and converting it would be
    // undefined behaviour; found by fuzz_triton, input 014133f4).
    if (py::number_value(v.text, n) && n >= -9.2e18 && n <= 9.2e18) k_.numels[var] = static_cast<int64_t>(n);
    return;
  }
  // Peel a trailing `.to(dtype)` off loads and casts.
  const Expr* core = &v;
  DType cast_to = DType::Unknown;
  if (v.kind == Expr::Call && v.func && v.func->kind == Expr::Attribute && v.func->text == "to" && !v.items.empty()) {
    cast_to = tl_dtype(v.items[0]);
    core = v.func->func;
  }
  // And a broadcasting subscript: `tl.sum(tmp45, 1)[:, None]`.
  while (core->kind == Expr::Subscript && !core->items.empty() && core->items[0]->kind == Expr::Call)
    core = core->items[0];
  std::string callee = (core->kind == Expr::Call && core->func) ? core->func->dotted() : "";
  const Expr* desc = descriptor_call(m, *core, "load");
  if ((callee == "tl.load" && !core->items.empty()) || desc) {
    MemAccess a;
    if (desc) {
      locate(m, *desc, a, core->items[0]);
    } else {
      locate(m, *core->items[0], a);
      a.mask = argument_text(m, *core, 1, "mask");
      a.other = argument_text(m, *core, 2, "other");
    }
    a.var = var;
    DType stored = a.value_dtype != DType::Unknown ? a.value_dtype : dtype_in(ptr_dtype_, a.ptr);
    a.value_dtype = cast_to != DType::Unknown ? cast_to : stored;
    a.loc = loc;
    var_dtype_[var] = a.value_dtype;
    st.op = "load";
    st.operands = {a.ptr};
    if (cast_to != DType::Unknown && cast_to != stored) k_.casts.push_back(CastOp{var, a.ptr, cast_to, loc});
    k_.loads.push_back(std::move(a));
    k_.stmts.push_back(std::move(st));
    return;
  }
  if (cast_to != DType::Unknown && core->kind == Expr::Name) {
    // `tmp3 = tmp2.to(tl.float32)`
    k_.casts.push_back(CastOp{var, std::string(core->text), cast_to, loc});
    var_dtype_[var] = cast_to;
    st.op = "cast";
    st.operands = {std::string(core->text)};
    k_.stmts.push_back(std::move(st));
    return;
  }
  if (reduction(m, *core, st, targets)) return;
  // Everything else: arithmetic, tl.where, tl.full, libdevice calls.
  DType d = DType::Unknown;
  if (callee == "tl.full" && core->items.size() >= 3) {
    d = tl_dtype(core->items[2]);
    st.op = "full";
  } else if (v.kind == Expr::BinOp) {
    st.op = v.text == "+" ? "add" : v.text == "-" ? "sub" : v.text == "*" ? "mul" : v.text == "/" ? "div" : std::string(v.text);
  } else if (!callee.empty()) {
    st.op = "call:" + callee;
  } else if (v.kind == Expr::Name) {
    st.op = "copy";
  } else {
    st.op = "other";
  }
  if (d == DType::Unknown) {
    for (auto& o : st.operands)
      if (auto it = var_dtype_.find(o); it != var_dtype_.end()) d = promote(d, it->second);
  }
  if (cast_to != DType::Unknown) {
    k_.casts.push_back(CastOp{var, st.operands.empty() ? "" : st.operands[0], cast_to, loc});
    d = cast_to;
  }
  if (callee.find("where") != std::string::npos && st.operands.size() >= 3) {
    // tl.where(cond, a, b): the dtype is that of the branches, not of the condition.
    d = promote(dtype_in(var_dtype_, st.operands[1]), dtype_in(var_dtype_, st.operands[2]));
  }
  var_dtype_[var] = d;
  literals_in(v, var);
  k_.stmts.push_back(std::move(st));
}

// Scans and reductions (`tl.associative_scan`, a split scan's lookback, `tl.sum`, ...): a ReduceOp,
// and the statement. False when `core` is none.
bool TritonKernelReader::reduction(const py::Module& m, const Expr& core, KernelStmt& st,
                                   const std::vector<std::string>& targets) {
  const std::string& var = targets[0];
  std::string callee = (core.kind == Expr::Call && core.func) ? core.func->dotted() : "";
  bool lookback = callee.find("exclusive_scan_decoupled_lookback") != std::string::npos;
  if (lookback && core.items.size() >= 2) {
    // A split scan's cross-block step, `exclusive_scan_decoupled_lookback(ws, value, block, combine)`:
    // it publishes the block's aggregate in the workspace and reads its predecessors' there.
    MemAccess a;
    locate(m, *core.items[0], a);
    a.var = var;
    a.atomic = true;
    a.loc = st.loc;
    k_.stores.push_back(std::move(a));
  }
  static const std::map<std::string, std::string> reducers = {
      {"tl.sum", "add"}, {"triton_helpers.sum", "add"}, {"tl.max", "max"}, {"tl.min", "min"},
      {"triton_helpers.max2", "max"}, {"triton_helpers.min2", "min"}, {"tl.reduce", "unknown"},
      {"triton_helpers.welford_reduce", "welford"}, {"triton_helpers.welford", "welford"},
      {"triton_helpers.online_softmax_reduce", "online_softmax"}, {"tl.argmax", "argmax"}, {"tl.argmin", "argmin"},
      {"triton_helpers.prod", "mul"}, {"tl.cumsum", "add"}, {"tl.cumprod", "mul"}};
  auto red = reducers.find(callee);
  bool associative_scan = callee == "tl.associative_scan" || lookback;
  if (!associative_scan && red == reducers.end()) return false;
  ReduceOp r;
  r.result_var = var;
  std::vector<std::string> in;
  if (associative_scan) {
    r.is_scan = true;
    // The scanned value: the first argument, or the lookback's second (its first is the workspace).
    if (core.items.size() > (lookback ? 1u : 0u)) read_vars(*core.items[lookback ? 1 : 0], in);
    std::string helper;
    for (auto& i : core.items)
      if (i->kind == Expr::Name && i->text.rfind("_triton_helper_fn", 0) == 0) helper = std::string(i->text);
    if (const Expr* cf = core.kwarg("combine_fn")) helper = cf->dotted();
    r.combine = combine_of(helper);
  } else {
    r.is_scan = callee == "tl.cumsum" || callee == "tl.cumprod";
    r.combine = red->second;
    if (!core.items.empty()) read_vars(*core.items[0], in);
    if (callee == "tl.reduce" && core.items.size() >= 3 && core.items[2]->kind == Expr::Name)
      r.combine = combine_of(std::string(core.items[2]->text));
  }
  r.input_var = in.empty() ? "" : in[0];
  r.compute_dtype = dtype_in(var_dtype_, r.input_var);
  r.accumulator_dtype = r.compute_dtype;
  r.loc = st.loc;
  k_.reductions.push_back(r);
  for (auto& tv : targets) var_dtype_[tv] = r.compute_dtype;
  st.op = r.is_scan ? "scan" : "reduce";
  k_.stmts.push_back(std::move(st));
  return true;
}

void TritonKernelReader::finish(const std::vector<py::ParseIssue>& issues, DiagSink& diags) {
  for (auto& i : issues) {
    k_.parse_errors.push_back(i.message);
    diags.warning("parse-triton", "kernel " + k_.name + ": " + i.message, SourceLoc{file_, i.line, i.col});
  }
  if (!def_seen_ && !k_.source.empty()) {
    k_.parse_errors.push_back("no @triton.jit function named " + k_.name);
    diags.warning("parse-triton", "kernel " + k_.name + ": no @triton.jit function of that name", k_.def_loc);
  }
  if (!has_barrier_) {
    for (size_t i = first_load_; i < k_.loads.size(); ++i) k_.loads[i].nest = -1;
    for (size_t i = first_store_; i < k_.stores.size(); ++i) k_.stores[i].nest = -1;
  }
  k_.heuristic = decorator_kind_;
  KernelKind kind = kind_from_decorator(decorator_kind_);
  k_.forms.assign(forms_.begin(), forms_.end());

  // Scan/reduction length: the reduction numel of the body (r0_numel), when static.
  int64_t rlen = -1;
  for (auto& [name, n] : k_.numels)
    if (name.rfind("r", 0) == 0 && name.find("numel") != std::string::npos) rlen = rlen < 0 ? n : rlen * n;
  for (auto& r : k_.reductions) {
    r.length = rlen;
    if (rlen < 0) r.length_expr = "r0_numel";
  }
  if (kind == KernelKind::Unknown && !k_.reductions.empty()) kind = KernelKind::Reduction;
  // A reduction kernel whose only reductions are scans is a scan kernel, whatever its heuristic.
  bool all_scans = !k_.reductions.empty();
  for (auto& r : k_.reductions) all_scans = all_scans && r.is_scan;
  if (all_scans) kind = KernelKind::Scan;
  k_.kind = kind;
  keep_index_definitions(k_);
}

}  // namespace

void read_triton_kernel(Kernel& k, const FilePath& file, DiagSink& diags, TritonDecoratorRead how) {
  // The decorator's metadata, read by hand where the scanner answers. The parser then reads the
  // source without the decorator's bytes, its line ends kept: every other statement keeps its
  // lines and columns (byte offsets after it move, and only this module's texts use them).
  scan::TritonDecorator dec;
  bool scanned = how == TritonDecoratorRead::Scan && scan::triton_decorator(k.source, dec) == scan::Match::Yes;
  std::string without_decorator;
  std::string_view text = k.source;
  if (scanned) {
    std::string_view src = k.source;
    without_decorator.reserve(src.size() - (dec.end - dec.begin) + dec.line_ends);
    without_decorator.append(src.substr(0, dec.begin)).append(dec.line_ends, '\n').append(src.substr(dec.end));
    text = without_decorator;
  }
  k.backend = KernelBackend::Triton;
  TritonKernelReader reader(k, file, scanned ? &dec : nullptr);
  // The text outlives the pieces (k.source is not assigned below, `without_decorator` is local):
  // they are parsed in place.
  std::vector<py::ParseIssue> issues;
  py::parse_module_by_pieces(text, k.source_first_line - 1, issues, [&](const py::Module& m) {
    for (const auto& s : m.stmts) reader.statement(m, s);
  });
  reader.finish(issues, diags);
}

}  // namespace ilint
