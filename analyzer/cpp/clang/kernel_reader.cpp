// The Clang reader of Inductor's C++ (CPU) kernels: parse in memory against our prelude, walk
// the AST once, and fill the same Kernel model the Triton path fills. See docs/cpp-kernels.md.
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

#include "analyzer/cpp/clang/clang_common.h"
#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/cpp/cpp_kernel_facts.h"
#include "analyzer/util/hash.h"
#include "analyzer/util/parallel.h"
#include "analyzer/util/text.h"

namespace ilint {

namespace {

using namespace clangx;
using cpp_kernel_facts::accumulator_base;
using cpp_kernel_facts::Accumulators;

const char kPrelude[] =
#include "analyzer/cpp/prelude/cpp_prefix_prelude.inc"
    ;

// ------------------------------------------------------------------ facts with source-relative lines

// What one parse of a kernel source yields (cpp_kernel_facts.h), and Clang's errors.
struct ParsedKernel : cpp_kernel_facts::KernelFacts {
  std::vector<ClangError> errors;
};

// A for loop around the node being visited: its ForStmt is its id.
using LoopInfo = cpp_kernel_facts::Loop;

std::string binop_name(clang::BinaryOperatorKind k) {
  using K = clang::BinaryOperatorKind;
  switch (k) {
    case K::BO_Add: return "add";
    case K::BO_Sub: return "sub";
    case K::BO_Mul: return "mul";
    case K::BO_Div: return "div";
    case K::BO_Rem: return "mod";
    case K::BO_And: return "and";
    case K::BO_Or: return "or";
    case K::BO_Xor: return "xor";
    case K::BO_Shl: return "shl";
    case K::BO_Shr: return "shr";
    case K::BO_LT: return "lt";
    case K::BO_LE: return "le";
    case K::BO_GT: return "gt";
    case K::BO_GE: return "ge";
    case K::BO_EQ: return "eq";
    case K::BO_NE: return "ne";
    case K::BO_LAnd: return "land";
    case K::BO_LOr: return "lor";
    default: return "";
  }
}

std::string overloaded_name(clang::OverloadedOperatorKind k, unsigned nargs) {
  using O = clang::OverloadedOperatorKind;
  switch (k) {
    case O::OO_Plus: return nargs == 1 ? "copy" : "add";
    case O::OO_Minus: return nargs == 1 ? "neg" : "sub";
    case O::OO_Star: return "mul";
    case O::OO_Slash: return "div";
    case O::OO_Percent: return "mod";
    case O::OO_Amp: return "and";
    case O::OO_Pipe: return "or";
    case O::OO_Caret: return "xor";
    case O::OO_LessLess: return "shl";
    case O::OO_GreaterGreater: return "shr";
    case O::OO_Less: return "lt";
    case O::OO_LessEqual: return "le";
    case O::OO_Greater: return "gt";
    case O::OO_GreaterEqual: return "ge";
    case O::OO_EqualEqual: return "eq";
    case O::OO_ExclaimEqual: return "ne";
    case O::OO_AmpAmp: return "land";
    case O::OO_PipePipe: return "lor";
    case O::OO_Exclaim: return "not";
    case O::OO_Tilde: return "bitnot";
    default: return "";
  }
}

// The callee's plain name ("loadu", "convert", "sqrt"), or "" for calls through a variable.
std::string callee_name(const clang::CallExpr* call) {
  if (auto* fd = call->getDirectCallee()) {
    if (fd->getDeclName().isIdentifier()) return fd->getName().str();
  }
  return "";
}

// `[&]{ ... }()` : the lambda being called, if any.
const clang::LambdaExpr* called_lambda(const clang::CallExpr* call) {
  if (auto* oc = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call)) {
    if (oc->getOperator() == clang::OO_Call && oc->getNumArgs() >= 1)
      return llvm::dyn_cast<clang::LambdaExpr>(strip(oc->getArg(0)));
  }
  return nullptr;
}

std::optional<int64_t> eval_int(const clang::Expr* e, const clang::ASTContext& ctx) {
  if (!e || e->isValueDependent()) return std::nullopt;
  clang::Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ctx)) return r.Val.getInt().getExtValue();
  return std::nullopt;
}

