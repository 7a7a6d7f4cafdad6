// JSON read two ways, compared with nlohmann's parse of the same text: the skimmer's members
// (analyzer/parse/json_skim.h) and the TORCH_TRACE envelopes kept through it
// (analyzer/dynamo/trace_envelope.h). Shared by the unit tests and the fuzz targets: each
// function answers with the first difference it finds, "" when there is none.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/dynamo/trace_envelope.h"
#include "analyzer/parse/json_skim.h"

namespace ilint::testing {

// Same type and value all the way down (nlohmann's own == calls 1u and 1 equal).
inline bool same_json(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto jt = b.find(it.key());
      if (jt == b.end() || !same_json(*it, *jt)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!same_json(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

// nlohmann's parse of `text`, or false when it rejects it.
inline bool nlohmann_reads(std::string_view text, nlohmann::json& dom) {
  try {
    dom = nlohmann::json::parse(text);
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

// scan::json_object_members on `text`; `skimmed` says whether it answered Yes. Where it did,
// nlohmann must read an object with those members: each key, the last of a repeated key with the
// same value (types included: a small integer nlohmann's integer, a string decoded alike), and
// each member's object members as children.
inline std::string json_members_difference(std::string_view text, bool& skimmed) {
  using scan::JsonType;
  std::vector<scan::JsonMember> members, children;
  skimmed = scan::json_object_members(text, members, &children) == scan::Match::Yes;
  if (!skimmed) return "";
  nlohmann::json dom;
  if (!nlohmann_reads(text, dom) || !dom.is_object()) return "json_object_members accepted what nlohmann rejects";
  for (size_t i = 0; i < members.size(); ++i) {
    const auto& m = members[i];
    const std::string key(m.key);
    if (!dom.contains(key)) return "a member nlohmann does not have: " + key;
    bool last = true;  // nlohmann keeps the last of a repeated key: compare that one
    for (size_t k = i + 1; k < members.size(); ++k) last = last && members[k].key != m.key;
    if (!last) continue;
    const nlohmann::json& want = dom[key];
    if (!same_json(nlohmann::json::parse(m.value.text), want)) return "a member's value differs: " + key;
    if ((m.value.type == JsonType::Object) != want.is_object() || (m.value.type == JsonType::Array) != want.is_array() ||
        (m.value.type == JsonType::String) != want.is_string() || (m.value.type == JsonType::Number) != want.is_number())
      return "a member's type differs: " + key;
    if (m.value.type == JsonType::String && scan::json_string_value(m.value.text) != want.get<std::string>())
      return "a decoded string differs from nlohmann's: " + key;
    if (int64_t v; m.value.type == JsonType::Number && scan::json_small_integer(m.value.text, v))
      if (!want.is_number_integer() || want.get<int64_t>() != v) return "an integer differs: " + key;
    if (!want.is_object()) continue;
    size_t n = 0;
    for (const auto& c : children) n += c.parent == static_cast<int>(i);
    if (n < want.size()) return "children missing under " + key;  // repeated keys count as often as they appear
  }
  for (const auto& c : children) {
    if (c.parent < 0 || c.parent >= static_cast<int>(members.size())) return "a child without a parent";
    const auto& p = members[c.parent];
    if (p.value.type != JsonType::Object) return "a child of a value that is no object";
    if (!nlohmann::json::parse(p.value.text).contains(std::string(c.key))) return "a child nlohmann lacks";
    if (c.value.type == JsonType::String &&
        scan::json_string_value(c.value.text) != nlohmann::json::parse(c.value.text).get<std::string>())
      return "a child's decoded string differs from nlohmann's";
  }
  return "";
}

// skim_trace_envelope on `text`; `skimmed` says whether it took it. Where it did, nlohmann must
// accept the text and parse_trace_envelope keep the same event name and fields, types included.
inline std::string envelope_difference(std::string_view text, bool& skimmed) {
  dynamo::TraceEnvelope fast, slow;
  skimmed = dynamo::skim_trace_envelope(text, fast);
  if (!skimmed) return "";
  try {
    dynamo::parse_trace_envelope(text, slow);
  } catch (const nlohmann::json::exception& e) {
    return std::string("skimmed what nlohmann rejects (") + e.what() + ")";
  }
  if (!slow.fields.is_object()) return "skimmed what is no object";
  if (fast.kind != slow.kind) return "event names differ: " + fast.kind + " / " + slow.kind;
  if (!same_json(fast.fields, slow.fields)) return "kept envelopes differ: " + fast.fields.dump() + " / " + slow.fields.dump();
  return "";
}

}  // namespace ilint::testing
