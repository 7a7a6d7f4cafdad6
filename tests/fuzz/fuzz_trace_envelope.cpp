// One TORCH_TRACE envelope's JSON text, skimmed (skim_trace_envelope, over json_object_members)
// against nlohmann's parse of the same bytes: where the skimmer answers, nlohmann must accept
// the text, and the envelope kept (event name, context keys, body fields, types included) and
// every member found must be the same.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/dynamo/trace_envelope.h"
#include "analyzer/parse/json_skim.h"
#include "fuzz_util.h"
#include "tests/json_compare.h"

using ilint::testing::same_json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json dom;
  bool parsed = true;
  try {
    dom = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    parsed = false;
  }

  std::vector<ilint::scan::JsonMember> members, children;
  if (ilint::scan::json_object_members(text, members, &children) == ilint::scan::Match::Yes) {
    if (!parsed || !dom.is_object()) ilint::fuzz::fail("json_object_members accepted what nlohmann rejects");
    for (size_t i = 0; i < members.size(); ++i) {
      const auto& m = members[i];
      bool last = true;
      for (size_t k = i + 1; k < members.size(); ++k) last = last && members[k].key != m.key;
      const std::string key(m.key);
      if (!dom.contains(key)) ilint::fuzz::fail("a member nlohmann does not have");
      if (!last) continue;
      if (!same_json(nlohmann::json::parse(m.value.text), dom[key])) ilint::fuzz::fail("a member's value differs");
      if (m.value.type == ilint::scan::JsonType::String &&
          ilint::scan::json_string_value(m.value.text) != dom[key].get<std::string>())
        ilint::fuzz::fail("a decoded string differs from nlohmann's");
      if (int64_t v; m.value.type == ilint::scan::JsonType::Number && ilint::scan::json_small_integer(m.value.text, v))
        if (!dom[key].is_number_integer() || dom[key].get<int64_t>() != v) ilint::fuzz::fail("an integer differs");
    }
    for (const auto& c : children) {
      if (c.parent < 0 || c.parent >= static_cast<int>(members.size())) ilint::fuzz::fail("a child without a parent");
      const auto& p = members[c.parent];
      if (p.value.type != ilint::scan::JsonType::Object) ilint::fuzz::fail("a child of a value that is no object");
      if (!nlohmann::json::parse(p.value.text).contains(std::string(c.key))) ilint::fuzz::fail("a child nlohmann lacks");
    }
  }

  ilint::dynamo::TraceEnvelope fast, slow;
  if (ilint::dynamo::skim_trace_envelope(text, fast)) {
    if (!parsed || !dom.is_object()) ilint::fuzz::fail("skim_trace_envelope accepted what nlohmann rejects");
    ilint::dynamo::parse_trace_envelope(text, slow);
    if (fast.kind != slow.kind) ilint::fuzz::fail("event names differ");
    if (!same_json(fast.fields, slow.fields)) ilint::fuzz::fail("kept envelopes differ");
  }
  return 0;
}
