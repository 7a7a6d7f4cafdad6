// inplace-read-after-write: one kernel launch stores to a buffer and reads the same memory (the
// same buffer, or a view of it through the wrapper's aliases) at a different index.
// Doc: rules/inplace-read-after-write.md.
//
// Every thread (Triton program, C++ loop iteration) reads before it writes, so reading the
// element it is about to write is safe. Reading an element another thread writes is a race
// (Triton) or a read of an already-overwritten value (C++ loops): the result depends on the
// schedule, and differs from eager, which materializes the right-hand side first.
//
// The index expressions are compared as functions, not as text: both are evaluated over the
// launch's index space (xindex in [0, xnumel), ...), with the kernel's index variables
// (`x0 = xindex % 16`) expanded. Same values everywhere: safe, whatever the spelling. Different:
// the rule looks for a witness, another thread that stores the element this one loads.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/model/fx_query.h"
#include "analyzer/model/index_expr.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

std::string strip_space(const std::string& s) {
  std::string o;
  for (char ch : s)
    if (!std::isspace(static_cast<unsigned char>(ch))) o += ch;
  return o;
}

// ------------------------------------------------------------ the rule

struct Access {
  const MemAccess* acc;
  const ParamBinding* bind;
};

struct Verdict {
  bool evaluated = false;   // both index functions could be evaluated over the index space
  bool same = false;        // same element for every index point (safe)
  bool witness = false;     // another index point stores the element this one loads
  bool in_range = false;    // the loaded element lies inside the stored range (no exact witness)
  std::map<std::string, int64_t> reader, writer;  // witness points
  int64_t element = 0;      // element read by `reader` and written by `writer`
  int64_t reader_own = 0;   // element `reader` itself stores
  int64_t distance = 0;     // |linear(reader) - linear(writer)|
  std::vector<std::string> free;  // the index variables
  // The values each variable takes: lo, lo + step, ... below hi.
  struct Domain {
    int64_t lo = 0, hi = 64, step = 1;
  };
  std::map<std::string, Domain> domain;
  // Elements an access covers from its index: a C++ vector access its lanes (the step of `var`,
  // cut at its loop's end), any other one.
  struct Lanes {
    int64_t width = 1;
    std::string var;
  };
  Lanes load_lanes, store_lanes;
  // The variables whose loop holds both accesses (or that are no C++ loop's): two points that
  // agree on these are one iteration, whose own loads and stores are its data flow, not a race.
  std::set<std::string> common;

  int64_t lanes_at(const Lanes& l, const std::map<std::string, int64_t>& p) const {
    if (l.width == 1) return 1;
    return std::max<int64_t>(1, std::min(l.width, domain.at(l.var).hi - p.at(l.var)));
  }
  bool other_iteration(const std::map<std::string, int64_t>& a, const std::map<std::string, int64_t>& b) const {
    for (const auto& n : common)
      if (a.at(n) != b.at(n)) return true;
    return false;
  }

  // The number of values `n` takes, and its value of rank j.
  int64_t count(const std::string& n) const {
    const Domain& d = domain.at(n);
    return (d.hi - d.lo + d.step - 1) / d.step;
  }
  int64_t value(const std::string& n, int64_t j) const { return domain.at(n).lo + j * domain.at(n).step; }
  bool takes(const std::string& n, int64_t x) const {
    const Domain& d = domain.at(n);
    return x >= d.lo && x < d.hi && (x - d.lo) % d.step == 0;
  }
};

std::string point_text(const std::map<std::string, int64_t>& p) {
  std::ostringstream os;
  bool first = true;
  for (auto& [k, v] : p) {
    os << (first ? "" : ", ") << k << "=" << v;
    first = false;
  }
  return os.str();
}

