// A strict JSON recognizer that finds values without building them, for readers that want a few
// fields of a large document: a TORCH_TRACE envelope of `compilation_metrics` carries ~30 KB of
// configuration of which the analyzer reads six fields, and a trace has hundreds of envelopes the
// analyzer reads nothing of but whether they are valid JSON. Building each as a DOM (nlohmann)
// was 57% of a small capture's instructions.
//
// It accepts exactly what nlohmann::json::parse accepts (strict: one value, whitespace around it)
// or answers Unsure, never No: the caller then parses the text with nlohmann, which says what is
// wrong. Unsure also covers what is valid but left to nlohmann: a key with an escape, nesting
// deeper than 512. tests/unit/json_skim_test.cpp and tests/fuzz/fuzz_trace_envelope.cpp check it
// against nlohmann.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/parse/line_scan.h"

namespace ilint::scan {

enum class JsonType : uint8_t { Object, Array, String, Number, Literal };

// One value's bytes as they stand in the text (a string with its quotes).
struct JsonSpan {
  JsonType type = JsonType::Literal;
  std::string_view text;
};

// One member of an object: its key (no quotes; keys with escapes are left to nlohmann, so this
// is also the key's value) and its value.
struct JsonMember {
  std::string_view key;
  JsonSpan value;
  int parent = -1;  // for `children` below: the index in `members` of the member this one is in
};

// `text` must be one JSON object. Yes: its top-level members in document order, duplicates
// included (nlohmann keeps the last of a key). Every nested value has been checked too. With
// `children`, also the members of each member whose value is an object, in one scan (a key with
// an escape among them is also left to nlohmann).
Match json_object_members(std::string_view text, std::vector<JsonMember>& members,
                          std::vector<JsonMember>* children = nullptr);

// The value of a string span that json_object_members returned, escapes decoded as nlohmann
// decodes them (\uXXXX and surrogate pairs to UTF-8).
std::string json_string_value(std::string_view quoted);

// The value of a number span when it is an integer of at most 18 digits (what nlohmann reads as
// number_unsigned when not negative, number_integer when negative); false for any other number.
bool json_small_integer(std::string_view number, int64_t& value);

}  // namespace ilint::scan
