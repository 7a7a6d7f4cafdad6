// Members of a JSON object read without surprises: each accessor answers the member's value when
// it is there with the expected type (and, for an int, within int's range), and `fallback`
// otherwise. nlohmann's own `obj.value(key, default)` throws type_error when the member has
// another type (`"rule": 5` in a config, `"allclose": "no"` in recorded confirmation answers:
// each aborted the analyzer) and converts a float to an int with a plain cast, undefined past
// int's range (`"attempt": 4.4e94` in a TORCH_TRACE envelope, found by fuzz_dynamo_logs).
// Readers of documents a user or a tool may have written use these instead.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyzer/util/diag.h"
#include "analyzer/util/text.h"

namespace ilint {

// The member itself, or nullptr (no such member, or `obj` is not an object).
inline const nlohmann::json* json_member(const nlohmann::json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// A JSON integer that fits in an int; nullopt for any other value (a float, even 2.0, included).
inline std::optional<int> json_as_int(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int>::max())) return static_cast<int>(u);
    return std::nullopt;
  }
  if (v.is_number_integer()) {
    int64_t i = v.get<int64_t>();
    if (i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max()) return static_cast<int>(i);
  }
  return std::nullopt;
}

inline bool json_is_int(const nlohmann::json& v) { return json_as_int(v).has_value(); }

inline int json_int(const nlohmann::json& obj, std::string_view key, int fallback) {
  const nlohmann::json* m = json_member(obj, key);
  std::optional<int> v = m ? json_as_int(*m) : std::nullopt;
  return v ? *v : fallback;
}

// Any JSON number (integer or float) as a double.
inline double json_number(const nlohmann::json& obj, std::string_view key, double fallback) {
  const nlohmann::json* m = json_member(obj, key);
  return m && m->is_number() ? m->get<double>() : fallback;
}

inline bool json_bool(const nlohmann::json& obj, std::string_view key, bool fallback) {
  const nlohmann::json* m = json_member(obj, key);
  return m && m->is_boolean() ? m->get<bool>() : fallback;
}

inline std::string json_string(const nlohmann::json& obj, std::string_view key, std::string fallback = {}) {
  const nlohmann::json* m = json_member(obj, key);
  return m && m->is_string() ? m->get<std::string>() : fallback;
}

// Whether the member is there with a type other than `is` checks for: what a reader reports
// before falling back (a config entry whose "rule" is a number is a mistake worth naming). `is`:
// json_is_int, or a test of nlohmann's own (&nlohmann::json::is_string).
template <class Is>
bool json_member_mistyped(const nlohmann::json& obj, std::string_view key, Is is) {
  const nlohmann::json* m = json_member(obj, key);
  return m && !std::invoke(is, *m);
}

// The line of `text` a failed nlohmann::json::parse points at. A syntax error (parse_error) gives
// its byte; a number past double's range (out_of_range 406, "number overflow parsing '1e999'",
// which is not a parse_error: catching only parse_error let it abort the analyzer) gives none,
// so the number it quotes is looked up in the text. 1 when neither says.
inline int json_error_line(const std::string& text, const nlohmann::json::exception& e) {
  size_t at = std::string::npos;
  if (const auto* pe = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
    at = pe->byte > 0 ? pe->byte - 1 : 0;
  } else {
    std::string_view what = e.what();
    size_t open = what.find('\''), close = what.rfind('\'');
    if (open != std::string_view::npos && close > open + 1) at = text.find(what.substr(open + 1, close - open - 1));
  }
  return at == std::string::npos ? 1 : line_of_offset(text, at);
}

// Parses a whole document a user or a tool wrote (a config, a baseline, recorded confirmation
// results) into `out`. When it is not JSON: false, and one error under `code` at the line the
// parser stopped, `message_prefix` followed by nlohmann's message.
inline bool parse_json_document(const std::string& path, const std::string& text, const std::string& code,
                                const std::string& message_prefix, DiagSink& diags, nlohmann::json& out) {
  try {
    out = nlohmann::json::parse(text);
    return true;
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for `1e999`
    diags.error(code, message_prefix + e.what(), SourceLoc{path, json_error_line(text, e), 0});
    return false;
  }
}

}  // namespace ilint
