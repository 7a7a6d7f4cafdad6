#include "analyzer/cpp/cpp_kernel_facts.h"

#include <algorithm>

namespace ilint::cpp_kernel_facts {

namespace {

std::vector<const void*> ids_of(const std::vector<Loop>& loops) {
  std::vector<const void*> ids;
  ids.reserve(loops.size());
  for (const auto& l : loops) ids.push_back(l.id);
  return ids;
}

}  // namespace

SourceLoc in_file(const Kernel& k, SourceLoc l, const FilePath& file_in) {
  const FilePath& file = file_in.empty() ? k.def_loc.file : file_in;
  const int first = k.source_first_line > 0 ? k.source_first_line : 1;
  if (l.line <= 0) return SourceLoc{file, first, 0};
  l.file = file;
  l.line = first + l.line - 1;
  return l;
}

void apply(Kernel& k, KernelFacts f, const FilePath& file) {
  auto move = [&](SourceLoc l) { return in_file(k, l, file); };
  if (f.found_function) {
    k.params = std::move(f.params);
    k.body_loc = move(SourceLoc{FilePath(), f.function_line, 1});
  }
  k.loads = std::move(f.loads);
  k.stores = std::move(f.stores);
  k.casts = std::move(f.casts);
  k.literals = std::move(f.literals);
  k.reductions = std::move(f.reductions);
  k.stmts = std::move(f.stmts);
  k.forms = std::move(f.forms);
  std::sort(k.forms.begin(), k.forms.end(), [](const IString& a, const IString& b) { return a.str() < b.str(); });
  for (auto& m : k.loads) m.loc = move(m.loc);
  for (auto& m : k.stores) m.loc = move(m.loc);
  for (auto& c : k.casts) c.loc = move(c.loc);
  for (auto& l : k.literals) l.loc = move(l.loc);
  for (auto& r : k.reductions) r.loc = move(r.loc);
  for (auto& s : k.stmts) s.loc = move(s.loc);
  bool any_scan = false;
  for (auto& r : k.reductions) any_scan |= r.is_scan;
  if (k.backend == KernelBackend::Unknown) k.backend = KernelBackend::Cpp;
  if (f.found_function)
    k.kind = any_scan ? KernelKind::Scan : k.reductions.empty() ? KernelKind::Pointwise : KernelKind::Reduction;
}

std::string accumulator_base(const std::string& name) {
  // By hand: called for every local variable of every kernel.
  if (name.rfind("tmp_acc", 0) != 0) return "";
  size_t i = 7;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
  if (i == 7) return "";
  if (i == name.size()) return name;
  if (name[i] != '_' || i + 1 == name.size()) return "";
  for (size_t j = i + 1; j < name.size(); ++j) {
    char c = name[j];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return "";
  }
  return name.substr(0, i);
}

std::string combine_of_update(const std::string& rhs_op) {
  static const std::map<std::string, std::string> combines = {
      {"call:max_propagate_nan", "max"}, {"call:min_propagate_nan", "min"}, {"call:maximum", "max"},
      {"call:minimum", "min"}, {"call:welford_combine", "welford"}, {"call:argmax_combine", "argmax"},
      {"call:argmin_combine", "argmin"},
      {"call:argmax_combine_vec", "argmax"}, {"call:argmin_combine_vec", "argmin"}, {"call:sum_masked_reduce", "add"}, {"call:prod_masked_reduce", "mul"},
      {"call:max_masked_reduce", "max"}, {"call:min_masked_reduce", "min"},
      {"call:cascade_sum_combine", "add"}, {"call:xor_sum_masked_reduce", "xor_sum"},
      {"call:any_masked_reduce", "any"},
      {"add", "add"}, {"mul", "mul"}, {"xor", "xor_sum"}, {"or", "any"}, {"lor", "any"}, {"and", "all"},
      {"land", "all"}};
  auto it = combines.find(rhs_op);
  return it == combines.end() ? "unknown" : it->second;
}

void Accumulators::declare(const std::string& name, DType dtype, const std::vector<Loop>& loops, int line,
                           int column) {
  decls_[accumulator_base(name)].push_back(Decl{name, dtype, ids_of(loops), line, column, order_++});
  vars_.insert(name);
}

void Accumulators::update(const std::string& acc, const std::vector<std::string>& rhs_operands,
                          const std::string& combine, const std::vector<Loop>& loops) {
  Update u;
  u.name = acc;
  u.combine = combine;
  u.loops = loops;
  u.order = order_++;
  // The value combined in: the first variable read that is not of the accumulator's family.
  for (const auto& o : rhs_operands)
    if (o != acc && accumulator_base(o) != accumulator_base(acc)) {
      u.input = o;
      break;
    }
  updates_.push_back(std::move(u));
}

void Accumulators::store(const std::string& var, const std::vector<Loop>& loops) {
  stores_.push_back(StoreSite{var, ids_of(loops)});
}

std::vector<ReduceOp> Accumulators::reductions() const {
  std::vector<ReduceOp> out;
  for (const auto& [base, all_decls] : decls_) {
    // One reduction per declaration scope: a kernel of several loop nests declares `tmp_acc0`
    // afresh in each (softmax: a max in one nest, a sum in the next), and each is its own reduction.
    std::vector<std::vector<const Decl*>> scopes;
    for (const auto& d : all_decls) {
      auto same = std::find_if(scopes.begin(), scopes.end(), [&](const auto& sc) { return sc.front()->loops == d.loops; });
      if (same == scopes.end()) scopes.push_back({&d});
      else same->push_back(&d);
    }
    for (const auto& decls : scopes) out.push_back(reduction_of(base, decls));
  }
  return out;
}

const Accumulators::Decl* Accumulators::declaration_of(const Update& u) const {
  auto family = decls_.find(accumulator_base(u.name));
  if (family == decls_.end()) return nullptr;
  const Decl* best = nullptr;
  for (const Decl& d : family->second) {
    if (d.name != u.name || d.order > u.order || d.loops.size() > u.loops.size()) continue;
    bool around = true;
    for (size_t i = 0; i < d.loops.size() && around; ++i) around = u.loops[i].id == d.loops[i];
    // Later declarations of equal depth shadow earlier ones (sibling blocks at one depth).
    if (around && (!best || d.loops.size() >= best->loops.size())) best = &d;
  }
  return best;
}

ReduceOp Accumulators::reduction_of(const std::string& base, const std::vector<const Decl*>& decls) const {
  ReduceOp r;
  r.result_var = base;
  const Decl* scalar = nullptr;
  for (const Decl* d : decls)
    if (d->name == base) scalar = d;
  const Decl* chosen = nullptr;
  const Update* update = nullptr;
  for (const auto& u : updates_) {
    if (accumulator_base(u.name) != base) continue;
    const Decl* d = declaration_of(u);
    if (!d || std::find(decls.begin(), decls.end(), d) == decls.end()) continue;  // another scope's
    if (u.loops.size() <= d->loops.size()) continue;  // a final horizontal combine
    chosen = d;
    update = &u;
    break;
  }
  if (!chosen) chosen = scalar ? scalar : decls.front();
  r.accumulator_dtype = chosen->dtype;
  r.compute_dtype = chosen->dtype;
  r.loc.line = chosen->line;
  r.loc.column = chosen->column;
  if (update) {
    r.combine = update->combine;
    r.input_var = update->input;
    int64_t n = 1;
    bool known = true;
    std::string expr;
    for (size_t i = chosen->loops.size(); i < update->loops.size(); ++i) {
      const Loop& l = update->loops[i];
      // A `<v>_inner` loop walks the lanes of its outer loop's step: the outer counts them.
      if (l.var.size() > 6 && l.var.compare(l.var.size() - 6, 6, "_inner") == 0) continue;
      if (l.start && l.end) {
        n *= std::max<int64_t>(0, *l.end - *l.start);
      } else {
        known = false;
      }
      if (!expr.empty()) expr += "*";
      expr += l.start && *l.start == 0 ? "(" + l.end_text + ")" : "(" + l.end_text + " - start)";
    }
    if (known) r.length = n;
    else r.length_expr = expr;
    // A scan stores the running value inside the loop that updates it.
    const void* inner = update->loops[chosen->loops.size()].id;
    for (const auto& s : stores_) {
      if (accumulator_base(s.var) != base) continue;
      if (std::find(s.loops.begin(), s.loops.end(), inner) != s.loops.end()) r.is_scan = true;
    }
  } else {
    r.combine = "unknown";
  }
  return r;
}

}  // namespace ilint::cpp_kernel_facts
