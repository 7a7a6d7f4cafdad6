// Hand-written matchers that stand in for RE2 patterns on hot paths: the comment lines of
// output_code.py (source nodes, provenance handles, graph-fragment node lines), the "# File:"
// comments of fx_graph_readable.py and FX value annotations.
//
// Each matcher reproduces its pattern's match and captures exactly, under RE2's semantics
// (leftmost-first: lazy and greedy quantifiers prefer as in Perl, FullMatch anchors both ends),
// but only on "plain" lines: ASCII, no '\n'. There `.` is any byte and `\s` is [\t\n\f\r ]. On
// other input, or where an answer would need more than a single left-to-right scan, a matcher
// answers Unsure and the caller runs the RE2 pattern (kept here as the reference). The two give
// the same results: tests/unit/line_scan_test.cpp checks every matcher against its pattern on
// the comment lines of the fixtures and on mutations of them.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace ilint::scan {

enum class Match { Yes, No, Unsure };

// RE2's \s: [\t\n\f\r ] (no \v).
inline bool re2_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// ASCII and no newline: where `.` matches every byte.
bool plain_line(std::string_view s);

// ^%([A-Za-z_][A-Za-z0-9_]*) : ([A-Za-z_]+)(?: "([^"]*)")?(?:\[num_users=\d+\])? = ([a-z_]+)\[target=(.*?)\]
//   (?:\(args = \((.*)\), kwargs = \{(.*)\}\))?\s*$
extern const char* const kFragmentLinePattern;
struct FragmentLine {
  std::string_view name, type, annotation, op, target, args, kwargs;
};
Match fragment_line(std::string_view s, FragmentLine& out);

// ^Sym\((.*)\)$
extern const char* const kSymPattern;
Match sym_annotation(std::string_view s, std::string_view& inner);

// ^([a-z]+[0-9]*[a-z0-9]*)\[([^\]]*)\](?:\[([^\]]*)\])?(.*)$
extern const char* const kTensorPattern;
struct TensorAnnotation {
  std::string_view dtype, shape, stride, device;
};
Match tensor_annotation(std::string_view s, TensorAnnotation& out);

// ^#\s*(?:Backward of forward node: )?File: (.*?):(\d+) in ([^,]*), code: (.*)$   (the line number read as an int)
extern const char* const kFileCommentPattern;
struct FileComment {
  std::string_view file, function, code;
  int line = 0;
};
Match file_comment(std::string_view s, FileComment& out);

// ^#\s*Topologically Sorted Source Nodes: \[(.*?)\](?:, Original ATen: \[(.*)\])?\s*$
extern const char* const kSourceNodesPattern;
Match source_nodes(std::string_view s, std::string_view& nodes, std::string_view& aten);

// ^#\s*\[Provenance debug handles\]\s*(.*?)\s*$
extern const char* const kProvenanceHandlePattern;
Match provenance_handle(std::string_view s, std::string_view& handle);

// %([A-Za-z_][A-Za-z0-9_]*), found and consumed repeatedly (RE2::FindAndConsume): the next
// reference in `in`, which is advanced past it. False when there is none. Plain text only.
extern const char* const kFragmentRefPattern;
bool next_fragment_ref(std::string_view& in, std::string_view& name);

// The head of fx_graph_runnable.py, a whole text (not one line):
// (?m)^torch\.(_inductor|_dynamo|_functorch)\.config\.([A-Za-z0-9_.]+) = (.*)$, found and consumed
// repeatedly (RE2::FindAndConsume): every config line, in order. Unsure when a line that starts
// like one is not plain.
extern const char* const kRunnableConfigPattern;
struct ConfigLine {
  std::string_view module, key, value;  // module as captured: "_inductor"
};
Match runnable_config(std::string_view text, std::vector<ConfigLine>& out);

// (?m)^# torch version: (\S+), the first match in a whole text (RE2::PartialMatch).
extern const char* const kTorchVersionPattern;
Match torch_version(std::string_view text, std::string_view& version);

// Strict JSON (what nlohmann::json::sax_parse with strict=true accepts) restricted to objects,
// arrays and strings of printable ASCII with no escapes, as the provenance mapping is written:
// Yes with the events delivered in document order, or Unsure (a number, a literal, an escape, a
// control or non-ASCII byte, nesting past 256, or anything not valid JSON) with some events
// perhaps delivered already, and the caller parses the text with nlohmann into a fresh handler.
struct JsonEvents {
  virtual ~JsonEvents() = default;
  virtual void start_object() = 0;
  virtual void end_object() = 0;
  virtual void start_array() = 0;
  virtual void end_array() = 0;
  virtual void key(std::string_view k) = 0;
  virtual void string(std::string_view s) = 0;
  // A number, true, false or null: never from json_strings (it leaves those to nlohmann), only
  // from JsonEventsSax (analyzer/parse/json_events_sax.h).
  virtual void scalar() {}
};
Match json_strings(std::string_view text, JsonEvents& events);

}  // namespace ilint::scan
