// The Clang reader of a cpp_wrapper=True compile's C++ wrapper (`cpp_wrapper_src = (r'''...''')` in
// output_code.py): the `inductor_entry_impl` body becomes the same wrapper model the Python wrapper
// fills (inputs, buffers, launches, outputs, mutations); the C++ kernels defined after it become Kernels.
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <atomic>
#include <map>
#include <memory>
#include <re2/re2.h>
#include <set>
#include <string_view>

#include "analyzer/cpp/clang/clang_common.h"
#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/cpp/cpp_wrapper_vocab.h"
#include "analyzer/util/text.h"

namespace ilint {

namespace {

using namespace clangx;

const char kWrapperPrelude[] =
#include "analyzer/cpp/prelude/cpp_wrapper_prelude.inc"
    ;

class WrapperVisitor : public clang::RecursiveASTVisitor<WrapperVisitor> {
 public:
  // `scope` holds the wrapper's declarations: the translation unit, or the namespace the wrapper
  // was put in when it was parsed in a batch with others.
  WrapperVisitor(clang::ASTContext& ctx, const clang::DeclContext& scope, Compile& c, const FilePath& file,
                 int first_line, const std::vector<std::string>& lines)
      : ctx_(ctx), sm_(ctx.getSourceManager()), scope_(scope), c_(c), file_(file), first_line_(first_line),
        lines_(lines), comments_(wrapper_comment_marks(lines)) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  // Kernels and launchers first (the entry calls them); walk() then reads the entry body.
  void collect(std::vector<Kernel>& kernels_out) {
    const clang::FunctionDecl* entry = nullptr;
    // noload_decls: the wrapper's own declarations, without deserializing the whole prelude
    // from the precompiled preamble.
    for (auto* d : scope_.noload_decls()) {
      if (auto* ls = llvm::dyn_cast<clang::LinkageSpecDecl>(d)) {
        for (auto* inner : ls->noload_decls())
          if (auto* f = llvm::dyn_cast<clang::FunctionDecl>(inner)) {
            kernel_names_.insert(f->getName().str());
            if (f->doesThisDeclarationHaveABody() || f->hasSkippedBody()) add_kernel_def(f, ls, kernels_out);
          }
      } else if (auto* ft = llvm::dyn_cast<clang::FunctionTemplateDecl>(d)) {
        auto* f = ft->getTemplatedDecl();
        std::string n = f->getName().str();
        if (n.rfind("call_", 0) == 0 && (f->doesThisDeclarationHaveABody() || f->hasSkippedBody()))
          launchers_[n] = f;
      } else if (auto* f = llvm::dyn_cast<clang::FunctionDecl>(d)) {
        std::string n = f->getName().str();
        if ((n == "inductor_entry_impl" || n == "run_impl") && f->doesThisDeclarationHaveABody()) entry = f;
        else if (n.rfind("call_", 0) == 0 && (f->doesThisDeclarationHaveABody() || f->hasSkippedBody()))
          launchers_[n] = f;
      } else if (auto* v = llvm::dyn_cast<clang::VarDecl>(d)) {
        // CACHE_TORCH_DEVICE(cuda) -> cached_torch_device_type_cuda
        std::string n = v->getName().str();
        if (n.rfind("cached_torch_device_type_", 0) == 0 && c_.device_type.empty())
          c_.device_type = n.substr(std::string("cached_torch_device_type_").size());
      } else if (auto* cx = llvm::dyn_cast<clang::CXXRecordDecl>(d)) {
        // AOTInductor: `void AOTInductorModel::run_impl(...)` is out of line; handled below.
        (void)cx;
      }
    }
    if (!entry) {
      // AOTInductor's out-of-line member `AOTInductorModel::run_impl`.
      for (auto* d : scope_.noload_decls())
        if (auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(d))
          if (m->getName() == "run_impl" && m->doesThisDeclarationHaveABody()) entry = m;
    }
    entry_ = entry;
    found_entry = entry != nullptr;
  }

  void walk() {
    if (!entry_) return;
    for (auto* p : entry_->parameters()) entry_params_.insert(p->getName().str());
    TraverseStmt(entry_->getBody());
    finish();
  }

  bool found_entry = false;

