// The whole-file Dynamo log readers: TORCH_LOGS text (read_torch_logs) and the TORCH_TRACE
// structured log (read_trace_log), the latter with its envelopes skimmed and parsed whole: both
// must find the same facts and say the same. They take a path, so each input is written to a
// private temporary file first.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "analyzer/dynamo/readers.h"
#include "fuzz_util.h"
#include "tests/log_facts_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/ilint-fuzz-log-" + std::to_string(getpid()) + ".log";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  ilint::DiagSink diags, skimmed_diags, parsed_diags;
  ilint::dynamo::LogFacts text_facts, skimmed, parsed;
  ilint::dynamo::read_torch_logs(path, text_facts, diags);
  (void)diags.sorted();
  ilint::dynamo::read_trace_log(path, skimmed, skimmed_diags, /*skim_envelopes=*/true);
  ilint::dynamo::read_trace_log(path, parsed, parsed_diags, /*skim_envelopes=*/false);
  if (ilint::testing::describe_log_facts(skimmed, skimmed_diags) !=
      ilint::testing::describe_log_facts(parsed, parsed_diags))
    ilint::fuzz::fail("the trace read differs with and without the envelope skimmer");
  return 0;
}
