// read-after-writeback: a node of the graph Inductor compiled that reads a graph input after the
// graph wrote the input's new value back (`copy_(arg0_1, add)`). A functionalized graph reads an
// input's old value only before its write-back; reading it after means a pass replaced a copy of the
// old value by the input itself (pytorch#198131: `dst[:] = src[:]; src.add_(1)`, remove_noop_ops turns
// the copy into `src`, and dst receives src + 1). See rules/read-after-writeback.md.
#include <map>

#include "analyzer/rule.h"

namespace ilint {
namespace {

class ReadAfterWriteback : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"read-after-writeback",
                            "Graph input read after its write-back",
                            Severity::Error,
                            "high",
                            {"correctness", "mutation", "aliasing"},
                            "A node reads a graph input after the graph copied the input's new value into it: it "
                            "sees the mutated value where eager read the old one",
                            "rules/read-after-writeback.md", /*experimental=*/false, ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles) {
      // The graph Inductor was given; a kernel's graph fragment holds no write-backs in order.
      if (c.fx.origin.empty() || c.fx.origin == "graph_fragment") continue;
      std::map<std::string, const FxNode*> written_back;  // placeholder -> its copy_ node
      for (const auto& n : c.fx.nodes) {
        if (n.op == "placeholder" || n.op == "output") continue;
        for (const auto& in : n.input_nodes) {
          // The destination of another write-back into the same input is not a read of its value.
          if (!n.mutates.empty() && in == n.mutates && n.input_nodes.size() > 1 && n.input_nodes[0] == in) continue;
          auto w = written_back.find(in.str());
          if (w != written_back.end()) out.push_back(finding(c, n, *w->second, in.str()));
        }
        if (!n.mutates.empty()) {
          const FxNode* dst = c.fx.find(n.mutates.str());
          if (dst && dst->op == "placeholder") written_back.emplace(n.mutates.str(), &n);
        }
      }
    }
  }

 private:
  static Finding finding(const Compile& c, const FxNode& reader, const FxNode& writeback, const std::string& input) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    const std::string code = reader.user_code().empty() ? reader.name.str() : reader.user_code().str();
    f.message = fit_headline({"`", input_text(code), "` reads input `" + input + "` after its write-back: it gets the new value"});
    f.notes.push_back("`" + reader.name.str() + "` (" + reader.target.str() + ", " + c.graph_kind + " graph) reads `" +
                      input + "` after `" + writeback.name.str() + "` copied the input's new value into it.");
    f.notes.push_back("Eager read the value from before the in-place update; a graph pass replaced a copy of it by "
                      "the input itself, so compiled reads the updated tensor.");
    f.location = reader.def_loc;
    if (reader.user_loc()) f.related.push_back({*reader.user_loc(), "user source: " + code});
    if (writeback.user_loc())
      f.related.push_back({*writeback.user_loc(), "the in-place update written back by `" + writeback.name.str() +
                                                     "`: " + writeback.user_code().str()});
    f.related.push_back({writeback.def_loc, "the write-back `" + writeback.name.str() + "`"});
    f.fix = "Copy a clone, so the read is of a tensor of its own: `dst.copy_(src.clone())` (or "
            "`dst[:] = src.clone()`) before `src.add_(1)`; or update src out of place (`src = src + 1`).";
    f.fingerprint_key = reader.target.str() + "|" + writeback.target.str();
    f.evidence = {{"input", input},
                  {"reader", reader.name.str()},
                  {"reader_target", reader.target.str()},
                  {"writeback", writeback.name.str()}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_read_after_writeback() { return std::make_unique<ReadAfterWriteback>(); }
}  // namespace ilint