  bool VisitVarDecl(clang::VarDecl* v) {
    if (llvm::isa<clang::ParmVarDecl>(v)) return true;
    std::string name = v->getName().str();
    int line = main_file_line(v->getBeginLoc(), sm_, &cur_col_);
    if (!line) return true;
    // static constexpr int64_t int_array_0[] = {8L, 1L, 5L, 15L};
    if (v->getType()->isArrayType() && v->getInit()) {
      if (auto* il = llvm::dyn_cast<clang::InitListExpr>(v->getInit()->IgnoreImplicit())) {
        std::vector<std::string> elems;
        for (unsigned i = 0; i < il->getNumInits(); ++i) {
          const clang::Expr* e = il->getInit(i);
          if (e->getSourceRange().isValid()) elems.push_back(node_text(e->getSourceRange(), ctx_));
        }
        arrays_[name] = elems;
      }
      return true;
    }
    if (!v->getInit()) return true;
    const clang::Expr* init = strip(v->getInit());
    auto* call = llvm::dyn_cast<clang::CallExpr>(init);
    std::string callee = call ? callee_name(call) : "";
    if (callee == "steal_from_raw_handles_to_raii_handles") {
      inputs_var_ = name;
      return true;
    }
    if (callee == "move" && call->getNumArgs() == 1) {
      const clang::Expr* a = strip(call->getArg(0));
      int64_t idx = -1;
      if (subscript_of(a, inputs_var_, idx)) {  // auto primals_1 = std::move(inputs[0]);
        add_input(name, idx, ValueKind::Tensor, line);
        return true;
      }
      std::string src = var_name(a);
      if (!src.empty()) {  // auto buf3 = std::move(buf2);  // reuse
        add_alias(name, src, line, nullptr);
        return true;
      }
    }
    if (callee == "wrap_with_raii_handle_if_needed" && call->getNumArgs() == 1) {
      auto* inner = llvm::dyn_cast<clang::CallExpr>(strip(call->getArg(0)));
      if (inner && callee_name(inner) == "reinterpret_tensor_wrapper" && inner->getNumArgs() >= 4) {
        add_alias(name, var_name(strip(inner->getArg(0))), line, inner);
        return true;
      }
    }
    // RAIIAtenTensorHandle buf0(buf0_handle);
    if (auto* ce = llvm::dyn_cast<clang::CXXConstructExpr>(v->getInit()->IgnoreImplicit())) {
      if (ce->getNumArgs() == 1) {
        std::string h = var_name(strip(ce->getArg(0)));
        if (!h.empty()) handle_names_[h] = name;
      }
    }
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    std::string callee = callee_name(call);
    int line = main_file_line(call->getBeginLoc(), sm_, &cur_col_);
    if (!line) return true;
    if (callee == "release") return true;
    if (callee == "aoti_torch_empty_strided" && call->getNumArgs() >= 7) {
      Buffer b;
      std::string h = var_name(strip_addr(call->getArg(call->getNumArgs() - 1)));
      b.name = without_suffix(h, "_handle");
      b.meta.shape = to_istrings(arrays_[var_name(strip(call->getArg(1)))]);
      b.meta.stride = to_istrings(arrays_[var_name(strip(call->getArg(2)))]);
      std::string dt = var_name(strip(call->getArg(3)));
      b.meta.dtype = parse_dtype(strip_prefix(dt, "cached_torch_dtype_"));
      b.meta.device = strip_prefix(var_name(strip(call->getArg(4))), "cached_torch_device_type_");
      b.alloc_loc = loc(line);
      if (!b.name.empty()) add_buffer(b);
      return true;
    }
    std::string item_type = item_shim_type(callee);
    if (!item_type.empty() && call->getNumArgs() == 2) {
      // AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(inputs[0], &arg0_1));
      int64_t idx = -1;
      std::string target = var_name(strip_addr(call->getArg(1)));
      if (subscript_of(strip(call->getArg(0)), inputs_var_, idx) && !target.empty()) {
        add_input(target, idx, item_value_kind(item_type), line);
        scalar_inputs_[target] = parse_dtype(item_type);
      }
      return true;
    }
    if (callee == "assert_size_stride" && call->getNumArgs() >= 3) {
      std::string n = var_name(strip(call->getArg(0)));
      sizes_[n] = {init_list_texts(call->getArg(1)), init_list_texts(call->getArg(2))};
      return true;
    }
    if (callee.rfind("aoti_torch_", 0) == 0 && !is_bookkeeping_shim(callee)) {
      add_fallback(call, callee, line);
      return true;
    }
    if (kernel_names_.count(callee)) {
      add_kernel_launch(call, callee, callee, line, nullptr);
      return true;
    }
    auto lit = launchers_.find(callee);
    if (lit != launchers_.end()) {
      add_kernel_launch(call, callee, callee.substr(5), line, lit->second);
      return true;
    }
    return true;
  }

