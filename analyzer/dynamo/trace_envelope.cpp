#include "analyzer/dynamo/trace_envelope.h"

#include <initializer_list>
#include <utility>
#include <vector>

#include "analyzer/parse/json_skim.h"

namespace ilint::dynamo {

namespace {

// What TraceReader::handle() (trace_log.cpp) reads of each event's body: keep the two in step. A
// field missing here is missing from both reads alike, so the fixture tests of the reader see it.
struct BodyFields {
  std::string_view kind;
  std::initializer_list<std::string_view> fields;
};
const BodyFields kTraceBodyFields[] = {
    {"str", {"*"}},
    {"dynamo_start", {"stack"}},
    {"compilation_metrics",
     {"co_name", "co_filename", "co_firstlineno", "restart_reasons", "dynamo_config", "fail_reason"}},
    {"artifact", {"name"}},
    {"create_symbol", {"symbol", "val", "source"}},
    {"create_unbacked_symbol", {"symbol", "val", "source"}},
    {"symbolic_shape_specialization", {"symbol", "value"}},
    {"guard_added_fast", {"expr"}},
    {"guard_added", {"expr"}},
};

// The fields read of a kind's body (none for a kind not listed).
std::initializer_list<std::string_view> body_fields(std::string_view kind) {
  for (const auto& b : kTraceBodyFields)
    if (b.kind == kind) return b.fields;
  return {};
}

bool listed(std::initializer_list<std::string_view> fields, std::string_view f) {
  for (std::string_view x : fields)
    if (x == f) return true;
  return false;
}

// The envelope keys that give an event its context rather than its name; the reader reads the
// first four.
constexpr std::string_view kContextKeys[] = {"frame_id", "frame_compile_id", "attempt", "has_payload",
                                             "rank",     "stack",            "compiled_autograd_id"};
constexpr size_t kReadContextKeys = 4;

bool is_context_key(std::string_view k) {
  for (std::string_view c : kContextKeys)
    if (c == k) return true;
  return false;
}
bool is_read_context_key(std::string_view k) {
  for (size_t i = 0; i < kReadContextKeys; ++i)
    if (kContextKeys[i] == k) return true;
  return false;
}

// A value the skimmer found, as nlohmann would have built it. Strings, small integers and
// literals are built here; the rest (objects, arrays, other numbers) are short where the reader
// keeps them, and nlohmann parses their span.
nlohmann::json span_value(const scan::JsonSpan& v) {
  switch (v.type) {
    case scan::JsonType::String:
      return scan::json_string_value(v.text);
    case scan::JsonType::Literal:
      if (v.text == "true") return true;
      if (v.text == "false") return false;
      return nullptr;
    case scan::JsonType::Number: {
      int64_t x;
      // nlohmann reads an integer as number_unsigned unless it has a minus sign ("-0" too).
      if (scan::json_small_integer(v.text, x))
        return v.text[0] == '-' ? nlohmann::json(x) : nlohmann::json(static_cast<uint64_t>(x));
      break;
    }
    default:
      break;
  }
  return nlohmann::json::parse(v.text);
}

}  // namespace

bool trace_body_field(std::string_view kind, std::string_view field) { return listed(body_fields(kind), field); }

bool skim_trace_envelope(std::string_view text, TraceEnvelope& out) {
  // Reused: a trace has hundreds of envelopes.
  thread_local std::vector<scan::JsonMember> members, children;
  if (scan::json_object_members(text, members, &children) != scan::Match::Yes) return false;
  // The event: the smallest key that is not a context key, its last occurrence.
  const scan::JsonMember* body = nullptr;
  for (const auto& m : members)
    if (!is_context_key(m.key) && (!body || m.key <= body->key)) body = &m;
  out.kind = body ? std::string(body->key) : std::string();
  out.fields = nlohmann::json::object();
  try {
    for (const auto& m : members)
      if (is_read_context_key(m.key)) out.fields[std::string(m.key)] = span_value(m.value);
    if (out.kind.empty()) return true;  // no event (an empty key names none either)
    const auto fields = body_fields(out.kind);
    if (listed(fields, "*") || body->value.type != scan::JsonType::Object) {
      out.fields[out.kind] = span_value(body->value);
      return true;
    }
    nlohmann::json kept = nlohmann::json::object();
    const int body_index = static_cast<int>(body - members.data());
    for (const auto& m : children)
      if (m.parent == body_index && listed(fields, m.key)) kept[std::string(m.key)] = span_value(m.value);
    out.fields[out.kind] = std::move(kept);
  } catch (const std::exception&) {
    return false;  // a value the skimmer let through and nlohmann did not: nlohmann's parse says why
  }
  return true;
}

void parse_trace_envelope(std::string_view text, TraceEnvelope& out) {
  nlohmann::json dom = nlohmann::json::parse(text);
  out.kind.clear();
  if (!dom.is_object()) {
    out.fields = std::move(dom);
    return;
  }
  for (auto it = dom.begin(); it != dom.end(); ++it)
    if (!is_context_key(it.key())) {
      out.kind = it.key();
      break;
    }
  out.fields = nlohmann::json::object();
  for (size_t i = 0; i < kReadContextKeys; ++i) {
    const std::string k(kContextKeys[i]);
    auto it = dom.find(k);
    if (it != dom.end()) out.fields[k] = std::move(*it);
  }
  if (out.kind.empty()) return;
  nlohmann::json& body = dom[out.kind];
  const auto fields = body_fields(out.kind);
  if (listed(fields, "*") || !body.is_object()) {
    out.fields[out.kind] = std::move(body);
    return;
  }
  nlohmann::json kept = nlohmann::json::object();
  for (auto it = body.begin(); it != body.end(); ++it)
    if (listed(fields, it.key())) kept[it.key()] = std::move(it.value());
  out.fields[out.kind] = std::move(kept);
}

}  // namespace ilint::dynamo