// A numeric literal, possibly negated and wrapped in casts: `static_cast<float>(-0.5)`.
const clang::Expr* literal_inside(const clang::Expr* e, bool* negated) {
  *negated = false;
  for (int i = 0; e && i < 8; ++i) {
    e = e->IgnoreParenImpCasts();
    if (llvm::isa<clang::FloatingLiteral>(e) || llvm::isa<clang::IntegerLiteral>(e)) return e;
    if (auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (u->getOpcode() == clang::UO_Minus) {
        *negated = !*negated;
        e = u->getSubExpr();
        continue;
      }
      return nullptr;
    }
    if (auto* c = llvm::dyn_cast<clang::ExplicitCastExpr>(e)) {
      e = c->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

// ------------------------------------------------------------------ the AST walk

class KernelVisitor : public clang::RecursiveASTVisitor<KernelVisitor> {
 public:
  KernelVisitor(clang::ASTContext& ctx, ParsedKernel& out) : ctx_(ctx), sm_(ctx.getSourceManager()), out_(out) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  // `scope` is the translation unit, or the namespace one kernel of a batch was wrapped in.
  void run(const std::string& kernel_name, const clang::DeclContext* scope) {
    // The kernel is `extern "C" void kernel(...)` in cpp_pybinding sources; in cpp_wrapper
    // sources it carries its own name.
    const clang::FunctionDecl* fn = nullptr;
    // noload_decls: the kernel's own declarations, without deserializing the whole prelude from
    // the precompiled preamble.
    for (auto* d : scope->noload_decls()) {
      const clang::FunctionDecl* f = nullptr;
      if (auto* ls = llvm::dyn_cast<clang::LinkageSpecDecl>(d)) {
        for (auto* inner : ls->noload_decls())
          if (auto* g = llvm::dyn_cast<clang::FunctionDecl>(inner)) f = pick(f, g, kernel_name);
      } else if (auto* g = llvm::dyn_cast<clang::FunctionDecl>(d)) {
        f = g;
      }
      if (f && f->doesThisDeclarationHaveABody() && main_file_line(f->getLocation(), sm_) > 0) {
        if (!fn || f->getName() == "kernel" || f->getName() == kernel_name) fn = f;
      }
    }
    if (!fn) return;
    out_.found_function = true;
    out_.function_line = main_file_line(fn->getBeginLoc(), sm_);
    for (auto* p : fn->parameters()) add_param(p);
    TraverseStmt(fn->getBody());
    finish_reductions();
  }

  // ---- declarations and statements

  bool TraverseForStmt(clang::ForStmt* s) {
    LoopInfo li;
    li.id = s;
    if (auto* ds = llvm::dyn_cast_or_null<clang::DeclStmt>(s->getInit())) {
      if (ds->isSingleDecl())
        if (auto* v = llvm::dyn_cast<clang::VarDecl>(ds->getSingleDecl())) {
          li.var = v->getName().str();
          loop_vars_.insert(v);
          if (v->getInit()) li.start = eval_int(v->getInit(), ctx_);
        }
    }
    if (auto* c = llvm::dyn_cast_or_null<clang::BinaryOperator>(s->getCond())) {
      if (c->getOpcode() == clang::BO_LT) {
        li.end = eval_int(c->getRHS(), ctx_);
        li.end_text = node_text(c->getRHS()->getSourceRange(), ctx_);
      } else if (c->getOpcode() == clang::BO_LE) {
        if (auto v = eval_int(c->getRHS(), ctx_)) li.end = *v + 1;
        li.end_text = node_text(c->getRHS()->getSourceRange(), ctx_) + " + 1";
      }
    }
    nests_.enter(loops_);
    loops_.push_back(li);
    bool ok = clang::RecursiveASTVisitor<KernelVisitor>::TraverseForStmt(s);
    loops_.pop_back();
    nests_.leave(loops_);
    return ok;
  }

  bool VisitVarDecl(clang::VarDecl* v) {
    if (llvm::isa<clang::ParmVarDecl>(v) || loop_vars_.count(v) || !v->hasLocalStorage()) return true;
    std::string name = v->getName().str();
    int col = 0;
    int line = main_file_line(v->getLocation(), sm_, &col);
    if (!line) return true;
    std::string base = accumulator_base(name);
    if (!base.empty()) {
      accumulators_.declare(name, elem_dtype(v->getType()), loops_, line, col);
      return true;
    }
    if (!v->getInit()) return true;
    const clang::Expr* init = strip(v->getInit());
    owner_[init] = name;
    record_value(name, init, line, col);
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->isAssignmentOp()) on_assign(b->getLHS(), b->getRHS(), b->getOpcode() != clang::BO_Assign,
                                       b->getOperatorLoc(), b->isCompoundAssignmentOp() ? binop_name(
                                           clang::BinaryOperator::getOpForCompoundAssignment(b->getOpcode())) : "");
    return true;
  }

  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* c) {
    auto op = c->getOperator();
    if (c->getNumArgs() == 2 && (op == clang::OO_Equal || op == clang::OO_PlusEqual || op == clang::OO_MinusEqual ||
                                 op == clang::OO_StarEqual || op == clang::OO_SlashEqual)) {
      std::string compound = op == clang::OO_PlusEqual ? "add" : op == clang::OO_MinusEqual ? "sub"
                             : op == clang::OO_StarEqual ? "mul" : op == clang::OO_SlashEqual ? "div" : "";
      on_assign(c->getArg(0), c->getArg(1), op != clang::OO_Equal, c->getOperatorLoc(), compound);
    }
    return true;
  }

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* a) {
    if (store_targets_.count(a) && !compound_targets_.count(a)) return true;
    const clang::ParmVarDecl* p = param_of(a->getBase());
    if (!p) return true;
    MemAccess m;
    m.ptr = p->getName().str();
    m.index = index_text(a->getIdx());
    m.value_dtype = elem_dtype(p->getType());
    m.vectorized = false;
    m.var = owner_of(a);
    m.loc = here(a->getBeginLoc());
    m.nest = nests_.current();
    out_.loads.push_back(m);
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    std::string name = callee_name(call);
    // Kernel::forms: calls of named functions (an operator's name is no identifier).
    if (!name.empty() && !llvm::isa<clang::CXXOperatorCallExpr>(call)) out_.add_form("call:" + name);
    if (name == "loadu" && call->getNumArgs() >= 1) {
      std::string ptr, index;
      if (pointer_and_index(call->getArg(0), ptr, index)) {
        MemAccess m;
        m.ptr = ptr;
        m.index = index;
        m.value_dtype = elem_dtype(call->getType());
        m.vectorized = is_vector_type(call->getType());
        m.var = owner_of(call);
        m.loc = here(call->getBeginLoc());
        m.nest = nests_.current();
        out_.loads.push_back(m);
      }
    } else if (name == "store" && call->getNumArgs() >= 1) {
      auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(call);
      std::string ptr, index;
      if (mc && pointer_and_index(call->getArg(0), ptr, index)) {
        MemAccess m;
        m.ptr = ptr;
        m.index = index;
        const clang::Expr* obj = strip(mc->getImplicitObjectArgument());
        m.var = var_name(obj);
        m.value_dtype = elem_dtype(obj->getType());
        m.vectorized = is_vector_type(obj->getType());
        m.loc = here(call->getBeginLoc());
        m.nest = nests_.current();
        out_.stores.push_back(m);
        add_store_site(m.var);
      }
    } else if ((name == "convert" || name == "cvt") && call->getNumArgs() == 1) {
      CastOp c;
      c.var = owner_of(call);
      c.src = var_name(strip(call->getArg(0)));
      c.to = elem_dtype(call->getType());
      c.loc = here(call->getBeginLoc());
      out_.casts.push_back(c);
    } else if (name == "from" && call->getNumArgs() >= 1) {
      // `VecMask<float,1>::from(in_ptr2 + i, 16)`: a mask loaded from a bool buffer.
      add_block_access(out_.loads, call->getArg(0), owner_of(call), call, false);
    } else if (name == "transpose_mxn" && call->getNumArgs() >= 3) {
      // transpose_mxn<T, M, N, atomic_add>(src, ld_src, dst, ld_dst): reads an MxN block of src
      // and writes it transposed to dst; either may be a kernel buffer or a local array.
      const clang::Expr* src = strip(call->getArg(0));
      const clang::Expr* dst = strip(call->getArg(2));
      add_block_access(out_.loads, call->getArg(0), var_name(dst), call, false);
      if (add_block_access(out_.stores, call->getArg(2), var_name(src), call, false)) add_store_site(var_name(src));
    } else if ((name == "atomic_add" || name == "atomic_add_vec") && call->getNumArgs() >= 2) {
      // atomic_add(out_ptr0 + i, value); atomic_add_vec(out_ptr0, indices, values).
      bool vec = name == "atomic_add_vec";
      const clang::Expr* value = strip(call->getArg(vec && call->getNumArgs() >= 3 ? 2 : 1));
      if (auto* c = llvm::dyn_cast<clang::ExplicitCastExpr>(value)) value = strip(c->getSubExprAsWritten());
      if (add_block_access(out_.stores, call->getArg(0), var_name(value), call, true, vec ? call->getArg(1) : nullptr))
        add_store_site(var_name(value));
    }
    return true;
  }

  bool VisitExplicitCastExpr(clang::ExplicitCastExpr* c) {
    const clang::Expr* sub = strip(c->getSubExprAsWritten());
    std::string src = var_name(sub);
    if (src.empty()) return true;
    const clang::VarDecl* vd = var_decl(sub);
    if (vd && loop_vars_.count(vd)) return true;  // index arithmetic, not a value cast
    CastOp op;
    op.var = owner_of(c);
    op.src = src;
    op.to = elem_dtype(c->getTypeAsWritten());
    op.loc = here(c->getBeginLoc());
    out_.casts.push_back(op);
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator* u) {
    if (u->getOpcode() != clang::UO_Minus) return true;
    auto* lit = u->getSubExpr()->IgnoreParenImpCasts();
    if (llvm::isa<clang::FloatingLiteral>(lit)) add_literal(lit, true, "");
    return true;
  }

  bool VisitFloatingLiteral(clang::FloatingLiteral* f) {
    add_literal(f, false, "");
    return true;
  }

 private:
  static const clang::FunctionDecl* pick(const clang::FunctionDecl* cur, const clang::FunctionDecl* g,
                                         const std::string& kernel_name) {
    if (!g->doesThisDeclarationHaveABody()) return cur;
    if (!cur || g->getName() == "kernel" || g->getName() == kernel_name) return g;
    return cur;
  }

  SourceLoc here(clang::SourceLocation loc) const {
    SourceLoc s;
    int col = 0;
    s.line = main_file_line(loc, sm_, &col);
    s.column = col;
    return s;
  }

  static bool is_mask_type(clang::QualType t) {
    auto* rd = t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
    return rd && rd->getName() == "VecMask";
  }

  // "eq", "lt", ... for a comparison (built in or overloaded), "" for anything else.
  static std::string comparison_name(const clang::Expr* e) {
    std::string n;
    if (auto* b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->isComparisonOp()) n = binop_name(b->getOpcode());
    if (auto* oc = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e)) n = overloaded_name(oc->getOperator(), oc->getNumArgs());
    return is_comparison_op(n) ? n : "";
  }

  static bool is_vector_type(clang::QualType t) {
    auto* rd = t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
    if (!rd) return false;
    auto n = rd->getName();
    return n == "Vectorized" || n == "VectorizedN";
  }

  // The kernel parameter `e` names: the parameter itself, or a local copy of it. Inductor gives an
  // in-place buffer's other roles their usual names that way (`auto out_ptr1 = in_out_ptr0;`,
  // `auto in_ptr0 = in_out_ptr0;`): a load or store through the copy is one through the parameter.
  const clang::ParmVarDecl* param_of(const clang::Expr* e) const {
    auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    if (!dr) return nullptr;
    if (auto* v = llvm::dyn_cast<clang::VarDecl>(dr->getDecl());
        v && !llvm::isa<clang::ParmVarDecl>(v) && v->hasLocalStorage() && v->getType()->isPointerType() && v->getInit())
      dr = llvm::dyn_cast<clang::DeclRefExpr>(v->getInit()->IgnoreParenImpCasts());
    if (!dr) return nullptr;
    auto* p = llvm::dyn_cast<clang::ParmVarDecl>(dr->getDecl());
    if (!p || !params_.count(p)) return nullptr;
    return p;
  }

  static const clang::VarDecl* var_decl(const clang::Expr* e) {
    if (!e) return nullptr;
    auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    return dr ? llvm::dyn_cast<clang::VarDecl>(dr->getDecl()) : nullptr;
  }

  static std::string var_name(const clang::Expr* e) {
    auto* v = var_decl(e);
    return v ? v->getName().str() : "";
  }

  // `static_cast<int64_t>(x1 + 16L*x0)` -> "x1 + 16L*x0".
  std::string index_text(const clang::Expr* idx) const {
    const clang::Expr* e = idx->IgnoreParenImpCasts();
    if (auto* sc = llvm::dyn_cast<clang::CXXStaticCastExpr>(e))
      if (sc->getType()->isIntegerType()) e = sc->getSubExprAsWritten();
    return node_text(e->getSourceRange(), ctx_);
  }

  // `in_ptr0 + static_cast<int64_t>(x1)` or `in_ptr0`: the pointer parameter and the offset.
  // Returns the parameter (null when `arg` addresses none).
  const clang::ParmVarDecl* pointer_and_index(const clang::Expr* arg, std::string& ptr, std::string& index) const {
    const clang::Expr* e = arg->IgnoreParenImpCasts();
    // `&out_ptr0[i]` (a scalar atomic_add's address).
    if (auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_AddrOf)
      if (auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(u->getSubExpr()->IgnoreParenImpCasts()))
        if (auto* p = param_of(a->getBase())) {
          ptr = p->getName().str();
          index = index_text(a->getIdx());
          return p;
        }
    if (auto* p = param_of(e)) {
      ptr = p->getName().str();
      index = "0";
      return p;
    }
    auto* b = llvm::dyn_cast<clang::BinaryOperator>(e);
    if (!b || (b->getOpcode() != clang::BO_Add && b->getOpcode() != clang::BO_Sub)) return nullptr;
    if (auto* p = param_of(b->getLHS())) {
      ptr = p->getName().str();
      index = (b->getOpcode() == clang::BO_Sub ? "-(" + index_text(b->getRHS()) + ")" : index_text(b->getRHS()));
      return p;
    }
    if (auto* p = param_of(b->getRHS()); p && b->getOpcode() == clang::BO_Add) {
      ptr = p->getName().str();
      index = index_text(b->getLHS());
      return p;
    }
    return nullptr;
  }

  std::string owner_of(const clang::Expr* e) const {
    auto it = owner_.find(e);
    return it == owner_.end() ? "" : it->second;
  }

  void add_param(const clang::ParmVarDecl* p) {
    params_.insert(p);
    out_.params.push_back(kernel_param_of(*p, ctx_));
  }

  void add_literal(const clang::Expr* lit, bool negated, const std::string& var) {
    if (literals_seen_.count(lit)) return;
    literals_seen_.insert(lit);
    LiteralUse l;
    l.text = (negated ? "-" : "") + node_text(lit->getSourceRange(), ctx_);
    if (auto* f = llvm::dyn_cast<clang::FloatingLiteral>(lit)) {
      l.value = f->getValueAsApproximateDouble();
    } else if (auto* i = llvm::dyn_cast<clang::IntegerLiteral>(lit)) {
      l.value = static_cast<double>(i->getValue().getSExtValue());
    }
    if (negated) l.value = -l.value;
    l.var = var;
    l.loc = here(lit->getBeginLoc());
    out_.literals.push_back(l);
  }

  void add_store_site(const std::string& var) { accumulators_.store(var, loops_); }

  // A load or store of a whole block through a call (VecMask::from, transpose_mxn, atomic_add):
  // `arg` is a kernel buffer, or a buffer plus an offset; a vector of indices adds `lanes`.
  // Returns false (nothing added) when `arg` is not a kernel buffer.
  bool add_block_access(std::vector<MemAccess>& into, const clang::Expr* arg, const std::string& var,
                        const clang::CallExpr* call, bool atomic, const clang::Expr* lanes = nullptr) {
    std::string ptr, index;
    const clang::ParmVarDecl* p = pointer_and_index(arg, ptr, index);
    if (!p) return false;
    const clang::Expr* e = arg->IgnoreParenImpCasts();
    if (auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_AddrOf)
      if (auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(u->getSubExpr()->IgnoreParenImpCasts()))
        store_targets_.insert(a);  // an address taken, not a load (the children are visited next)
    MemAccess m;
    m.ptr = ptr;
    std::string lanes_text = lanes ? index_text(lanes) : "";
    m.index = lanes ? (index == "0" ? lanes_text : index + " + " + lanes_text) : index;
    m.value_dtype = elem_dtype(p->getType());
    m.vectorized = !atomic || lanes;  // a scalar atomic_add writes one element
    m.atomic = atomic;
    m.var = var;
    m.loc = here(call->getBeginLoc());
    m.nest = nests_.current();
    into.push_back(m);
    return true;
  }

  // Variables read by an expression, in order of appearance, without duplicates. Lambda bodies
  // are not entered (their own statements are recorded when the walk reaches them).
  void collect_operands(const clang::Stmt* s, std::vector<std::string>& out) const {
    if (!s) return;
    if (llvm::isa<clang::LambdaExpr>(s)) return;
    if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(s)) {
      if (auto* v = llvm::dyn_cast<clang::VarDecl>(dr->getDecl())) {
        std::string n = v->getName().str();
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      }
      return;
    }
    for (const clang::Stmt* c : s->children()) collect_operands(c, out);
  }

  // Variables a lambda returns: `[&]{ ...; return tmp12; }` -> tmp12.
  void lambda_results(const clang::Stmt* s, std::vector<std::string>& out) const {
    if (!s || llvm::isa<clang::LambdaExpr>(s)) return;
    if (auto* r = llvm::dyn_cast<clang::ReturnStmt>(s)) {
      collect_operands(r->getRetValue(), out);
      return;
    }
    for (const clang::Stmt* c : s->children()) lambda_results(c, out);
  }

  // classify() into a model statement (whose texts are interned).
  void classify_into(const clang::Expr* e, KernelStmt& st) const {
    std::string op;
    std::vector<std::string> operands;
    classify(e, op, operands);
    st.op = op;
    st.operands = to_istrings(operands);
  }

  // What an initializer or right-hand side computes: op name and operands.
  void classify(const clang::Expr* e, std::string& op, std::vector<std::string>& operands) const {
    e = strip(e);
    if (auto* p = llvm::dyn_cast<clang::ParenExpr>(e)) {
      classify(p->getSubExpr(), op, operands);
      if (op != "copy" && !llvm::isa<clang::DeclRefExpr>(strip(p->getSubExpr())))
        return;
      op = "copy";
      return;
    }
    if (auto* lam = llvm::dyn_cast<clang::LambdaExpr>(e)) {
      op = "lambda";
      lambda_results(lam->getBody(), operands);
      return;
    }
    if (auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      op = binop_name(b->getOpcode());
      if (op.empty()) op = "other";
      collect_operands(b, operands);
      return;
    }
    if (auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      bool neg = false;
      if (literal_inside(u, &neg)) {
        op = "constant";
        return;
      }
      op = u->getOpcode() == clang::UO_Minus ? "neg" : u->getOpcode() == clang::UO_LNot ? "not" : "other";
      collect_operands(u, operands);
      return;
    }
    if (auto* cond = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      op = "where";
      collect_operands(cond, operands);
      return;
    }
    if (llvm::isa<clang::DeclRefExpr>(e)) {
      op = "copy";
      collect_operands(e, operands);
      return;
    }
    if (llvm::isa<clang::FloatingLiteral>(e) || llvm::isa<clang::IntegerLiteral>(e) ||
        llvm::isa<clang::CXXBoolLiteralExpr>(e)) {
      op = "constant";
      return;
    }
    if (auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      op = param_of(a->getBase()) ? "load" : "index";
      collect_operands(a, operands);
      return;
    }
    if (auto* c = llvm::dyn_cast<clang::ExplicitCastExpr>(e)) {
      const clang::Expr* sub = strip(c->getSubExprAsWritten());
      bool neg = false;
      if (literal_inside(sub, &neg)) {
        op = "constant";
        return;
      }
      clang::QualType to = c->getTypeAsWritten().getCanonicalType().getUnqualifiedType();
      clang::QualType from = sub->getType().getCanonicalType().getUnqualifiedType();
      // `VecMask<float,2>(tmp4 == tmp7)`: the lanes of a comparison as a mask; what the statement
      // computes is the comparison (as `tmp8 = tmp4 == tmp7` in a scalar or Triton kernel).
      if (is_mask_type(to)) {
        std::string cmp = comparison_name(sub);
        if (!cmp.empty()) {
          op = cmp;
          collect_operands(sub, operands);
          return;
        }
      }
      if (ctx_.hasSameType(to, from)) {  // `float(tmp0 + tmp1)` on floats: not a conversion
        classify(sub, op, operands);
        return;
      }
      // `Vectorized<float>(tmp1)`: a scalar broadcast to every lane.
      if (is_vector_type(to) && !is_vector_type(from)) {
        op = "broadcast";
        if (literal_inside(sub, &neg)) return;
        collect_operands(sub, operands);
        return;
      }
      op = "cast";
      collect_operands(sub, operands);
      return;
    }
    if (auto* t = llvm::dyn_cast<clang::CXXTemporaryObjectExpr>(e)) {
      op = t->getNumArgs() == 0 ? "constant" : "broadcast";
      collect_operands(t, operands);
      return;
    }
    if (auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {
      if (auto* lam = called_lambda(call)) {
        op = "call:lambda";
        lambda_results(lam->getBody(), operands);
        return;
      }
      if (auto* oc = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call)) {
        if (oc->getOperator() == clang::OO_Call) {
          op = "call:lambda";  // calling a lambda held in a variable: `tmp6()`
        } else {
          op = overloaded_name(oc->getOperator(), oc->getNumArgs());
          if (op.empty()) op = "other";
        }
        collect_operands(oc, operands);
        return;
      }
      std::string name = callee_name(call);
      if (name == "loadu") op = "load";
      else if (name == "convert" || name == "cvt") op = "cast";
      else if (!name.empty()) op = "call:" + name;
      else op = "other";
      collect_operands(call, operands);
      return;
    }
    op = "other";
    collect_operands(e, operands);
  }

  // `auto tmpN = <init>` or `x = <rhs>`: a statement, and a literal or a cast bound to `var`.
  void record_value(const std::string& var, const clang::Expr* init, int line, int col) {
    KernelStmt st;
    st.var = var;
    classify_into(init, st);
    st.loc.line = line;
    st.loc.column = col;
    out_.stmts.push_back(st);
    bool neg = false;
    if (auto* lit = literal_inside(init, &neg)) add_literal(lit, neg, var);
  }

  void on_assign(const clang::Expr* lhs_in, const clang::Expr* rhs_in, bool compound, clang::SourceLocation oploc,
                 const std::string& compound_op) {
    const clang::Expr* lhs = lhs_in->IgnoreParenImpCasts();
    const clang::Expr* rhs = strip(rhs_in);
    int col = 0;
    int line = main_file_line(oploc, sm_, &col);
    if (!line) return;
    // Store through a pointer parameter: `out_ptr0[idx] = tmp2`.
    if (auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(lhs)) {
      if (const clang::ParmVarDecl* p = param_of(a->getBase())) {
        store_targets_.insert(a);
        if (compound) compound_targets_.insert(a);
        MemAccess m;
        m.ptr = p->getName().str();
        m.index = index_text(a->getIdx());
        m.value_dtype = elem_dtype(p->getType());
        const clang::Expr* v = rhs;
        if (auto* c = llvm::dyn_cast<clang::ExplicitCastExpr>(v->IgnoreParens())) v = strip(c->getSubExprAsWritten());
        m.var = var_name(v);
        m.loc = here(a->getBeginLoc());
        m.nest = nests_.current();
        out_.stores.push_back(m);
        add_store_site(m.var);
        return;
      }
    }
    // Assignment to a local (or to an element of a local array, `tmpbuf[i] = ...`).
    const clang::Expr* base = lhs;
    if (auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(base)) base = a->getBase()->IgnoreParenImpCasts();
    if (auto* oc = llvm::dyn_cast<clang::CXXOperatorCallExpr>(base))
      if (oc->getOperator() == clang::OO_Subscript) base = oc->getArg(0)->IgnoreParenImpCasts();
    std::string var = var_name(base);
    if (var.empty()) return;
    owner_[rhs] = var;
    if (accumulators_.is_accumulator(var)) {
      std::vector<std::string> operands;
      collect_operands(rhs, operands);
      accumulators_.update(var, operands, combine_of(rhs, compound, compound_op), loops_);
    }
    KernelStmt st;
    st.var = var;
    classify_into(rhs, st);
    if (compound) {
      st.op = compound_op.empty() ? "other" : compound_op;
      if (std::find(st.operands.begin(), st.operands.end(), var) == st.operands.end())
        st.operands = with_first(var, st.operands);
    }
    st.loc.line = line;
    st.loc.column = col;
    out_.stmts.push_back(st);
  }

  // What an accumulator update combines with: `acc = acc + x` -> add; `acc = max_propagate_nan(acc, x)`
  // -> max; `acc += x` -> add.
  std::string combine_of(const clang::Expr* rhs, bool compound, const std::string& compound_op) const {
    if (compound) return compound_op.empty() ? "unknown" : compound_op;
    std::string op;
    std::vector<std::string> unused;
    classify(rhs, op, unused);
    return cpp_kernel_facts::combine_of_update(op);
  }

  void finish_reductions() { out_.reductions = accumulators_.reductions(); }

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  ParsedKernel& out_;
  std::set<const clang::ParmVarDecl*> params_;
  std::set<const clang::VarDecl*> loop_vars_;
  std::vector<LoopInfo> loops_;
  cpp_kernel_facts::LoopNests nests_;
  std::map<const clang::Expr*, std::string> owner_;  // initializer / right-hand side -> variable
  std::set<const clang::Expr*> store_targets_, compound_targets_;
  std::set<const clang::Expr*> literals_seen_;
  Accumulators accumulators_;
};