  // output_handles[0] = buf3.release();
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* op) {
    if (op->getOperator() == clang::OO_Equal && op->getNumArgs() == 2) on_assign(op->getArg(0), op->getArg(1));
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* b) {
    if (b->getOpcode() == clang::BO_Assign) on_assign(b->getLHS(), b->getRHS());
    return true;
  }

 private:
  static std::string callee_name(const clang::CallExpr* call) {
    if (auto* fd = call->getDirectCallee())
      if (fd->getDeclName().isIdentifier()) return fd->getName().str();
    // A call into a generic template declared for an unknown shim resolves fine; a call whose
    // callee did not resolve keeps its written name.
    if (auto* ul = llvm::dyn_cast<clang::UnresolvedLookupExpr>(call->getCallee()->IgnoreImplicit()))
      return ul->getName().getAsString();
    return "";
  }

  static std::string strip_prefix(const std::string& s, const std::string& p) {
    return s.rfind(p, 0) == 0 ? s.substr(p.size()) : s;
  }

  static const clang::VarDecl* var_decl(const clang::Expr* e) {
    if (!e) return nullptr;
    e = e->IgnoreParenImpCasts();
    // `buf4` passed where an AtenTensorHandle is expected: RAIIAtenTensorHandle's conversion operator.
    if (auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(e))
      if (llvm::isa_and_nonnull<clang::CXXConversionDecl>(mc->getMethodDecl()))
        e = mc->getImplicitObjectArgument()->IgnoreParenImpCasts();
    auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e);
    return dr ? llvm::dyn_cast<clang::VarDecl>(dr->getDecl()) : nullptr;
  }
  static std::string var_name(const clang::Expr* e) {
    auto* v = var_decl(e);
    return v ? v->getName().str() : "";
  }
  static const clang::Expr* strip_addr(const clang::Expr* e) {
    e = strip(e)->IgnoreParenImpCasts();
    if (auto* u = llvm::dyn_cast<clang::UnaryOperator>(e))
      if (u->getOpcode() == clang::UO_AddrOf) return u->getSubExpr()->IgnoreParenImpCasts();
    return e;
  }

