// Reads one Triton kernel source (the string inside async_compile.triton('name', '''...''')) into
// the model: decorator metadata (kind, signature, mutated_arg_names), the SSA statements of the
// body, loads/stores/casts/literals, and scans/reductions with their compute dtype and length.
#include "analyzer/parse/triton_kernel.h"

#include <functional>
#include <map>
#include <tuple>
#include <set>
#include <unordered_map>

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

std::string combine_from_helper(const std::vector<Stmt>& stmts, const std::string& helper) {
  // _triton_helper_fn_add0(arg0_0, arg1_0): tmp0 = arg0_0 + arg1_0; return tmp0
  for (const auto& s : stmts) {
    if (s.enclosing_def != helper) continue;
    if (s.kind == Stmt::Assign && s.value) {
      const Expr& v = *s.value;
      if (v.kind == Expr::BinOp) {
        if (v.text == "+") return "add";
        if (v.text == "*") return "mul";
      }
      if (v.kind == Expr::Call && v.func) {
        std::string f = v.func->dotted();
        if (f.find("maximum") != std::string::npos) return "max";
        if (f.find("minimum") != std::string::npos) return "min";
        if (f.find("logaddexp") != std::string::npos || f.find("log1p") != std::string::npos) return "logaddexp";
      }
    }
  }
  // The helper name itself says it: _triton_helper_fn_add0.
  for (const char* c : {"add", "mul", "maximum", "minimum", "logaddexp"})
    if (helper.find(c) != std::string::npos) return c == std::string("maximum") ? "max" : (c == std::string("minimum") ? "min" : c);
  return "unknown";
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
  // The text outlives the module (k.source is not assigned below, `without_decorator` is local): parse it in place.
  py::Module m = py::parse_module_view(text, k.source_first_line - 1);
  for (auto& i : m.issues) {
    k.parse_errors.push_back(i.message);
    diags.warning("parse-triton", "kernel " + k.name + ": " + i.message, SourceLoc{file, i.line, i.col});
  }
  k.backend = KernelBackend::Triton;

  auto add_param = [&](std::string_view name, std::string_view type_text) {
    KernelParam p;
    p.name = std::string(name);
    p.type_text = std::string(type_text);
    p.is_constexpr = p.type_text == "constexpr";
    p.is_pointer = !p.type_text.empty() && p.type_text[0] == '*';
    p.dtype = p.is_constexpr ? DType::Unknown : parse_dtype(p.type_text);
    k.params.push_back(p);
  };
  // Decorators and the jit function.
  std::string decorator_kind;
  if (scanned) {
    decorator_kind = std::string(dec.kind);
    for (auto& [name, type_text] : dec.signature) add_param(name, type_text);
    if (dec.has_mutated_args) {
      k.has_mutated_args = true;
      for (std::string_view a : dec.mutated_args) k.mutated_args.emplace_back(a);
    }
  }
  const Stmt* def = nullptr;
  for (const auto& s : m.stmts) {
    if (s.kind == Stmt::Decorator && s.value && s.value->kind == Expr::Call && s.value->func) {
      std::string d = s.value->func->dotted();
      if (d.rfind("triton_heuristics.", 0) == 0) {
        decorator_kind = d.substr(std::string("triton_heuristics.").size());
        if (const Expr* tm = s.value->kwarg("triton_meta")) {
          if (const Expr* sig = dict_get(*tm, "signature")) {
            for (size_t i = 0; i + 1 < sig->items.size(); i += 2) add_param(sig->items[i]->text, sig->items[i + 1]->text);
          }
        }
        if (const Expr* im = s.value->kwarg("inductor_meta")) {
          if (const Expr* mut = dict_get(*im, "mutated_arg_names")) {
            k.has_mutated_args = true;
            for (auto& it : mut->items)
              if (it->kind == Expr::String) k.mutated_args.emplace_back(it->text);
          }
        }
      }
    }
    if (s.kind == Stmt::Def && s.name == k.name) def = &s;
  }
  k.heuristic = decorator_kind;
  k.kind = kind_from_decorator(decorator_kind);
  if (def) k.body_loc = SourceLoc{file, def->line, def->col};
  else if (!k.source.empty()) {
    k.parse_errors.push_back("no @triton.jit function named " + k.name);
    diags.warning("parse-triton", "kernel " + k.name + ": no @triton.jit function of that name", k.def_loc);
  }
  if (k.params.empty() && def) {
    for (auto& [pname, ann] : def->params) {
      KernelParam p;
      p.name = std::string(pname);
      p.is_constexpr = ann && m.text_of(*ann).find("constexpr") != std::string::npos;
      p.is_pointer = pname.find("ptr") != std::string::npos;
      k.params.push_back(p);
    }
  }

  std::set<std::string, std::less<>> ptrs;
  DTypeByName ptr_dtype;
  for (auto& p : k.params)
    if (p.is_pointer) {
      ptrs.insert(p.name);
      ptr_dtype[p.name] = p.dtype;
    }
  DTypeByName var_dtype;
  var_dtype.reserve(m.stmts.size());
  // Scalar (non-pointer) params: fp32/fp64/i32 values.
  for (auto& p : k.params)
    if (!p.is_pointer && !p.is_constexpr) var_dtype[p.name] = p.dtype;

  auto record_literal = [&](const Expr& e, const std::string& var) {
    double v;
    if (e.kind == Expr::Number && py::number_value(e.text, v)) {
      k.literals.push_back(LiteralUse{std::string(e.text), v, var, SourceLoc{file, e.line, e.col}});
    } else if (e.kind == Expr::UnaryOp && e.text == "-" && e.items.size() == 1 && e.items[0]->kind == Expr::Number &&
               py::number_value(e.items[0]->text, v)) {
      k.literals.push_back(LiteralUse{"-" + std::string(e.items[0]->text), -v, var, SourceLoc{file, e.line, e.col}});
    }
  };
  // Literals anywhere in an expression that are operands of arithmetic (not indices or shapes).
  std::function<void(const Expr&, const std::string&)> literals_in = [&](const Expr& e, const std::string& var) {
    if (e.kind == Expr::BinOp) {
      for (auto& i : e.items) {
        if (i->kind == Expr::Number || (i->kind == Expr::UnaryOp && i->text == "-" && !i->items.empty() &&
                                         i->items[0]->kind == Expr::Number))
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
  };

  // Block pointers and tensor descriptors (`block_ptr0 = tl.make_block_ptr(in_ptr0, ...)`,
  // `tma_descriptor0 = tl.make_tensor_descriptor(in_ptr0, ...)`): the pointer parameter each
  // addresses and the text of its layout, "block(offsets=[xoffset, 0], strides=[1024, 1])".
  std::map<std::string, std::pair<std::string, std::string>, std::less<>> blocks;
  auto block_of = [&](const Expr& e, std::string& ptr, std::string& index) {
    if (e.kind == Expr::Name) {
      auto it = blocks.find(e.text);
      if (it == blocks.end()) return false;
      std::tie(ptr, index) = it->second;
      return true;
    }
    if (e.kind != Expr::Call || !e.func || e.items.empty() || e.items[0]->kind != Expr::Name ||
        !ptrs.count(e.items[0]->text))
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
  };
  // Pointers made from a parameter: a workspace's `tmp13_ws = (ws_ptr + 4096).to(tl.pointer_type(tl.float32))`,
  // a split scan's `tmp2 = ws_ptr.to(tl.pointer_type(tl.uint64)) + xoffset * 1 * tmp1`: the parameter,
  // the alias's text, and the element dtype a `tl.pointer_type` gives it.
  struct PointerAlias {
    std::string ptr, text;
    DType dtype = DType::Unknown;
  };
  std::map<std::string, PointerAlias, std::less<>> aliases;
  std::function<bool(const Expr&, PointerAlias&)> alias_of = [&](const Expr& e, PointerAlias& out) {
    if (e.kind == Expr::Name) {
      if (ptrs.count(e.text)) {
        out.ptr = std::string(e.text);
        out.dtype = dtype_in(ptr_dtype, out.ptr);
        return true;
      }
      auto it = aliases.find(e.text);
      if (it == aliases.end()) return false;
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
  };
  // Grid barriers met so far (MemAccess::nest) in a kernel that has one (a cooperative reduction's
  // `triton_helpers.x_grid_barrier`); -1 in others.
  int barriers = -1;
  if (def)
    for (const auto& s : m.stmts)
      if (s.enclosing_def == k.name && s.value && s.value->kind == Expr::Call && s.value->func &&
          s.value->func->dotted_is("triton_helpers.x_grid_barrier"))
        barriers = 0;
  // Where a load or store goes: `ptr + (index)`, a block pointer, a pointer made from a parameter,
  // or a descriptor's `.load([offsets])` / `.store([offsets], value)` (`offsets` given for those).
  // Every access of the kernel is placed here, and so gets its nest.
  auto locate = [&](const Expr& e, MemAccess& a, const Expr* offsets = nullptr) {
    a.nest = barriers;
    split_pointer(m, e, ptrs, a.ptr, a.index);
    std::string ptr, index;
    if (a.ptr.empty() && block_of(e, ptr, index)) {
      a.ptr = ptr;
      a.index = offsets ? index + py::normalize_space(m.text_of(*offsets)) : index;
    }
    PointerAlias alias;
    if (a.ptr.empty() && alias_of(e, alias)) {
      a.ptr = alias.ptr;
      a.index = py::normalize_space(m.text_of(e));  // the whole address: "tmp13_ws + (xindex * RSPLIT + rsplit_id)"
      a.value_dtype = alias.dtype;
    }
  };
  // `desc.load([...])`, `tl.make_tensor_descriptor(...).store([...], v)`: the descriptor called.
  auto descriptor_call = [&](const Expr& call, std::string_view method) -> const Expr* {
    if (call.kind != Expr::Call || !call.func || call.func->kind != Expr::Attribute || call.func->text != method ||
        !call.func->func || call.items.empty())
      return nullptr;
    std::string ptr, index;
    return block_of(*call.func->func, ptr, index) ? call.func->func : nullptr;
  };

  std::set<std::string> forms;
  for (const auto& s : m.stmts) {
    if (!def || s.enclosing_def != k.name) continue;
    add_triton_forms(s, forms);
    SourceLoc loc{file, s.line, s.col};
    if (barriers >= 0 && s.kind == Stmt::ExprStmt && s.value && s.value->kind == Expr::Call && s.value->func &&
        s.value->func->dotted_is("triton_helpers.x_grid_barrier"))
      ++barriers;
    if (s.kind == Stmt::Assign && s.value && !s.targets.empty() && s.targets[0]->kind == Expr::Name) {
      // `block_ptr0 = tl.make_block_ptr(...)`, and `block_ptr0 = tl.advance(block_ptr0, [0, R0_BLOCK])`.
      const Expr& v = *s.value;
      PointerAlias alias;
      if (v.kind != Expr::Name && alias_of(v, alias)) {
        alias.text = py::normalize_space(m.text_of(v));
        aliases[std::string(s.targets[0]->text)] = alias;
        k.var_defs[std::string(s.targets[0]->text)] = alias.text;
        continue;
      }
      std::string ptr, index;
      bool advance = v.kind == Expr::Call && v.func && v.func->dotted_is("tl.advance") && !v.items.empty();
      if (block_of(advance ? *v.items[0] : v, ptr, index)) {
        if (advance && v.items.size() >= 2) index += " advanced by " + py::normalize_space(m.text_of(*v.items[1]));
        blocks[std::string(s.targets[0]->text)] = {ptr, index};
        continue;
      }
    }
    // Writes: tl.store(ptr, value, mask), a descriptor's `.store([offsets], value)`, and the atomics
    // tl.atomic_add(ptr, value, mask, sem=...) (a statement, or an assignment of the old value).
    const Expr* desc_store = s.kind == Stmt::ExprStmt && s.value ? descriptor_call(*s.value, "store") : nullptr;
    if ((s.kind == Stmt::ExprStmt || s.kind == Stmt::Assign) && s.value && s.value->kind == Expr::Call &&
        s.value->func && s.value->items.size() >= 2 &&
        (s.kind == Stmt::ExprStmt ? desc_store || s.value->func->dotted_is("tl.store") || is_triton_atomic(*s.value)
                                  : is_triton_atomic(*s.value))) {
      const Expr& call = *s.value;
      MemAccess a;
      if (desc_store) locate(*desc_store, a, call.items[0]);
      else locate(*call.items[0], a);
      std::vector<std::string> vars;
      read_vars(*call.items[1], vars);
      a.var = vars.empty() ? py::normalize_space(m.text_of(*call.items[1])) : vars[0];
      if (a.value_dtype == DType::Unknown) a.value_dtype = dtype_in(ptr_dtype, a.ptr);
      a.atomic = is_triton_atomic(call);
      if (!desc_store) a.mask = argument_text(m, call, 2, "mask");
      a.loc = loc;
      KernelStmt st{"", a.atomic ? "atomic" : "store", {a.var}, loc};
      if (s.kind == Stmt::Assign && !s.targets.empty() && s.targets[0]->kind == Expr::Name) {
        st.var = std::string(s.targets[0]->text);
        var_dtype[std::string(st.var.str())] = a.value_dtype;
      }
      k.stores.push_back(std::move(a));
      k.stmts.push_back(std::move(st));
      continue;
    }
    if ((s.kind != Stmt::Assign && s.kind != Stmt::AnnAssign) || !s.value || s.targets.empty()) continue;
    // Target variable(s): `tmp10, = tl.associative_scan(...)` has a one-element tuple target.
    std::vector<std::string> targets;
    const Expr& t = *s.targets[0];
    if (t.kind == Expr::Name) targets.emplace_back(t.text);
    else if (t.kind == Expr::Tuple)
      for (auto& i : t.items)
        if (i->kind == Expr::Name) targets.emplace_back(i->text);
    if (targets.empty()) continue;
    const std::string& var = targets[0];
    const Expr& v = *s.value;
    // Index variables (`x0 = xindex % 16`, `r0_1 = r0_index`): kept so that rules can compare
    // index expressions spelled through different variables (inplace-read-after-write).
    if (t.kind == Expr::Name && var.rfind("tmp", 0) != 0) k.var_defs[var] = py::normalize_space(m.text_of(v));
    KernelStmt st;
    st.var = var;
    st.loc = loc;
    read_vars(v, st.operands);

    // numel literals: `xnumel = 40`, `r0_numel = 15`.
    if (v.kind == Expr::Number && (var == "xnumel" || var == "ynumel" || var == "znumel" || var.find("_numel") != std::string::npos)) {
      double n;
      // Only values an int64 holds: `xnumel = 1e99` is no static numel (and converting it would be
      // undefined behaviour; found by fuzz_triton, input 014133f4).
      if (py::number_value(v.text, n) && n >= -9.2e18 && n <= 9.2e18) k.numels[var] = static_cast<int64_t>(n);
      continue;
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
    const Expr* desc = descriptor_call(*core, "load");
    if ((callee == "tl.load" && !core->items.empty()) || desc) {
      MemAccess a;
      if (desc) {
        locate(*desc, a, core->items[0]);
      } else {
        locate(*core->items[0], a);
        a.mask = argument_text(m, *core, 1, "mask");
        a.other = argument_text(m, *core, 2, "other");
      }
      a.var = var;
      DType stored = a.value_dtype != DType::Unknown ? a.value_dtype : dtype_in(ptr_dtype, a.ptr);
      a.value_dtype = cast_to != DType::Unknown ? cast_to : stored;
      a.loc = loc;
      var_dtype[var] = a.value_dtype;
      st.op = "load";
      st.operands = {a.ptr};
      if (cast_to != DType::Unknown && cast_to != stored)
        k.casts.push_back(CastOp{var, a.ptr, cast_to, loc});
      k.loads.push_back(std::move(a));
      k.stmts.push_back(std::move(st));
      continue;
    }
    if (cast_to != DType::Unknown && core->kind == Expr::Name) {
      // `tmp3 = tmp2.to(tl.float32)`
      k.casts.push_back(CastOp{var, std::string(core->text), cast_to, loc});
      var_dtype[var] = cast_to;
      st.op = "cast";
      st.operands = {std::string(core->text)};
      k.stmts.push_back(std::move(st));
      continue;
    }
    bool lookback = callee.find("exclusive_scan_decoupled_lookback") != std::string::npos;
    if (lookback && core->items.size() >= 2) {
      // A split scan's cross-block step, `exclusive_scan_decoupled_lookback(ws, value, block, combine)`:
      // it publishes the block's aggregate in the workspace and reads its predecessors' there.
      MemAccess a;
      locate(*core->items[0], a);
      a.var = var;
      a.atomic = true;
      a.loc = loc;
      k.stores.push_back(std::move(a));
    }
    if (callee == "tl.associative_scan" || lookback) {
      ReduceOp r;
      r.is_scan = true;
      r.result_var = var;
      std::vector<std::string> in;
      // The scanned value: the first argument, or the lookback's second (its first is the workspace).
      if (core->items.size() > (lookback ? 1u : 0u)) read_vars(*core->items[lookback ? 1 : 0], in);
      r.input_var = in.empty() ? "" : in[0];
      std::string helper;
      for (auto& i : core->items)
        if (i->kind == Expr::Name && i->text.rfind("_triton_helper_fn", 0) == 0) helper = std::string(i->text);
      if (const Expr* cf = core->kwarg("combine_fn")) helper = cf->dotted();
      r.combine = combine_from_helper(m.stmts, helper);
      r.compute_dtype = dtype_in(var_dtype, r.input_var);
      r.accumulator_dtype = r.compute_dtype;
      r.loc = loc;
      k.reductions.push_back(r);
      for (auto& tv : targets) var_dtype[tv] = r.compute_dtype;
      st.op = "scan";
      k.stmts.push_back(std::move(st));
      continue;
    }
    static const std::map<std::string, std::string> reducers = {
        {"tl.sum", "add"}, {"triton_helpers.sum", "add"}, {"tl.max", "max"}, {"tl.min", "min"},
        {"triton_helpers.max2", "max"}, {"triton_helpers.min2", "min"}, {"tl.reduce", "unknown"},
        {"triton_helpers.welford_reduce", "welford"}, {"triton_helpers.welford", "welford"},
        {"triton_helpers.online_softmax_reduce", "online_softmax"}, {"tl.argmax", "argmax"}, {"tl.argmin", "argmin"},
        {"triton_helpers.prod", "mul"}, {"tl.cumsum", "add"}, {"tl.cumprod", "mul"}};
    auto red = reducers.find(callee);
    if (red != reducers.end()) {
      ReduceOp r;
      r.is_scan = callee == "tl.cumsum" || callee == "tl.cumprod";
      r.combine = red->second;
      r.result_var = var;
      std::vector<std::string> in;
      if (!core->items.empty()) read_vars(*core->items[0], in);
      r.input_var = in.empty() ? "" : in[0];
      if (callee == "tl.reduce" && core->items.size() >= 3 && core->items[2]->kind == Expr::Name)
        r.combine = combine_from_helper(m.stmts, std::string(core->items[2]->text));
      r.compute_dtype = dtype_in(var_dtype, r.input_var);
      r.accumulator_dtype = r.compute_dtype;
      r.loc = loc;
      k.reductions.push_back(r);
      for (auto& tv : targets) var_dtype[tv] = r.compute_dtype;
      st.op = r.is_scan ? "scan" : "reduce";
      k.stmts.push_back(std::move(st));
      continue;
    }
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
        if (auto it = var_dtype.find(o); it != var_dtype.end()) d = promote(d, it->second);
    }
    if (cast_to != DType::Unknown) {
      k.casts.push_back(CastOp{var, st.operands.empty() ? "" : st.operands[0], cast_to, loc});
      d = cast_to;
    }
    if (callee.find("where") != std::string::npos && st.operands.size() >= 3) {
      // tl.where(cond, a, b): the dtype is that of the branches, not of the condition.
      d = promote(dtype_in(var_dtype, st.operands[1]),
                  dtype_in(var_dtype, st.operands[2]));
    }
    var_dtype[var] = d;
    literals_in(v, var);
    k.stmts.push_back(std::move(st));
  }

  k.forms.assign(forms.begin(), forms.end());

  // Scan/reduction length: the reduction numel of the body (r0_numel), when static.
  int64_t rlen = -1;
  for (auto& [name, n] : k.numels)
    if (name.rfind("r", 0) == 0 && name.find("numel") != std::string::npos) rlen = rlen < 0 ? n : rlen * n;
  for (auto& r : k.reductions) {
    r.length = rlen;
    if (rlen < 0) r.length_expr = "r0_numel";
  }
  if (k.kind == KernelKind::Unknown && !k.reductions.empty()) k.kind = KernelKind::Reduction;
  // A reduction kernel whose only reductions are scans is a scan kernel, whatever its heuristic.
  bool all_scans = !k.reductions.empty();
  for (auto& r : k.reductions) all_scans = all_scans && r.is_scan;
  if (all_scans) k.kind = KernelKind::Scan;
}

}  // namespace ilint
