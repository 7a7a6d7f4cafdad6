// The FX graph JSON reader (parse_fx_json) on arbitrary bytes, and the provenance mapping's
// JSON scanner (scan::json_strings) against nlohmann's strict parse on the same bytes: where
// the scanner answers, nlohmann must accept the text with the same events.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/parse/fx_json.h"
#include "analyzer/parse/line_scan.h"
#include "fuzz_util.h"

namespace {

struct Recorded : ilint::scan::JsonEvents {
  std::vector<std::string> events;
  void start_object() override { events.push_back("{"); }
  void end_object() override { events.push_back("}"); }
  void start_array() override { events.push_back("["); }
  void end_array() override { events.push_back("]"); }
  void key(std::string_view k) override { events.push_back("k " + std::string(k)); }
  void string(std::string_view s) override { events.push_back("s " + std::string(s)); }
};

struct RecordedSax : nlohmann::json_sax<nlohmann::json> {
  Recorded r;
  bool start_object(std::size_t) override { return r.start_object(), true; }
  bool end_object() override { return r.end_object(), true; }
  bool start_array(std::size_t) override { return r.start_array(), true; }
  bool end_array() override { return r.end_array(), true; }
  bool key(string_t& k) override { return r.key(k), true; }
  bool string(string_t& s) override { return r.string(s), true; }
  bool null() override { return r.events.push_back("null"), true; }
  bool boolean(bool) override { return r.events.push_back("bool"), true; }
  bool number_integer(number_integer_t) override { return r.events.push_back("int"), true; }
  bool number_unsigned(number_unsigned_t) override { return r.events.push_back("uint"), true; }
  bool number_float(number_float_t, const string_t&) override { return r.events.push_back("float"), true; }
  bool binary(binary_t&) override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  ilint::DiagSink diags;
  ilint::FxGraph g;
  std::string version;
  ilint::parse_fx_json("fuzz/graph.json", text, g, version, diags);
  for (const auto& [name, i] : g.index)
    if (i >= g.nodes.size()) ilint::fuzz::fail("node index out of range");

  Recorded fast;
  if (ilint::scan::json_strings(text, fast) == ilint::scan::Match::Yes) {
    RecordedSax slow;
    if (!nlohmann::json::sax_parse(text, &slow, nlohmann::json::input_format_t::json, true))
      ilint::fuzz::fail("json_strings accepted what nlohmann rejects");
    if (slow.r.events != fast.events) ilint::fuzz::fail("json_strings events differ from nlohmann's");
  }
  return 0;
}