  // `inputs[0]` on the vector of stolen handles.
  bool subscript_of(const clang::Expr* e, const std::string& var, int64_t& idx) const {
    if (var.empty()) return false;
    e = e->IgnoreParenImpCasts();
    if (auto* oc = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e)) {
      if (oc->getOperator() != clang::OO_Subscript || oc->getNumArgs() != 2) return false;
      if (var_name(strip(oc->getArg(0))) != var) return false;
      clang::Expr::EvalResult r;
      if (!oc->getArg(1)->EvaluateAsInt(r, ctx_)) return false;
      idx = r.Val.getInt().getExtValue();
      return true;
    }
    return false;
  }

  std::vector<std::string> init_list_texts(const clang::Expr* e) const {
    std::vector<std::string> out;
    e = e->IgnoreImplicit();
    if (auto* il = llvm::dyn_cast<clang::CXXStdInitializerListExpr>(e)) e = il->getSubExpr()->IgnoreImplicit();
    if (auto* mt = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) e = mt->getSubExpr()->IgnoreImplicit();
    if (auto* il = llvm::dyn_cast<clang::InitListExpr>(e))
      for (unsigned i = 0; i < il->getNumInits(); ++i) out.push_back(node_text(il->getInit(i)->getSourceRange(), ctx_));
    return out;
  }

  // The buffer an argument names: `(const float*)(buf0.data_ptr())` -> buf0; `buf1` -> buf1.
  std::string arg_buffer(const clang::Expr* e) const {
    const clang::Expr* s = strip(e)->IgnoreParenCasts();
    if (auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(s)) {
      auto* md = mc->getMethodDecl();
      if (md && (md->getName() == "data_ptr" || md->getName() == "get"))
        return var_name(strip(mc->getImplicitObjectArgument()));
    }
    if (auto* ce = llvm::dyn_cast<clang::CallExpr>(s))
      if (callee_name(ce) == "get_data_ptr_wrapper" && ce->getNumArgs() == 1) return var_name(strip(ce->getArg(0)));
    return var_name(s);
  }

  std::string arg_text(const clang::Expr* e) const {
    std::string b = arg_buffer(e);
    if (!b.empty()) return b;
    return node_text(e->getSourceRange(), ctx_);
  }

  // Wrapper lines are verbatim lines of output_code.py, so columns carry over (line 1 of the
  // string is the `r'''` line and holds no code).
  SourceLoc loc(int line) const { return SourceLoc{file_, first_line_ + line - 1, cur_col_ > 0 ? cur_col_ : 1}; }

  bool line_says_reuse(int line) const {
    return line >= 1 && line <= static_cast<int>(lines_.size()) &&
           lines_[line - 1].find("// reuse") != std::string::npos;
  }

  void add_buffer(Buffer b) {
    if (c_.buffer_index.count(b.name)) {
      auto& old = c_.buffers[c_.buffer_index[b.name]];
      if (old.meta.shape.empty()) old.meta = b.meta;
      return;
    }
    c_.add_buffer(std::move(b));
  }

  void add_input(const std::string& name, int64_t idx, ValueKind kind, int line) {
    GraphInput gi;
    gi.name = name;
    gi.kind = kind;
    inputs_[idx] = gi;
    if (kind == ValueKind::Tensor) {
      Buffer b;
      b.name = name;
      b.is_graph_input = true;
      b.alloc_loc = loc(line);
      add_buffer(b);
    }
  }

  void add_alias(const std::string& name, const std::string& src, int line, const clang::CallExpr* reinterpret) {
    Buffer b;
    b.name = name;
    b.alias_of = src;
    b.alloc_loc = loc(line);
    b.is_reuse = line_says_reuse(line);
    if (const Buffer* s = c_.buffer(src)) b.meta = s->meta;
    b.is_graph_input = false;
    if (reinterpret) {
      b.meta.shape = to_istrings(arrays_[var_name(strip(reinterpret->getArg(2)))]);
      b.meta.stride = to_istrings(arrays_[var_name(strip(reinterpret->getArg(3)))]);
    }
    add_buffer(b);
  }

  void take_comments(KernelLaunch& l, int line) {
    for (auto& cm : comments_) {
      if (cm.line <= last_launch_line_ || cm.line >= line) continue;
      if (!cm.source_nodes.empty()) l.source_nodes = to_istrings(cm.source_nodes);
      if (!cm.handle.empty()) l.provenance_handle = cm.handle;
    }
    last_launch_line_ = line;
  }

  void add_fallback(const clang::CallExpr* call, const std::string& callee, int line) {
    KernelLaunch l;
    l.order = order_++;
    l.is_fallback = true;
    l.shim = callee;
    l.kernel = fallback_kernel_of_shim(callee);
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const clang::Expr* a = call->getArg(i);
      const clang::Expr* s = strip(a)->IgnoreParenImpCasts();
      // `&buf2_handle`: an output handle the shim creates.
      if (auto* u = llvm::dyn_cast<clang::UnaryOperator>(s); u && u->getOpcode() == clang::UO_AddrOf) {
        auto* v = var_decl(u->getSubExpr());
        if (v && v->getType().getAsString().find("AtenTensorHandle") != std::string::npos) {
          l.results.push_back(without_suffix(v->getName().str(), "_handle"));
          continue;
        }
      }
      l.args.push_back(arg_text(a));
    }
    take_comments(l, line);
    l.loc = loc(line);
    for (auto& r : l.results) {
      Buffer b;
      b.name = r;
      b.alloc_loc = l.loc;
      add_buffer(b);
    }
    if (l.kernel == "copy_" && !l.args.empty() && is_input(l.args[0]))
      c_.mutations.push_back(Mutation{l.args[0], "copy_", "", l.loc});
    c_.launches.push_back(std::move(l));
  }

  bool is_input(const std::string& n) const {
    for (auto& [i, gi] : inputs_)
      if (gi.name == n) return true;
    return false;
  }

  void add_kernel_launch(const clang::CallExpr* call, const std::string& callee, const std::string& kname, int line,
                         const clang::FunctionDecl* launcher) {
    KernelLaunch l;
    l.order = order_++;
    l.kernel = kname;
    l.is_fallback = false;
    std::vector<std::string> param_names;
    const clang::FunctionDecl* fd = launcher ? launcher : call->getDirectCallee();
    if (fd)
      for (auto* p : fd->parameters()) param_names.push_back(p->getName().str());
    std::vector<std::string> bound_params;
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      if (llvm::isa<clang::CXXDefaultArgExpr>(call->getArg(i))) continue;
      std::string pn = i < param_names.size() ? param_names[i] : "";
      std::string text = arg_text(call->getArg(i));
      // CUDA launchers end with `device_idx_, stream_[, cubin_dir_]`: keyword-like, as the
      // Python wrapper's `stream=stream0`.
      if (launcher && !pn.empty() && pn.back() == '_') {
        l.kwargs[pn.substr(0, pn.size() - 1)] = text;
        continue;
      }
      l.args.push_back(text);
      bound_params.push_back(pn);
    }
    take_comments(l, line);
    l.loc = loc(line);
    // In-place writes through kernel arguments: in_out_ptr params, and written (non-const)
    // pointer params bound to a graph input.
    const Kernel* k = c_.kernel(kname);
    for (size_t i = 0; i < l.args.size(); ++i) {
      std::string pn = i < bound_params.size() ? bound_params[i] : "";
      bool written = false;
      if (k && i < k->params.size()) {
        pn = k->params[i].name;
        written = k->params[i].is_pointer && !k->params[i].is_const;
      } else {
        written = pn.rfind("out_ptr", 0) == 0;
      }
      bool in_out = pn.rfind("in_out_ptr", 0) == 0;
      if (in_out) c_.mutations.push_back(Mutation{l.args[i], "in_out_ptr", kname, l.loc});
      else if (written && is_input(l.args[i]))
        c_.mutations.push_back(Mutation{l.args[i], "mutated_arg", kname, l.loc});
    }
    (void)callee;
    c_.launches.push_back(std::move(l));
  }

  void on_assign(const clang::Expr* lhs, const clang::Expr* rhs) {
    // output_handles[i] = X.release();
    const clang::Expr* l = lhs->IgnoreParenImpCasts();
    auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(l);
    if (!a) return;
    auto* base = var_decl(a->getBase());
    if (!base || base->getName() != "output_handles") return;
    clang::Expr::EvalResult r;
    if (!a->getIdx()->EvaluateAsInt(r, ctx_)) return;
    int64_t idx = r.Val.getInt().getExtValue();
    const clang::Expr* s = strip(rhs)->IgnoreParenImpCasts();
    std::string name;
    if (auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(s)) name = var_name(strip(mc->getImplicitObjectArgument()));
    if (name.empty()) name = node_text(rhs->getSourceRange(), ctx_);
    outputs_[idx] = name;
  }

  void add_kernel_def(const clang::FunctionDecl* f, const clang::LinkageSpecDecl* ls, std::vector<Kernel>& out) {
    std::string name = f->getName().str();
    if (c_.kernel(name)) return;
    int begin = main_file_line(ls->getBeginLoc(), sm_);
    int end = f->getBody() ? main_file_line(f->getBody()->getEndLoc(), sm_)
                           : main_file_line(skipped_body_end(*f, ctx_), sm_);
    if (begin <= 0 || end < begin || end > static_cast<int>(lines_.size())) return;
    Kernel k;
    k.name = name;
    k.backend = KernelBackend::Cpp;
    for (int i = begin; i <= end; ++i) k.source += lines_[i - 1] + "\n";
    k.source_first_line = first_line_ + begin - 1;
    k.def_loc = SourceLoc{file_, first_line_ + begin - 1, 1};
    for (auto* p : f->parameters()) k.params.push_back(kernel_param_of(*p, ctx_));
    out.push_back(std::move(k));
  }

  void finish() {
    for (auto& [i, gi] : inputs_) {
      GraphInput g = gi;
      auto sz = sizes_.find(g.name);
      if (sz != sizes_.end()) {
        g.meta.shape = to_istrings(sz->second.first);
        g.meta.stride = to_istrings(sz->second.second);
      }
      auto sc = scalar_inputs_.find(g.name);
      if (sc != scalar_inputs_.end()) g.meta.dtype = sc->second;
      bool have = false;
      for (auto& existing : c_.inputs) have |= existing.name == g.name;
      if (!have) c_.inputs.push_back(g);
    }
    for (auto& [i, n] : outputs_) {
      c_.outputs.push_back(n);
      if (c_.buffer_index.count(n)) c_.buffers[c_.buffer_index[n]].is_graph_output = true;
    }
  }

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  const clang::DeclContext& scope_;
  const clang::FunctionDecl* entry_ = nullptr;
  Compile& c_;
  FilePath file_;
  int first_line_;
  const std::vector<std::string>& lines_;
  std::vector<WrapperCommentMark> comments_;
  int last_launch_line_ = 0;
  int cur_col_ = 1;  // column of the declaration or call being visited
  int order_ = 0;
  std::set<std::string> kernel_names_;
  std::map<std::string, const clang::FunctionDecl*> launchers_;
  std::set<std::string> entry_params_;
  std::string inputs_var_;
  std::map<std::string, std::vector<std::string>> arrays_;
  std::map<std::string, std::string> handle_names_;
  std::map<int64_t, GraphInput> inputs_;
  std::map<std::string, DType> scalar_inputs_;
  std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> sizes_;
  std::map<int64_t, std::string> outputs_;
};