ParsedKernel parse_kernel_source(const std::string& source, const std::string& kernel_name) {
  ParsedKernel pk;
  ParsedUnit pu = parse_cpp(blank_includes(source), kernel_prelude().name, kernel_prelude().text);
  pk.errors = pu.errors;
  if (pu.ctx) {
    KernelVisitor v(*pu.ctx, pk);
    v.run(kernel_name, pu.ctx->getTranslationUnitDecl());
  }
  if (!pk.found_function && pk.errors.empty())
    pk.errors.push_back({0, 0, false, "no function definition found in the kernel source"});
  return pk;
}

// ------------------------------------------------------------------ batches

// Several kernels in one translation unit (clangx batches, clang_common.h): each Clang run pays
// a fixed cost (compiler instance, loading the preamble) and the first use of every prelude
// template (deserialization and instantiation of Vectorized<float>, ...); a batch pays them
// once for all its kernels.
//
// Each kernel goes in a namespace of its own with its lines restored, its `extern "C"`
// blanked (two C-linkage `kernel`s would clash; the linkage changes nothing in the AST facts
// read). A kernel with a preprocessor directive other than #include and #pragma (a #define
// would leak into the kernels after it) is parsed alone (can_share_unit). A batch in which
// Clang reports any error is parsed again one kernel at a time, so an error (or a brace that
// swallows the next kernel) never changes another kernel's result.

