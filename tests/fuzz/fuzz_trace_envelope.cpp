// One TORCH_TRACE envelope's JSON text, skimmed (skim_trace_envelope, over json_object_members)
// against nlohmann's parse of the same bytes: where the skimmer answers, nlohmann must accept
// the text, and the envelope kept (event name, context keys, body fields, types included) and
// every member found must be the same (tests/json_compare.h, shared with the unit tests).
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "tests/json_compare.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // nlohmann parses every input, skimmed or not: its coverage steers the fuzzer towards JSON.
  nlohmann::json dom;
  (void)ilint::testing::nlohmann_reads(text, dom);
  bool skimmed = false;
  std::string diff = ilint::testing::json_members_difference(text, skimmed);
  if (diff.empty()) diff = ilint::testing::envelope_difference(text, skimmed);
  if (!diff.empty()) ilint::fuzz::fail(diff.c_str());
  return 0;
}