// ------------------------------------------------------------------ parsing

// Every aoti_torch_* the wrappers name, declared generically: the shim has hundreds of
// functions and grows with each release; their argument types do not matter to the model.
// The getters CACHE_TORCH_DTYPE(x) and its kin call (aoti_torch_dtype_x()) are declared plainly.
std::string shim_decls(const std::vector<const std::string*>& codes) {
  static const RE2 id_re(R"(\b(aoti_torch_\w+))");
  static const RE2 cache_re(R"(CACHE_TORCH_(DTYPE|DEVICE|LAYOUT|MEMORY_FORMAT)\((\w+)\))");
  std::set<std::string> names, getters;
  for (const std::string* code : codes) {
    re2::StringPiece rest(*code);
    for (std::string id; RE2::FindAndConsume(&rest, id_re, &id);) names.insert(id);
  }
  for (const std::string* code : codes) {
    re2::StringPiece rest(*code);
    for (std::string what, arg; RE2::FindAndConsume(&rest, cache_re, &what, &arg);) {
      std::string kind = what == "DTYPE" ? "dtype" : what == "DEVICE" ? "device_type"
                         : what == "LAYOUT" ? "layout" : "memory_format";
      std::string g = "aoti_torch_" + kind + "_" + arg;
      if (!names.count(g)) getters.insert(g);
    }
  }
  std::string decls = "\n// Generated by inductor-lint: the aoti_torch_* functions this wrapper calls.\n";
  for (auto& n : names) decls += "template <class... A> AOTITorchError " + n + "(A&&...);\n";
  for (auto& g : getters) decls += "int32_t " + g + "();\n";
  return decls;
}

