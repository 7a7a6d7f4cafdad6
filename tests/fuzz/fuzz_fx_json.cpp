// The FX graph JSON reader (parse_fx_json) on arbitrary bytes, and the provenance mapping's
// JSON scanner (scan::json_strings) against nlohmann's strict parse on the same bytes: where
// the scanner answers, nlohmann must accept the text with the same events.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/parse/fx_json.h"
#include "analyzer/parse/line_scan.h"
#include "fuzz_util.h"
#include "tests/json_events_recorder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  ilint::DiagSink diags;
  ilint::FxGraph g;
  std::string version;
  ilint::parse_fx_json("fuzz/graph.json", text, g, version, diags);
  ilint::fuzz::check_fx_index(g);

  ilint::testing::RecordedJson fast;
  if (ilint::scan::json_strings(text, fast) == ilint::scan::Match::Yes) {
    ilint::testing::RecordedJson slow;
    ilint::JsonEventsSax sax(slow);
    if (!nlohmann::json::sax_parse(text, &sax, nlohmann::json::input_format_t::json, true))
      ilint::fuzz::fail("json_strings accepted what nlohmann rejects");
    if (slow.events != fast.events) ilint::fuzz::fail("json_strings events differ from nlohmann's");
  }
  return 0;
}
