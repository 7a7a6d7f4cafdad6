// What the two readers of C++ kernels (Clang's, analyzer/cpp/clang/kernel_reader.cpp, and the hand
// reader, analyzer/cpp/cpp_kernel_hand.cpp) share: the facts one read of a kernel yields, how
// they land in a Kernel, and how accumulator loops become reductions. Each reader walks its own
// tree and records the same things; everything decided from names and loops alone is decided
// here once, so that the two cannot drift apart.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace ilint::cpp_kernel_facts {

// What one read of a kernel source yields. Lines are lines of the source text (1-based); apply()
// moves them to lines of output_code.py, so one read serves every kernel with the same text.
struct KernelFacts {
  bool found_function = false;
  int function_line = 0;
  std::vector<KernelParam> params;
  std::vector<MemAccess> loads, stores;
  std::vector<CastOp> casts;
  std::vector<LiteralUse> literals;
  std::vector<ReduceOp> reductions;
  std::vector<KernelStmt> stmts;
  // "call:<name>" of every call to a named function (Kernel::forms), each once, in order of first
  // call (apply() sorts them). Interned: the Clang reader keeps every distinct kernel's facts.
  std::vector<IString> forms;
  void add_form(const std::string& form) {
    for (const auto& f : forms)
      if (f.str() == form) return;
    forms.emplace_back(form);
  }
};

// Puts `f` into `k`: params and the body line when a function was found, the accesses, casts,
// literals, reductions and statements with their lines moved to `file` (k.def_loc's file when
// empty), the backend (C++ when unknown) and the kind (scan, reduction or pointwise).
// Taken by value: the hand reader moves its one-off facts in, the Clang reader copies cached ones.
void apply(Kernel& k, KernelFacts f, const FilePath& file);

// A location in k's source text (line 1 its first line) as a location in `file` (k.def_loc's file
// when empty); a location without a line becomes the source's first line.
SourceLoc in_file(const Kernel& k, SourceLoc source_loc, const FilePath& file);

// tmp_acc0, tmp_acc0_vec, tmp_acc0_arr, tmp_acc0_local -> "tmp_acc0"; "" otherwise.
std::string accumulator_base(const std::string& name);


// The combine of an accumulator update `acc = <rhs>` from what the rhs is classified as:
// `acc = acc + x` (add), `acc = max_propagate_nan(acc, x)` (call:max_propagate_nan) ...; "unknown".
std::string combine_of_update(const std::string& rhs_op);

// A for loop around what a walk records. `id` is the reader's own node for the loop: it tells
// two loops apart, nothing more.
struct Loop {
  const void* id = nullptr;
  std::string var;
  std::optional<int64_t> start, end;  // [start, end) when both are constants
  std::string end_text;               // the bound as written ("ks0", "16L + 1")
};

// Numbers the top-level loop nests of a kernel body as a walk enters them (MemAccess::nest).
// enter() before pushing a loop on `loops`, leave() after popping it.
class LoopNests {
 public:
  void enter(const std::vector<Loop>& loops) {
    if (loops.empty()) current_ = next_++;
  }
  void leave(const std::vector<Loop>& loops) {
    if (loops.empty()) current_ = -1;
  }
  int current() const { return current_; }

 private:
  int next_ = 0;
  int current_ = -1;
};

// The accumulators of one kernel, as a walk meets them, and the reductions they make.
class Accumulators {
 public:
  bool is_accumulator(const std::string& var) const { return vars_.count(var) > 0; }
  // `float tmp_acc0 = 0;` inside `loops`. The caller has checked accumulator_base(name).
  void declare(const std::string& name, DType dtype, const std::vector<Loop>& loops, int line, int column);
  // `acc = <rhs>` or `acc op= <rhs>` inside `loops`: `rhs_operands` are the variables the rhs
  // reads, in order; `combine` what the update combines with (combine_of_update, or the compound
  // operator's name).
  void update(const std::string& acc, const std::vector<std::string>& rhs_operands, const std::string& combine,
              const std::vector<Loop>& loops);
  // A store of `var` inside `loops` (a scan stores its running value inside the loop updating it).
  void store(const std::string& var, const std::vector<Loop>& loops);
  // One ReduceOp per accumulator family (tmp_acc0, tmp_acc0_vec, ...) and declaration scope, in
  // name order, then in source order: the combine and length come from the update inside the
  // loops that the declaration is outside of.
  std::vector<ReduceOp> reductions() const;

 private:
  struct Decl {
    std::string name;
    DType dtype = DType::Unknown;
    std::vector<const void*> loops;
    int line = 0, column = 0;
    int order = 0;  // when the walk met it, among declarations and updates
  };
  struct Update {
    std::string name, combine, input;
    std::vector<Loop> loops;
    int order = 0;
  };
  struct StoreSite {
    std::string var;
    std::vector<const void*> loops;
  };
  // The reduction of the family `base` declared by `decls` (one scope's declarations).
  ReduceOp reduction_of(const std::string& base, const std::vector<const Decl*>& decls) const;
  // The declaration an update assigns to: as C++ scoping has it, the innermost one of its name
  // declared before it in a loop around it (a kernel redeclares `tmp_acc0` in each nest).
  const Decl* declaration_of(const Update& u) const;

  int order_ = 0;
  std::map<std::string, std::vector<Decl>> decls_;  // by family
  std::set<std::string> vars_;
  std::vector<Update> updates_;
  std::vector<StoreSite> stores_;
};

}  // namespace ilint::cpp_kernel_facts