// Only the entry's body is read: the kernels defined in the wrapper (extern "C") are read by
// the kernel reader from their own text, the launchers (call_triton_*) by their parameters,
// and helpers (loadKernel, launchKernel) not at all. Skipping the other bodies leaves out
// most of the wrapper's C++ and all of its template-heavy code (Vectorized<T> arithmetic).
ParsedUnit parse_wrapper_code(const std::string& code, const std::string& decls) {
  return parse_cpp(code, wrapper_prelude().name, wrapper_prelude().text, decls, [](const clang::FunctionDecl& f) {
    if (!f.getDeclName().isIdentifier()) return true;
    llvm::StringRef n = f.getName();
    return n != "inductor_entry_impl" && n != "run_impl";
  });
}

// ------------------------------------------------------------------ batches
//
// Several compiles' wrappers in one translation unit. Each Clang run pays a fixed cost
// (a compiler instance, loading the precompiled prelude) and deserializes the prelude
// declarations the code looks up; for a wrapper that is about half of its parse. A batch pays
// them once for all its wrappers. The compiles one thread is about to build hand their
// output_code.py texts to prepare_cpp_wrappers_clang, which parses their wrappers in batches;
// read_cpp_wrapper_clang, called next on the same thread for each compile, reads its wrapper
// from the batch's AST instead of parsing it again.
//
// Each wrapper goes in a namespace of its own (clangx batches, clang_common.h: its
// declarations stay apart, as every wrapper has an inductor_entry_impl, a loadKernel, ...), its
// macros saved and restored around it, so it sees what it would see alone. Only wrappers that
// can share a unit that way are batched (batch_shape); two wrappers that define the same
// extern "C" kernel (one function to C++, whichever namespace declares it) go in different
// batches. A batch in which Clang reports any error is not used: its wrappers are parsed
// alone, so an error in one never changes another.

constexpr size_t kBatchWrappers = 16, kBatchBytes = 512 * 1024;

struct WrapperShape {
  std::vector<std::string> extern_c;  // the extern "C" functions it declares
  std::vector<std::string> macros;    // the names it #defines or #undefs
};

