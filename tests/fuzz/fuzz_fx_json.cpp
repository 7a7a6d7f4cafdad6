// The FX graph JSON reader (parse_fx_json) on arbitrary bytes.
#include <cstdint>

#include "analyzer/parse/fx_json.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  ilint::DiagSink diags;
  ilint::FxGraph g;
  std::string version;
  ilint::parse_fx_json("fuzz/graph.json", text, g, version, diags);
  for (const auto& [name, i] : g.index)
    if (i >= g.nodes.size()) ilint::fuzz::fail("node index out of range");
  return 0;
}