class InplaceReadAfterWrite : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"inplace-read-after-write",
                            "In-place kernel reads memory it overwrites at another index",
                            Severity::Error,
                            "high",
                            {"correctness", "mutation", "aliasing", "race"},
                            "A kernel launch stores to a buffer and, in the same launch, loads the same memory (the "
                            "same buffer or a view of it) at a different index: the result depends on the schedule.",
                            "rules/inplace-read-after-write.md", /*experimental=*/false, ReadsKernelBodies};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles) {
      std::set<std::string> reported;
      for_each_kernel_launch(c, [&](const Kernel& k, const KernelLaunch& l) {
        if (!k.stores.empty() && !k.loads.empty()) check_launch(c, k, l, reported, out);
      });
    }
  }

 private:
  void check_launch(const Compile& c, const Kernel& k, const KernelLaunch& l, std::set<std::string>& reported,
                    std::vector<Finding>& out) const {
    auto binds = bind_params(c, k, l);
    std::map<std::string, const ParamBinding*> by_param;
    std::map<std::string, int64_t> scalars;  // xnumel = 128, ks0 = 16 from the launch's literal arguments
    for (const auto& b : binds) {
      by_param[b.param->name] = &b;
      if (!b.param->is_pointer && b.buf.buffer.empty()) {
        try {
          size_t pos;
          long long v = std::stoll(b.arg, &pos);
          if (pos == b.arg.size()) scalars[b.param->name] = v;
        } catch (...) {
        }
        // A symbolic size (`s0`, `ks0`): one fixed value, the same for the load and the store.
        if (!scalars.count(b.param->name) && !b.param->is_constexpr) scalars[b.param->name] = 16;
      }
    }
    // Group the accesses by the memory they touch.
    std::map<std::string, std::vector<Access>> loads, stores;
    for (const auto& a : k.loads)
      if (auto it = by_param.find(a.ptr); it != by_param.end() && !it->second->buf.root.empty())
        loads[it->second->buf.root].push_back({&a, it->second});
    for (const auto& a : k.stores)
      if (auto it = by_param.find(a.ptr); it != by_param.end() && !it->second->buf.root.empty())
        stores[it->second->buf.root].push_back({&a, it->second});

    IndexEvaluator ev(k, scalars);
    for (const auto& [root, sts] : stores) {
      auto lit = loads.find(root);
      if (lit == loads.end()) continue;
      for (const auto& ld : lit->second) {
        for (const auto& st : sts) {
          if (in_different_nests(k, *ld.acc, *st.acc)) continue;
          Verdict v = compare(ev, k, *ld.acc, *ld.bind, *st.acc, *st.bind);
          if (v.same) continue;
          if (v.evaluated && !v.witness && !v.in_range) continue;  // reads memory this launch does not write
          std::string key = k.name + "|" + ld.acc->ptr + "|" + ld.acc->index + "|" + st.acc->ptr + "|" + st.acc->index +
                            "|" + root;
          if (!reported.insert(key).second) continue;
          report(c, k, l, root, ld, st, v, out);
          break;  // one finding per load: the first store it conflicts with
        }
      }
    }
  }

  // A C++ kernel runs its top-level loop nests one after the other: a nest inside
  // `#pragma omp parallel` is an `#pragma omp for` or `#pragma omp single`, both of which end with
  // a barrier (Inductor writes no `nowait`), and outside it the nests are plain sequential code.
  // A load and a store in different nests are ordered, whatever their indices: a later nest reads
  // what an earlier one finished writing (the fused producer and consumer), an earlier nest reads
  // before a later one writes. Only accesses of one nest can see each other half done.
  // A Triton kernel's grid barrier (a cooperative reduction's x_grid_barrier) orders the same way:
  // the workspace a block stores before it is what every block loads after it.
  static bool in_different_nests(const Kernel&, const MemAccess& ld, const MemAccess& st) {
    return ld.nest >= 0 && st.nest >= 0 && ld.nest != st.nest;
  }

  // A C++ kernel whose vectorized loop over x1 stops short of its end finishes the range in a scalar
  // tail loop, `for (x1_tail = 8; x1_tail < 10; ...)`, under `if (x1 >= 8 && x1 < 10)`, while the
  // vector body runs under `if (x1 >= 0 && x1 < 8)`: the two split one dimension, and an index at
  // x1_tail names the element the same expression names at x1. Written with x1, the body's and the
  // tail's accesses of one element have the same index, as the kernel means them.
  static std::string merge_tail_loops(const Kernel& k, const std::string& index) {
    if (index.find("_tail") == std::string::npos) return index;
    std::string out;
    for (size_t i = 0; i < index.size();) {
      size_t j = i;
      while (j < index.size() && (std::isalnum(static_cast<unsigned char>(index[j])) || index[j] == '_')) ++j;
      if (j == i) {
        out += index[i++];
        continue;
      }
      std::string word = index.substr(i, j - i);
      const std::string tail = "_tail";
      if (word.size() > tail.size() && word.compare(word.size() - tail.size(), tail.size(), tail) == 0 &&
          k.has_loop(word) && k.has_loop(word.substr(0, word.size() - tail.size())))
        word.resize(word.size() - tail.size());
      out += word;
      i = j;
    }
    return out;
  }

  // Domains: Triton index variables range over their numel, C++ loop variables over the literal
  // range and step of their loop around the load (else the store), a variable merged with its tail
  // loop (merge_tail_loops) over both loops' values one by one; anything else over a small default
  // range.
  void set_domains(IndexEvaluator& ev, const Kernel& k, const MemAccess& ld, const MemAccess& st, Verdict& v) const {
    for (const auto& n : v.free) {
      Verdict::Domain d;
      const CppLoop* at_ld = k.loop_around(n, ld.loc.line);
      const CppLoop* at_st = k.loop_around(n, st.loc.line);
      const CppLoop* tail = k.loop_around(n + "_tail", ld.loc.line);
      if (!tail) tail = k.loop_around(n + "_tail", st.loc.line);
      if (is_triton_index_var(n)) {
        std::string numel = numel_of(n);
        std::map<std::string, int64_t> none;
        if (auto x = ev.eval(ev.parse(numel), none)) d.hi = *x;
      } else if (tail) {
        const CppLoop* body = at_ld ? at_ld : at_st;
        d.lo = body ? std::min(body->start, tail->start) : tail->start;
        d.hi = body ? std::max(body->end, tail->end) : tail->end;
      } else if (const CppLoop* l = at_ld ? at_ld : at_st) {
        d = {l->start, l->end, l->step};
      }
      // One loop holds both accesses (or neither is in a loop of n): a value of n is one iteration.
      if (tail || at_ld == at_st) v.common.insert(n);
      if (d.hi <= d.lo) d.hi = d.lo + 1;
      v.domain[n] = d;
    }
  }

  // Sample points: small domains fully, large ones at both ends, the middle and a stride.
  static std::vector<std::map<std::string, int64_t>> sample_points(const Verdict& v) {
    std::vector<std::vector<int64_t>> values;
    size_t combos = 1;
    for (const auto& n : v.free) {
      // Ranks of the values the variable takes.
      int64_t d = v.count(n);
      std::set<int64_t> s;
      int64_t per = v.free.size() >= 3 ? 6 : 12;
      if (d <= 4 * per) {
        for (int64_t i = 0; i < d; ++i) s.insert(i);
      } else {
        for (int64_t i = 0; i < per; ++i) {
          s.insert(i);
          s.insert(d - 1 - i);
          s.insert(d / 2 - per / 2 + i);
        }
        for (int64_t j = 1; j < 16; ++j) s.insert(d * j / 16);
        for (int64_t p : {7, 31, 127, 1021, 4099, 65537}) s.insert(p % d);
      }
      std::vector<int64_t> taken;
      for (int64_t j : s) taken.push_back(v.value(n, j));
      values.push_back(std::move(taken));
      combos *= values.back().size();
    }
    std::vector<std::map<std::string, int64_t>> points;
    points.reserve(combos);
    std::map<std::string, int64_t> p;
    std::function<void(size_t)> rec = [&](size_t i) {
      if (i == v.free.size()) {
        points.push_back(p);
        return;
      }
      for (int64_t x : values[i]) {
        p[v.free[i]] = x;
        rec(i + 1);
      }
    };
    rec(0);
    return points;
  }

  // The elements a vector access covers from its index: Inductor tiles a vectorized C++ loop by
  // the vector's lanes (`x1+=static_cast<int64_t>(16L)`), and the access steps over memory along
  // that variable (coefficient 1 in its index), so `tmp_acc0_vec.store(out_ptr2 + x1 + 256*x0)`
  // writes x1 to x1 + 15. One for a scalar access and for every Triton access.
  // At most 64 lanes (a 64-byte vector of bytes); a larger step is no vector's.
  static constexpr int64_t kMaxLanes = 64;
  static Verdict::Lanes vector_lanes(IndexEvaluator& ev, const IndexExpr& e, const MemAccess& a, const Verdict& v) {
    if (!a.vectorized) return {};
    std::map<std::string, int64_t> zero;
    for (const auto& n : v.free) zero[n] = 0;
    auto at_zero = ev.eval(e, zero);
    if (!at_zero) return {};
    for (const auto& n : v.free) {
      const int64_t step = v.domain.at(n).step;
      if (step <= 1 || step > kMaxLanes) continue;
      auto one = zero;
      one[n] = 1;
      if (auto at_one = ev.eval(e, one); at_one && *at_one - *at_zero == 1) return {step, n};
    }
    return {};
  }

  // Whether the store index is affine over the samples, `base + sum(coef[n] * n)`: probed at the
  // origin and one step along each variable (outside a domain is fine: the samples then check the
  // fit inside it).
  static bool fit_affine(IndexEvaluator& ev, const IndexExpr& se, int64_t offset, const Verdict& v,
                         const std::vector<std::map<std::string, int64_t>>& points, const std::vector<int64_t>& S,
                         std::map<std::string, int64_t>& coef, int64_t& base) {
    std::map<std::string, int64_t> zero;
    for (const auto& n : v.free) zero[n] = 0;
    auto b0 = ev.eval(se, zero);
    if (!b0) return false;
    base = *b0 + offset;
    for (const auto& n : v.free) {
      auto one = zero;
      one[n] = 1;
      auto b1 = ev.eval(se, one);
      if (!b1) return false;
      coef[n] = *b1 + offset - base;
    }
    for (size_t i = 0; i < points.size(); ++i) {
      int64_t pred = base;
      for (const auto& n : v.free) pred += coef[n] * points[i].at(n);
      if (pred != S[i]) return false;
    }
    return true;
  }

  // Exact witnesses among the samples (another point stores the element a point loads), or by
  // solving the affine store index for the loaded element; else whether a loaded element falls
  // inside the stored range.
  static void find_witness(Verdict& v, const std::vector<std::map<std::string, int64_t>>& points,
                           const std::vector<int64_t>& L, const std::vector<int64_t>& S, bool affine,
                           const std::map<std::string, int64_t>& coef, int64_t base) {
    int64_t smin = *std::min_element(S.begin(), S.end());
    std::vector<int64_t> stored(S.size());  // the elements each point stores, from S[i]
    for (size_t i = 0; i < S.size(); ++i) stored[i] = v.lanes_at(v.store_lanes, points[i]);
    int64_t smax = S[0] + stored[0] - 1;
    for (size_t i = 0; i < S.size(); ++i) smax = std::max(smax, S[i] + stored[i] - 1);
    std::unordered_map<int64_t, size_t> writer_of;
    for (size_t i = 0; i < S.size(); ++i)
      for (int64_t lane = 0; lane < stored[i]; ++lane) writer_of.emplace(S[i] + lane, i);
    auto linear = [&](const std::map<std::string, int64_t>& pt) {
      int64_t lin = 0;
      for (const auto& n : v.free) lin = lin * v.count(n) + (pt.at(n) - v.domain.at(n).lo) / v.domain.at(n).step;
      return lin;
    };
    // Enumeration budget for the whole comparison, not per point: a 2-D launch of 1M x 1K
    // points must not be walked once per sample.
    int64_t budget = 1 << 22;
    bool exhausted = false;
    // A point whose store index is `elem`.
    auto solve_index = [&](int64_t elem, std::map<std::string, int64_t>& w) -> bool {
      if (!affine || v.free.empty()) return false;
      // One variable solved exactly, the others (at most two) enumerated over bounded domains.
      const std::string& last = v.free.back();
      std::vector<std::string> rest(v.free.begin(), v.free.end() - 1);
      std::map<std::string, int64_t> cur;
      std::function<bool(size_t, int64_t)> go = [&](size_t i, int64_t partial) -> bool {
        if (i == rest.size()) {
          int64_t a = coef.at(last);
          int64_t r = elem - partial;
          if (a == 0) return false;
          if (r % a != 0) return false;
          int64_t x = r / a;
          if (!v.takes(last, x)) return false;
          cur[last] = x;
          w = cur;
          return true;
        }
        const std::string& n = rest[i];
        for (int64_t j = 0, d = v.count(n); j < d; ++j) {
          if (budget-- <= 0) {
            exhausted = true;
            return false;
          }
          int64_t x = v.value(n, j);
          cur[n] = x;
          if (go(i + 1, partial + coef.at(n) * x)) return true;
        }
        return false;
      };
      return go(0, base);
    };
    // A point whose store covers `elem` (at one of its lanes).
    auto solve = [&](int64_t elem, std::map<std::string, int64_t>& w) {
      for (int64_t lane = 0; lane < v.store_lanes.width; ++lane)
        if (solve_index(elem - lane, w) && lane < v.lanes_at(v.store_lanes, w)) return true;
      w.clear();
      return false;
    };
    for (size_t i = 0; i < points.size(); ++i) {
      // The first and last element the point loads: each is its own, or another point's, or neither.
      const int64_t first = L[i], last = L[i] + v.lanes_at(v.load_lanes, points[i]) - 1;
      for (int64_t e : {first, last}) {
        if (e >= S[i] && e < S[i] + stored[i]) continue;  // an element this point stores itself
        std::map<std::string, int64_t> w;
        bool found = false;
        if (auto it = writer_of.find(e); it != writer_of.end() && it->second != i) {
          w = points[it->second];
          found = v.other_iteration(w, points[i]);
        } else if (!v.witness && !exhausted && solve(e, w) && w != points[i]) {
          found = v.other_iteration(w, points[i]);  // once a witness exists, only the cheap lookup above may improve it
        }
        if (!found && !w.empty()) continue;  // stored by this iteration, at another lane of an inner loop
        if (found) {
          int64_t dist = std::llabs(linear(points[i]) - linear(w));
          if (!v.witness || dist > v.distance) {
            v.witness = true;
            v.reader = points[i];
            v.writer = w;
            v.element = e;
            v.reader_own = S[i];
            v.distance = dist;
          }
        } else if (!v.witness && (!affine || exhausted) && e >= smin && e <= smax && !v.in_range) {
          v.in_range = true;
          v.reader = points[i];
          v.element = e;
          v.reader_own = S[i];
        }
        if (last == first) break;  // one element
      }
    }
    if (v.witness) v.in_range = false;
  }

  Verdict compare(IndexEvaluator& ev, const Kernel& k, const MemAccess& ld, const ParamBinding& lb, const MemAccess& st,
                  const ParamBinding& sb) const {
    Verdict v;
    const std::string ld_index = merge_tail_loops(k, ld.index.str()), st_index = merge_tail_loops(k, st.index.str());
    // The same index text at the same known offset evaluates to the same element at every point
    // (the usual in-place kernel: load and store through one pointer at `x0`): nothing to sample.
    if (ld_index == st_index && lb.buf.offset_known && sb.buf.offset_known && lb.buf.offset == sb.buf.offset) {
      v.same = true;
      return v;
    }
    bool same_text = strip_space(ld_index) == strip_space(st_index) && lb.buf.offset == sb.buf.offset &&
                     lb.buf.offset_known && sb.buf.offset_known;
    IndexExpr le = ev.parse(ld_index), se = ev.parse(st_index);
    std::set<std::string> fv;
    ev.free_vars(le, fv);
    ev.free_vars(se, fv);
    v.free.assign(fv.begin(), fv.end());
    if (!lb.buf.offset_known || !sb.buf.offset_known || fv.size() > 3) {
      v.same = same_text;
      return v;
    }
    set_domains(ev, k, ld, st, v);
    const std::vector<std::map<std::string, int64_t>> points = sample_points(v);

    std::vector<int64_t> L, S;
    L.reserve(points.size());
    S.reserve(points.size());
    for (const auto& pt : points) {
      auto a = ev.eval(le, pt), b = ev.eval(se, pt);
      if (!a || !b) {
        v.same = same_text;
        return v;
      }
      L.push_back(*a + lb.buf.offset);
      S.push_back(*b + sb.buf.offset);
    }
    v.evaluated = true;
    v.same = L == S;
    if (v.same) return v;
    v.load_lanes = vector_lanes(ev, le, ld, v);
    v.store_lanes = vector_lanes(ev, se, st, v);

    // Exact witnesses among the samples, or by solving an affine store index for the loaded element.
    std::map<std::string, int64_t> coef;
    int64_t base = 0;
    bool affine = fit_affine(ev, se, sb.buf.offset, v, points, S, coef, base);
    find_witness(v, points, L, S, affine, coef, base);
    return v;
  }

  void report(const Compile& c, const Kernel& k, const KernelLaunch& l, const std::string& root, const Access& ld,
              const Access& st, const Verdict& v, std::vector<Finding>& out) const {
    Finding f;
    f.compile_id = c.id;
    f.kernel = k.name;
    f.severity = Severity::Error;
    f.location = ld.acc->loc;
    const Buffer* rb = c.buffer(root);
    bool caller_owned = rb && rb->is_graph_input;
    std::string what = caller_owned ? "graph input `" + root + "`" : "buffer `" + root + "`";

    // Headline: the memory and what the overlap does; the kernel, pointers, indices and the index
    // points that overlap go to the notes.
    std::vector<HeadlinePiece> headline = {"one launch writes " + std::string(caller_owned ? "graph input `" : "buffer `"),
                                           input_text(root)};
    if (v.witness)
      headline.push_back("` and reads elements it also stores: compiled results differ from eager");
    else if (v.in_range)
      headline.push_back("` and reads inside the range it stores: the value read may already be overwritten");
    else
      headline.push_back("` and reads it at another index: the value read may already be overwritten");
    f.message = fit_headline(headline);
    std::ostringstream access;
    access << "`" << k.name << "` (" << c.graph_kind << " graph) writes " << what << " through `" << st.acc->ptr
           << "` at [" << st.acc->index << "] and, in the same launch, reads it through `" << ld.acc->ptr << "` at ["
           << ld.acc->index << "].";
    f.notes.push_back(access.str());
    if (ld.bind->buf.chain.size() > 1 || st.bind->buf.chain.size() > 1 || ld.bind->arg != st.bind->arg)
      f.notes.push_back("Launch arguments `" + ld.bind->arg + "` and `" + st.bind->arg + "` are the same memory.");
    std::ostringstream overlap;
    if (v.witness)
      overlap << "Index point " << point_text(v.reader) << " loads element " << v.element << ", which point "
              << point_text(v.writer) << " stores (its own store goes to element " << v.reader_own
              << "): the value read depends on whether that store has happened, so compiled results differ from eager.";
    else if (v.in_range)
      overlap << "Index point " << point_text(v.reader) << " loads element " << v.element
              << ", inside the range this launch stores, but stores element " << v.reader_own
              << ": the value read may already be overwritten.";
    else
      overlap << "The load and store index expressions differ and could not be evaluated; the value read may already "
                 "be overwritten.";
    f.notes.push_back(overlap.str());
    f.fix = "Make the operand that reads the buffer a separate tensor before the in-place write "
            "(`torch._foreach_add_([x], [x.flip(0).clone()])`), or write out of place (`x = x + x.flip(0)`), so the "
            "read and the write are different memory. Run `inductor-lint confirm` to compare eager and compiled.";

    // User source: the FX node that mutates the root (copy_ into a graph input), else any node the kernel computes.
    const FxNode* user = nullptr;
    for (const auto& n : c.fx.nodes)
      if (!n.mutates.empty() && n.mutates == root && n.user_loc()) user = &n;
    if (!user)
      for (const auto& name : k.fx_nodes)
        if (const FxNode* n = find_fx_node(c, name); n && n->user_loc()) {
          user = n;
          break;
        }
    if (user) f.related.push_back(RelatedLocation{*user->user_loc(), "user source: " + user->user_code()});
    f.related.push_back(RelatedLocation{st.acc->loc, "the store to the same memory"});
    f.related.push_back(RelatedLocation{l.loc, "launch with `" + ld.bind->arg + "` and `" + st.bind->arg + "`"});

    nlohmann::json e;
    e["graph_kind"] = c.graph_kind;
    e["kernel"] = k.name;
    e["backend"] = k.backend == KernelBackend::Cpp ? "cpp" : "triton";
    e["buffer"] = root;
    e["buffer_is_graph_input"] = caller_owned;
    e["load"] = {{"ptr", ld.acc->ptr}, {"index", ld.acc->index}, {"arg", ld.bind->arg}, {"alias_chain", ld.bind->buf.chain},
                 {"offset", ld.bind->buf.offset}, {"line", ld.acc->loc.line}};
    e["store"] = {{"ptr", st.acc->ptr}, {"index", st.acc->index}, {"arg", st.bind->arg}, {"alias_chain", st.bind->buf.chain},
                  {"offset", st.bind->buf.offset}, {"line", st.acc->loc.line}};
    nlohmann::json dom = nlohmann::json::object();
    for (auto& [n, d] : v.domain) dom[n] = {d.lo, d.hi};
    e["index_vars"] = dom;
    e["evaluated"] = v.evaluated;
    e["claim"] = v.witness ? "cross-thread-overlap" : v.in_range ? "overlap-in-range" : "index-differs";
    if (v.witness || v.in_range) {
      e["reader"] = v.reader;
      e["element"] = v.element;
      e["reader_own_element"] = v.reader_own;
    }
    if (v.witness) {
      e["writer"] = v.writer;
      e["witness_distance"] = v.distance;
    }
    if (user) e["user_node"] = user->name;
    f.evidence = e;
    // Stable across recompiles: no kernel or buffer names.
    f.fingerprint_key = c.graph_kind + "|" + (user ? user->user_code() : "") + "|" + strip_space(ld.acc->index) + "|" +
                        strip_space(st.acc->index) + "|" + (caller_owned ? "input" : "intermediate");
    out.push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> make_inplace_read_after_write() { return std::make_unique<InplaceReadAfterWrite>(); }

}  // namespace ilint