std::string blank_extern_c(std::string code) {
  static const std::string kw = "extern \"C\"";
  for (size_t p = 0; (p = code.find(kw, p)) != std::string::npos; p += kw.size())
    code.replace(p, kw.size(), std::string(kw.size(), ' '));
  return code;
}

constexpr std::string_view kBatchNamespace = "ilint_batch_kernel_";

// Parses `sources` (each with its kernel name) in one translation unit into `out`. Returns false
// when Clang reported an error (then `out` is not to be used).
bool parse_kernel_batch(const std::vector<std::pair<const std::string*, const std::string*>>& sources,
                        std::vector<ParsedKernel>& out) {
  std::vector<BatchMember> members(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) members[i].code = blank_extern_c(blank_includes(*sources[i].first));
  ParsedUnit pu = parse_cpp(batch_unit(kBatchNamespace, members), kernel_prelude().name, kernel_prelude().text);
  if (!pu.errors.empty() || !pu.ctx) return false;
  std::vector<const clang::NamespaceDecl*> scopes = batch_scopes(*pu.ctx, kBatchNamespace, sources.size());
  if (scopes.empty()) return false;
  out.assign(sources.size(), ParsedKernel{});
  for (size_t i = 0; i < sources.size(); ++i) {
    KernelVisitor v(*pu.ctx, out[i]);
    v.run(*sources[i].second, scopes[i]);
    if (!out[i].found_function) return false;  // as alone, so the "no function" error is reported right
  }
  return true;
}

