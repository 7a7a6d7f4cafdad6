// Reads one Triton kernel source (the string inside async_compile.triton('name', '''...''')) into
// the model: decorator metadata (kind, signature, mutated_arg_names), the SSA statements of the
// body, loads/stores/casts/literals, and scans/reductions with their compute dtype and length.
#include "analyzer/parse/triton_kernel.h"

#include <functional>
#include <map>
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

  for (const auto& s : m.stmts) {
    if (!def || s.enclosing_def != k.name) continue;
    SourceLoc loc{file, s.line, s.col};
    if (s.kind == Stmt::ExprStmt && s.value && s.value->kind == Expr::Call && s.value->func &&
        s.value->func->dotted_is("tl.store") && s.value->items.size() >= 2) {
      MemAccess a;
      split_pointer(m, *s.value->items[0], ptrs, a.ptr, a.index);
      std::vector<std::string> vars;
      read_vars(*s.value->items[1], vars);
      a.var = vars.empty() ? py::normalize_space(m.text_of(*s.value->items[1])) : vars[0];
      a.value_dtype = dtype_in(ptr_dtype, a.ptr);
      a.loc = loc;
      KernelStmt st{"", "store", {a.var}, loc};
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
    if (callee == "tl.load" && !core->items.empty()) {
      MemAccess a;
      split_pointer(m, *core->items[0], ptrs, a.ptr, a.index);
      a.var = var;
      DType stored = dtype_in(ptr_dtype, a.ptr);
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
    if (callee == "tl.associative_scan" || callee.find("exclusive_scan_decoupled_lookback") != std::string::npos) {
      ReduceOp r;
      r.is_scan = true;
      r.result_var = var;
      std::vector<std::string> in;
      if (!core->items.empty()) read_vars(*core->items[0], in);
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
