// The FX text readers: print_readable modules (parse_fx_readable, both ways: where its line
// reader takes the input, the graph and diagnostics must be the parser's) and, line by line, graph
// fragment node lines (parse_graph_fragment_line), value annotations (parse_value_annotation)
// and node references (collect_fragment_refs).
#include <cstdint>

#include "analyzer/parse/fx_text.h"
#include "fuzz_util.h"
#include "tests/fx_graph_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  ilint::DiagSink diags;
  ilint::FxGraph g;
  bool ok = ilint::parse_fx_readable("fuzz/fx_graph_readable.py", text, g, diags);
  ilint::fuzz::check_fx_index(g);
  if (ilint::fx_readable_scans(text)) {
    ilint::DiagSink parsed_diags;
    ilint::FxGraph parsed;
    bool parsed_ok =
        ilint::parse_fx_readable("fuzz/fx_graph_readable.py", text, parsed, parsed_diags, ilint::FxReadableRead::Parse);
    if (ok != parsed_ok ||
        ilint::testing::describe_fx(g, diags) != ilint::testing::describe_fx(parsed, parsed_diags))
      ilint::fuzz::fail("the line reader and the parser read this module differently");
  }
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    size_t lead = line.find_first_not_of("# ");
    std::string body = lead == std::string::npos ? "" : line.substr(lead);
    ilint::FxNode n;
    (void)ilint::parse_graph_fragment_line(body, n);
    ilint::ValueKind k;
    (void)ilint::parse_value_annotation(body, k);
    std::vector<ilint::IString> refs;
    ilint::collect_fragment_refs(body, refs);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return 0;
}