// ------------------------------------------------------------------ cache

struct CacheEntry {
  std::once_flag once;
  std::string source;
  ParsedKernel parsed;
};

struct Cache {
  std::mutex mu;
  std::unordered_map<uint64_t, std::shared_ptr<CacheEntry>> entries;
  std::atomic<uint64_t> parses{0}, hits{0}, runs{0}, batch_fallbacks{0};
  std::atomic<uint64_t> parse_ns{0};
};

Cache& cache() {
  static Cache c;
  return c;
}

// The parse of `source`, from the cache when the same text was parsed before.
// With `ready`, a parse made elsewhere (in a batch) is stored instead of parsing again.
std::shared_ptr<const CacheEntry> parsed_for(const std::string& source, const std::string& kernel_name,
                                             bool count_hit = true, ParsedKernel* ready = nullptr) {
  Cache& c = cache();
  uint64_t h = fnv1a(source);
  std::shared_ptr<CacheEntry> e;
  bool fresh = false;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    auto& slot = c.entries[h];
    if (!slot) {
      slot = std::make_shared<CacheEntry>();
      slot->source = source;
      fresh = true;
    }
    e = slot;
  }
  if (e->source != source) {  // 64-bit hash collision: parse without caching
    auto own = std::make_shared<CacheEntry>();
    own->source = source;
    e = own;
    fresh = true;
  }
  bool parsed_here = false;
  std::call_once(e->once, [&] {
    if (ready) {
      e->parsed = std::move(*ready);
    } else {
      auto t0 = std::chrono::steady_clock::now();
      e->parsed = parse_kernel_source(source, kernel_name);
      auto dt = std::chrono::steady_clock::now() - t0;
      c.parse_ns += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(dt).count());
      c.runs++;
    }
    c.parses++;
    parsed_here = true;
  });
  (void)fresh;
  if (!parsed_here && count_hit) c.hits++;
  return e;
}

