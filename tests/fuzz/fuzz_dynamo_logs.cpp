// The whole-file Dynamo log readers: TORCH_LOGS text (read_torch_logs) and the TORCH_TRACE
// structured log (read_trace_log). They take a path, so each input is written to a private
// temporary file first.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "analyzer/dynamo/readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/ilint-fuzz-log-" + std::to_string(getpid()) + ".log";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  ilint::DiagSink diags;
  ilint::dynamo::LogFacts text_facts, trace_facts;
  ilint::dynamo::read_torch_logs(path, text_facts, diags);
  ilint::dynamo::read_trace_log(path, trace_facts, diags);
  (void)diags.sorted();
  return 0;
}
