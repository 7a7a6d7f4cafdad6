// restrict-alias: a C++ kernel declares pointer parameters `__restrict__` (no other pointer
// reaches that memory) while the wrapper passes it the same buffer, or views of one buffer,
// through two parameters. Doc: rules/restrict-alias.md.
//
// `__restrict__` lets the C++ compiler reorder, vectorize and keep in registers the accesses
// through that pointer as if no other pointer touched them. When one of the aliased
// parameters is written, that assumption is false and the behaviour is undefined: stale values
// in registers, loads hoisted above stores. Two read-only restrict pointers to one buffer are
// allowed by the standard and not reported.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

class RestrictAlias : public Rule {
 public:
  const RuleInfo& info() const override {
    // Experimental: Inductor's C++ kernels carry no __restrict__ in any capture made so far (torch
    // 2.11, CPU backend); the positive test is a real capture with __restrict__ added.
    static const RuleInfo i{"restrict-alias",
                      "__restrict__ pointers that the wrapper aliases",
                      Severity::Error,
                      "high",
                      {"correctness", "aliasing", "undefined-behavior", "cpp"},
                      "A C++ kernel marks pointer parameters __restrict__ while the wrapper passes the same buffer "
                      "(or views of one buffer) to two of them, one of which is written.",
                      "rules/restrict-alias.md",
                      /*experimental=*/true, ReadsKernelBodies};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles) {
      std::set<std::string> reported;
      for_each_kernel_launch(c, [&](const Kernel& k, const KernelLaunch& l) {
        if (k.backend != KernelBackend::Cpp) return;
        bool any_restrict = std::any_of(k.params.begin(), k.params.end(),
                                        [](const KernelParam& p) { return p.is_pointer && p.is_restrict; });
        if (any_restrict) check_launch(c, k, l, reported, out);
      });
    }
  }

 private:
  static bool written(const Kernel& k, const KernelParam& p) {
    // With the C++ reader's stores, exact; without them, a non-const pointer may be written.
    if (!k.stores.empty())
      return std::any_of(k.stores.begin(), k.stores.end(), [&](const MemAccess& s) { return s.ptr == p.name; });
    return !p.is_const;
  }

  void check_launch(const Compile& c, const Kernel& k, const KernelLaunch& l, std::set<std::string>& reported,
                    std::vector<Finding>& out) const {
    auto binds = bind_params(c, k, l);
    std::map<std::string, std::vector<const ParamBinding*>> by_root;
    for (const auto& b : binds)
      if (b.param->is_pointer && !b.buf.root.empty()) by_root[b.buf.root].push_back(&b);
    for (const auto& [root, group] : by_root) {
      if (group.size() < 2) continue;
      std::vector<const ParamBinding*> restricted;
      bool any_written = false;
      for (auto* b : group) {
        if (b->param->is_restrict) restricted.push_back(b);
        any_written = any_written || written(k, *b->param);
      }
      if (restricted.empty() || !any_written) continue;
      std::string key = k.name + "|" + root;
      for (auto* b : group) key += "|" + b->param->name;
      if (!reported.insert(key).second) continue;

      Finding f;
      f.compile_id = c.id;
      f.kernel = k.name;
      f.severity = Severity::Error;
      f.location = k.body_loc.line ? k.body_loc : k.def_loc;
      size_t written_params = 0;
      for (auto* b : group) written_params += written(k, *b->param);
      f.message = fit_headline({"`", input_text(root), "` reaches " + std::to_string(group.size()) + " pointers of one kernel (" +
                                std::to_string(restricted.size()) + " __restrict__, " + std::to_string(written_params) +
                                " written): loads may move past its stores (UB)"});
      std::ostringstream declares;
      declares << "`" << k.name << "` (" << c.graph_kind << " graph) declares ";
      for (size_t i = 0; i < restricted.size(); ++i)
        declares << (i ? ", " : "") << "`" << restricted[i]->param->type_text << " " << restricted[i]->param->name << "`";
      declares << " __restrict__.";
      f.notes.push_back(declares.str());
      std::ostringstream passes;
      passes << "The launch passes `" << root << "` to ";
      for (size_t i = 0; i < group.size(); ++i)
        passes << (i ? ", " : "") << "`" << group[i]->param->name << "` (`" << group[i]->arg << "`"
               << (written(k, *group[i]->param) ? ", written" : "") << ")";
      passes << ".";
      f.notes.push_back(passes.str());
      f.notes.push_back("The compiler may assume these pointers never alias, so loads can be hoisted above stores or kept "
                        "in registers (undefined behaviour).");
      f.fix = "Drop __restrict__ from parameters that can alias, or have the wrapper pass distinct buffers (clone the "
              "input before the in-place op).";
      for (const auto& name : k.fx_nodes)
        if (const FxNode* n = find_fx_node(c, name); n && n->user_loc()) {
          f.related.push_back(RelatedLocation{*n->user_loc(), "user source: " + n->user_code()});
          break;
        }
      f.related.push_back(RelatedLocation{l.loc, "launch passing the same memory twice"});
      nlohmann::json params = nlohmann::json::array();
      for (auto* b : group)
        params.push_back({{"param", b->param->name}, {"type", b->param->type_text}, {"restrict", b->param->is_restrict},
                          {"const", b->param->is_const}, {"written", written(k, *b->param)}, {"arg", b->arg},
                          {"alias_chain", b->buf.chain}});
      f.evidence["graph_kind"] = c.graph_kind;
      f.evidence["kernel"] = k.name;
      f.evidence["buffer"] = root;
      f.evidence["params"] = params;
      f.evidence["stores_known"] = !k.stores.empty();
      std::string uk;
      for (const auto& a : k.aten_ops) uk += a + ",";
      f.fingerprint_key = c.graph_kind + "|" + uk + "|" + std::to_string(group.size());
      out.push_back(std::move(f));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_restrict_alias() { return std::make_unique<RestrictAlias>(); }

}  // namespace ilint