void apply(Kernel& k, const ParsedKernel& pk, const FilePath& file_in, DiagSink& diags) {
  cpp_kernel_facts::apply(k, pk, file_in);
  auto move = [&](SourceLoc l) { return cpp_kernel_facts::in_file(k, l, file_in); };
  size_t shown = 0;
  for (const auto& e : pk.errors) {
    std::string where = e.in_prelude ? " (in inductor-lint's prelude line " + std::to_string(e.line) + ")" : "";
    std::string msg = "C++ kernel " + k.name + (e.not_given ? " not read by Clang: " : " does not parse with Clang: ") +
                      e.message + where;
    k.parse_errors.push_back(msg);
    if (shown++ < 5) {
      SourceLoc loc = e.in_prelude || e.line <= 0 ? move(SourceLoc{}) : move(SourceLoc{"", e.line, e.column});
      if (loc.line <= 0 && k.def_loc.valid()) loc = k.def_loc;
      diags.warning("cpp-kernel-parse", msg, loc);
    }
  }
  if (pk.errors.size() > 5)
    diags.warning("cpp-kernel-parse",
                  "C++ kernel " + k.name + ": " + std::to_string(pk.errors.size() - 5) + " more Clang errors",
                  k.def_loc);
}

}  // namespace

namespace {
void read_one(Kernel& k, const FilePath& file, DiagSink& diags, bool count_hit) {
  if (k.source.empty()) {
    diags.warning("cpp-kernel-parse", "C++ kernel " + k.name + " has no source text to parse", k.def_loc);
    return;
  }
  auto e = parsed_for(k.source, k.name, count_hit);
  apply(k, e->parsed, file, diags);
}
}  // namespace