// What sharing a translation unit needs to know of a wrapper; false when it must be parsed
// alone: what can_share_unit refuses, an extern "C" block, or no inductor_entry_impl
// (AOTInductor's out-of-line run_impl).
bool batch_shape(std::string_view code, WrapperShape& shape) {
  if (code.find("inductor_entry_impl") == std::string_view::npos) return false;
  if (!can_share_unit(code, &shape.macros)) return false;
  static constexpr std::string_view kExternC = "extern \"C\"";
  for (size_t p = 0; (p = code.find(kExternC, p)) != std::string_view::npos; p += kExternC.size()) {
    size_t eol = code.find_first_of("\r\n", p);
    std::string_view rest = code.substr(p + kExternC.size(), eol == std::string_view::npos ? std::string_view::npos
                                                                                             : eol - p - kExternC.size());
    size_t open = rest.find('(');
    if (rest.find('{') < open || open == std::string_view::npos) return false;
    size_t e = open;
    while (e > 0 && (rest[e - 1] == ' ' || rest[e - 1] == '\t')) --e;
    size_t b = e;
    while (b > 0 && is_ident_char(rest[b - 1])) --b;
    if (b == e) return false;
    shape.extern_c.emplace_back(rest.substr(b, e - b));
  }
  return true;
}

constexpr std::string_view kBatchNamespace = "ilint_batch_wrapper_";

struct BatchedWrapper {
  std::string source;
  WrapperShape shape;
  size_t batch = 0;
  size_t slot = 0;  // its namespace in the batch
};

struct WrapperBatch {
  std::vector<size_t> members;  // indices in PreparedWrappers::wrappers
  std::set<std::string> extern_c;
  size_t bytes = 0;
  ParsedUnit unit;
  std::vector<const clang::NamespaceDecl*> scopes;  // by slot; empty when the batch is not used
};

struct PreparedWrappers {
  std::vector<BatchedWrapper> wrappers;
  std::vector<WrapperBatch> batches;
  PreparedWrappers* previous = nullptr;
};

// The batches prepared for the compiles this thread is building (see prepare_cpp_wrappers_clang).
thread_local PreparedWrappers* t_prepared = nullptr;

std::atomic<uint64_t> g_wrapper_batches{0}, g_batched_wrappers{0}, g_wrapper_batch_fallbacks{0};

// Parses one batch; leaves `scopes` empty when Clang reported an error.
void parse_batch(PreparedWrappers& p, WrapperBatch& b) {
  std::vector<BatchMember> members(b.members.size());
  std::vector<const std::string*> codes;
  for (size_t slot = 0; slot < b.members.size(); ++slot) {
    BatchedWrapper& w = p.wrappers[b.members[slot]];
    w.slot = slot;
    members[slot].code = blank_includes(w.source);
    members[slot].macros = w.shape.macros;
    codes.push_back(&members[slot].code);
  }
  b.unit = parse_wrapper_code(batch_unit(kBatchNamespace, members), shim_decls(codes));
  g_wrapper_batches++;
  if (b.unit.errors.empty() && b.unit.ctx) b.scopes = batch_scopes(*b.unit.ctx, kBatchNamespace, b.members.size());
  if (b.scopes.empty()) {
    g_wrapper_batch_fallbacks++;
    return;
  }
  g_batched_wrappers += b.members.size();
}

struct WrapperScope {
  clang::ASTContext* ctx = nullptr;
  const clang::DeclContext* scope = nullptr;
};

// The prepared AST of `source`, if this thread parsed it in a batch that Clang accepted.
WrapperScope prepared_scope(const std::string& source) {
  for (PreparedWrappers* p = t_prepared; p; p = p->previous)
    for (auto& w : p->wrappers) {
      if (w.source.size() != source.size() || w.source != source) continue;
      WrapperBatch& b = p->batches[w.batch];
      if (b.scopes.empty()) return {};
      return {b.unit.ctx, b.scopes[w.slot]};
    }
  return {};
}

}  // namespace

