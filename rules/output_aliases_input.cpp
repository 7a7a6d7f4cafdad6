// output-aliases-input: an output eager computes as a new tensor (`x / 1.0`, `x * 1`, `x + 0`) that
// the compiled graph returns as one of its inputs, because a joint-graph pass removed the operation as
// a no-op; the caller then holds its input where it expects a fresh tensor, and an in-place update of
// the result changes the input (pytorch#197893). See rules/output-aliases-input.md.
#include <set>

#include "analyzer/rule.h"

namespace ilint {
namespace {

// The ATen ops whose result is a view of their input in eager too: returning the input instead aliases
// what eager already aliased.
bool is_aliasing_view(const std::string& target) {
  static const std::set<std::string> views = {
      "view", "_unsafe_view", "reshape", "expand", "permute", "transpose", "t", "slice", "select", "alias",
      "squeeze", "unsqueeze", "as_strided", "unfold", "diagonal", "narrow", "detach", "view_as", "expand_as",
      "split", "split_with_sizes", "chunk", "unbind", "movedim", "view_as_real", "view_as_complex", "flatten",
      "unflatten", "lift_fresh"};
  // "torch.ops.aten.view.default" -> "view"
  std::string op = target;
  if (op.rfind("torch.ops.", 0) == 0) {
    size_t a = op.find('.', 10), b = a == std::string::npos ? a : op.find('.', a + 1);
    op = a == std::string::npos ? op : op.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  }
  return views.count(op) > 0 || target == "operator.getitem";
}

std::string short_file(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}

class OutputAliasesInput : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"output-aliases-input",
                            "Compiled graph returns its input where eager returns a new tensor",
                            Severity::Warning,
                            "high",
                            {"correctness", "aliasing", "dynamo"},
                            "An output that eager computes afresh (x * 1, x / 1.0, x + 0) is its input "
                            "itself in the compiled graph: an in-place update of the result changes the input",
                            "rules/output-aliases-input.md", /*experimental=*/false, ReadsDynamoLogs};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    // One finding per user line and op: the captures compile the same function once per session.
    std::set<std::string> reported;
    for (const auto& frame : program.dynamo.frames)
      for (const auto& fc : frame.compiles) {
        if (fc.aot_outputs.empty() || fc.aot_outputs.size() != fc.joint_pass_outputs.size()) continue;
        for (size_t p = 0; p < fc.aot_outputs.size(); ++p) {
          const GraphOutput& eager = fc.aot_outputs[p];
          const GraphOutput& compiled = fc.joint_pass_outputs[p];
          // Eager makes a new tensor there (a computation, not a view or an input), the compiled
          // graph returns one of its inputs.
          if (eager.op != "call_function" || is_aliasing_view(eager.target)) continue;
          if (compiled.op != "placeholder") continue;
          std::string key = (eager.user_loc ? eager.user_loc->file + ":" + std::to_string(eager.user_loc->line) : "") +
                            "|" + eager.target;
          if (!reported.insert(key).second) continue;
          out.push_back(finding(fc, frame, p, eager, compiled));
        }
      }
  }

 private:
  static Finding finding(const FrameCompile& fc, const Frame& frame, size_t position, const GraphOutput& eager,
                         const GraphOutput& compiled) {
    Finding f;
    f.severity = Severity::Warning;
    std::string call = eager.target + "(" ;
    for (size_t i = 0; i < eager.args.size(); ++i) call += (i ? ", " : "") + eager.args[i];
    call += ")";
    std::string where = eager.user_loc ? short_file(eager.user_loc->file) + ":" + std::to_string(eager.user_loc->line) +
                                             ", compile " + fc.compile_id
                                       : "compile " + fc.compile_id;
    std::string code = eager.user_code.empty() ? eager.node : eager.user_code;
    f.message = fit_headline({"`", input_text(code),
                              "` yields its input itself when compiled (eager: a new tensor): in-place updates change both"});
    f.notes = {"Eager returns a new tensor (`" + eager.node + " = " + call + "`) at " + where + ".",
               "The compiled graph returns its input `" + compiled.node + "` itself at output " + std::to_string(position) +
                   ", the operation removed by Inductor's joint-graph passes as a no-op.",
               "The result and the input are one tensor: an in-place update of either changes the other."};
    f.location = compiled.loc.valid() ? compiled.loc : eager.loc;
    if (eager.user_loc) f.related.push_back({*eager.user_loc, "user source: " + eager.user_code});
    if (eager.loc.valid()) f.related.push_back({eager.loc, "the graph AOTAutograd traced computes `" + eager.node + "`"});
    if (frame.code_loc.valid()) f.related.push_back({frame.code_loc, "compiled function " + frame.function});
    f.fix = "Return a tensor that is new in every case: `out = x / t` with a `t` that can be 1.0 is the input itself "
            "when compiled; write `(x / t).clone()` only where the caller mutates the result, or avoid the in-place "
            "update of the result (`out = out + 1` instead of `out.add_(1)`). Making the value a tensor "
            "(`torch.tensor(t)`) keeps the division in the graph.";
    f.fingerprint_key = eager.target + "|" + std::to_string(position);
    f.evidence = {{"compile_id", fc.compile_id},
                  {"session", fc.session},
                  {"output_position", position},
                  {"eager_node", eager.node},
                  {"eager_target", eager.target},
                  {"eager_args", eager.args},
                  {"compiled_output", compiled.node},
                  {"compiled_output_op", compiled.op},
                  {"graphs", {"aot_inference_graph", "after_joint_graph"}}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_output_aliases_input() { return std::make_unique<OutputAliasesInput>(); }
}  // namespace ilint