void read_cpp_kernel_clang(Kernel& k, const FilePath& file, DiagSink& diags) { read_one(k, file, diags, true); }

void read_cpp_kernels_clang(const std::vector<CppKernelJob>& jobs_in, DiagSink& diags, int jobs) {
  // Distinct sources not parsed before, in job order (deterministic batches).
  std::vector<size_t> distinct;
  {
    std::set<uint64_t> seen;
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    for (size_t i = 0; i < jobs_in.size(); ++i) {
      if (!jobs_in[i].kernel || jobs_in[i].kernel->source.empty()) continue;
      uint64_t h = fnv1a(jobs_in[i].kernel->source);
      if (c.entries.count(h)) continue;  // parsed (or being parsed) already: a cache hit below
      if (seen.insert(h).second) distinct.push_back(i);
    }
  }
  // Work items: batches of batchable kernels, and the others alone. A batch holds up to
  // kBatchKernels kernels or kBatchBytes of source, and there are at least as many items as
  // threads when there are that many kernels.
  constexpr size_t kBatchKernels = 64, kBatchBytes = 256 * 1024;
  int n_threads = std::max(1, jobs);
  std::vector<std::vector<size_t>> items;
  std::vector<size_t> batchable_jobs;
  for (size_t i : distinct) {
    if (can_share_unit(jobs_in[i].kernel->source, nullptr)) batchable_jobs.push_back(i);
    else items.push_back({i});
  }
  size_t per_item = std::max<size_t>(1, std::min(kBatchKernels, (batchable_jobs.size() + n_threads - 1) /
                                                                    static_cast<size_t>(n_threads)));
  std::vector<size_t> cur;
  size_t cur_bytes = 0;
  for (size_t i : batchable_jobs) {
    size_t bytes = jobs_in[i].kernel->source.size();
    if (!cur.empty() && (cur.size() >= per_item || cur_bytes + bytes > kBatchBytes)) {
      items.push_back(std::move(cur));
      cur.clear();
      cur_bytes = 0;
    }
    cur.push_back(i);
    cur_bytes += bytes;
  }
  if (!cur.empty()) items.push_back(std::move(cur));

  Cache& c = cache();
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t w; (w = next.fetch_add(1)) < items.size();) {
      const auto& item = items[w];
      if (item.size() > 1) {
        std::vector<std::pair<const std::string*, const std::string*>> sources;
        for (size_t i : item) sources.push_back({&jobs_in[i].kernel->source, &jobs_in[i].kernel->name});
        std::vector<ParsedKernel> parsed;
        auto t0 = std::chrono::steady_clock::now();
        bool ok = parse_kernel_batch(sources, parsed);
        auto dt = std::chrono::steady_clock::now() - t0;
        c.parse_ns += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(dt).count());
        c.runs++;
        if (ok) {
          for (size_t j = 0; j < item.size(); ++j)
            parsed_for(jobs_in[item[j]].kernel->source, jobs_in[item[j]].kernel->name, false, &parsed[j]);
          continue;
        }
        c.batch_fallbacks++;
      }
      for (size_t i : item) parsed_for(jobs_in[i].kernel->source, jobs_in[i].kernel->name, false);
    }
  };
  std::vector<WorkerThread> pool;  // Clang needs the stack (parallel.h)
  int spawn = std::min<int>(n_threads, static_cast<int>(items.size()));
  pool.reserve(static_cast<size_t>(std::max(spawn, 0)));
  for (int t = 1; t < spawn; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  std::set<size_t> parsed_on_pool(distinct.begin(), distinct.end());
  for (size_t i = 0; i < jobs_in.size(); ++i)
    if (jobs_in[i].kernel) read_one(*jobs_in[i].kernel, jobs_in[i].file, diags, !parsed_on_pool.count(i));
}

ClangParseStats clang_parse_stats() {
  ClangParseStats s;
  s.parses = cache().parses.load();
  s.clang_runs = cache().runs.load();
  s.batch_fallbacks = cache().batch_fallbacks.load();
  s.cache_hits = cache().hits.load();
  s.parse_seconds = static_cast<double>(cache().parse_ns.load()) * 1e-9;
  return s;
}

void clear_clang_parse_cache() {
  std::lock_guard<std::mutex> lock(cache().mu);
  cache().entries.clear();
}

const clangx::PreludeText& clangx::kernel_prelude() {
  static const PreludeText p{"/ilint-prelude/torch/csrc/inductor/cpp_prefix.h", kPrelude};
  return p;
}

}  // namespace ilint
