// One TORCH_TRACE envelope (`{"compilation_metrics": {...}, "frame_id": 0, ..., "has_payload": "md5"}`)
// as the trace reader keeps it: the event's name, the context keys it reads, and the event's body
// pruned to the fields it reads (kTraceBodyFields). Two ways to the same result:
// skim_trace_envelope() finds those values without building the rest (analyzer/parse/json_skim.h)
// and answers false where it is unsure; parse_trace_envelope() parses the whole text with nlohmann
// and prunes it. A trace's envelopes are ~20% of its bytes and were the reader's main cost.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ilint::dynamo {

struct TraceEnvelope {
  // The event's name: the envelope's first key in sorted order (nlohmann's std::map order) that
  // is not a context key; empty when there is none.
  std::string kind;
  // An object holding what the reader reads: frame_id, frame_compile_id, attempt and has_payload
  // where present, and `kind` with its body (an object body cut to the event's fields in
  // kTraceBodyFields; any other body whole). The last of a repeated key, as nlohmann keeps it.
  nlohmann::json fields;
};

// The fields the trace reader reads of each event's body, by event name; a kind not listed reads
// none. "*" reads the whole body.
bool trace_body_field(std::string_view kind, std::string_view field);

// The text after the glog prefix. False when unsure (not valid JSON, not an object, or valid in a
// way left to nlohmann); `out` is then unspecified.
bool skim_trace_envelope(std::string_view text, TraceEnvelope& out);

// The same from nlohmann's parse of the whole text. Throws nlohmann::json::parse_error where the
// text is not JSON; `out.fields` is not an object when the text is not one.
void parse_trace_envelope(std::string_view text, TraceEnvelope& out);

}  // namespace ilint::dynamo