std::shared_ptr<void> prepare_cpp_wrappers_clang(const std::vector<std::string_view>& output_code_texts) {
  auto p = std::make_unique<PreparedWrappers>();
  std::set<std::string_view> seen;
  std::vector<EmbeddedCppSource> sources;
  for (std::string_view text : output_code_texts) {
    for (auto& s : find_embedded_cpp_sources(text))
      if (s.name == "cpp_wrapper_src") sources.push_back(std::move(s));
  }
  for (auto& s : sources) {
    if (!seen.insert(s.source).second) continue;  // the same wrapper twice: one parse serves both
    BatchedWrapper w;
    if (!batch_shape(s.source, w.shape)) continue;
    w.source = s.source;
    p->wrappers.push_back(std::move(w));
  }
  // First fit: each wrapper joins the first batch with room and none of its extern "C" names.
  for (size_t i = 0; i < p->wrappers.size(); ++i) {
    BatchedWrapper& w = p->wrappers[i];
    size_t b = 0;
    for (; b < p->batches.size(); ++b) {
      WrapperBatch& cand = p->batches[b];
      if (cand.members.size() >= kBatchWrappers || cand.bytes + w.source.size() > kBatchBytes) continue;
      bool clash = false;
      for (auto& n : w.shape.extern_c) clash |= cand.extern_c.count(n) > 0;
      if (!clash) break;
    }
    if (b == p->batches.size()) p->batches.emplace_back();
    WrapperBatch& batch = p->batches[b];
    batch.members.push_back(i);
    batch.extern_c.insert(w.shape.extern_c.begin(), w.shape.extern_c.end());
    batch.bytes += w.source.size();
    w.batch = b;
  }
  // A batch of one is no batch: that wrapper is parsed alone when it is read, as without this.
  for (auto& b : p->batches)
    if (b.members.size() >= 2) parse_batch(*p, b);
  p->previous = t_prepared;
  t_prepared = p.get();
  // Released on this thread, when the caller is done reading these compiles.
  return std::shared_ptr<void>(p.release(), [](void* v) {
    auto* prepared = static_cast<PreparedWrappers*>(v);
    if (t_prepared == prepared) t_prepared = prepared->previous;
    delete prepared;
  });
}

WrapperBatchStats wrapper_batch_stats() {
  return WrapperBatchStats{g_wrapper_batches.load(), g_batched_wrappers.load(), g_wrapper_batch_fallbacks.load()};
}

bool read_cpp_wrapper_clang(Compile& c, const std::string& source, int first_line, const FilePath& file,
                            DiagSink& diags, std::vector<size_t>* kernels_to_read) {
  c.cpp_wrapper = true;
  WrapperScope where = prepared_scope(source);
  ParsedUnit alone;
  bool ok = true;
  if (!where.ctx) {
    std::string code = blank_includes(source);
    alone = parse_wrapper_code(code, shim_decls({&code}));
    ok = alone.errors.empty();
    size_t shown = 0;
    for (const auto& e : alone.errors) {
      if (shown++ >= 5) break;
      SourceLoc l{file, e.line > 0 && !e.in_prelude ? first_line + e.line - 1 : first_line, e.column};
      diags.warning("cpp-wrapper-parse",
                    "C++ wrapper of " + c.id + (e.not_given ? " not read by Clang: " : " does not parse with Clang: ") +
                        e.message +
                        (e.in_prelude ? " (in inductor-lint's wrapper prelude)" : ""),
                    l);
    }
    if (!alone.ctx) return false;
    where = {alone.ctx, alone.ctx->getTranslationUnitDecl()};
  }
  std::vector<std::string> lines = split_wrapper_lines(source);
  std::vector<Kernel> kernels;
  WrapperVisitor v(*where.ctx, *where.scope, c, file, first_line, lines);
  // The kernels defined in the wrapper are added before the entry is walked: launches need their
  // params (from the declaration; the kernel reader's parse, now or later, gives the same).
  v.collect(kernels);
  for (auto& k : kernels) {
    if (!kernels_to_read) read_cpp_kernel_clang(k, file, diags);
    if (c.device_type.empty()) c.device_type = "cpu";
    c.add_kernel(std::move(k));
    if (kernels_to_read) kernels_to_read->push_back(c.kernels.size() - 1);
  }
  v.walk();
  if (!v.found_entry)
    diags.warning("cpp-wrapper-parse", "C++ wrapper of " + c.id + ": no inductor_entry_impl / run_impl found",
                  SourceLoc{file, first_line, 1});
  return ok && v.found_entry;
}

const clangx::PreludeText& clangx::wrapper_prelude() {
  // The kernel prelude, then the wrapper's own declarations: a wrapper defines kernels too.
  static const PreludeText p{"/ilint-prelude/torch/csrc/inductor/cpp_wrapper/prelude.h",
                             kernel_prelude().text + kWrapperPrelude};
  return p;
}

}  // namespace ilint
