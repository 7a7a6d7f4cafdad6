// The files a user or a tool writes for inductor-lint, on arbitrary bytes: a config
// (.inductor-lint.json), a baseline (--baseline) and recorded confirmation answers
// (--confirm-results, tests/gpu/results/). Each is read without throwing (nlohmann's value()
// and get() throw on a member of another type: five such inputs aborted the analyzer), and the
// findings they change render in every report format. Seeds: the recorded answers of
// tests/gpu/results/, and a config and a baseline (make_seeds.py).
#include <cstdint>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/config/config.h"
#include "analyzer/confirm/confirm.h"
#include "analyzer/report/baseline.h"
#include "analyzer/report/html.h"
#include "analyzer/report/json.h"
#include "analyzer/report/sarif.h"
#include "analyzer/report/text.h"
#include "analyzer/report/rule_docs.h"
#include "fuzz_util.h"

namespace {

// Two findings for the files to apply to: fingerprints "f1" and "f2" (the seeds use them).
std::vector<ilint::Finding> sample_findings() {
  std::vector<ilint::Finding> fs(2);
  for (int i = 0; i < 2; ++i) {
    ilint::Finding& f = fs[i];
    f.rule = i == 0 ? "stale-scalar" : "reduced-precision-scan";
    f.message = "sample";
    f.location = ilint::SourceLoc{"run/torchinductor/model__0_forward_1.0/output_code.py", 40 + i, 5};
    f.related.push_back({ilint::SourceLoc{"train.py", 12 + i, 1}, "user source"});
    f.compile_id = "model__0_forward_1.0";
    f.fingerprint = i == 0 ? "f1" : "f2";
  }
  return fs;
}

void render(const ilint::Analysis& a) {
  std::ostringstream out;
  ilint::write_text(a, ilint::TextOptions{}, out);
  ilint::write_json(a, out);
  ilint::write_sarif(a, ilint::rule_catalog(), out);
  ilint::HtmlOptions html;
  html.read_user_sources = false;
  ilint::write_html(a, out, html);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ilint::DiagSink diags;

  ilint::Config config = ilint::parse_config("fuzz/.inductor-lint.json", text, diags);
  if (config.ok) {
    ilint::Analysis a;
    a.findings = sample_findings();
    ilint::AnalyzeOptions opts;
    ilint::apply_config_to_options(config, opts);
    (void)ilint::apply_config_to_findings(config, a.findings);
    render(a);
  }

  ilint::Baseline baseline = ilint::parse_baseline("fuzz/baseline.json", text, diags);
  if (baseline.ok) (void)ilint::filter_new(sample_findings(), baseline);

  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_discarded()) {
    // As --confirm-results reads it (a list of answers, or {"results": [...]}), and as one answer.
    ilint::Analysis a;
    a.findings = sample_findings();
    ilint::attach_recorded(a, doc, a.diags);
    (void)ilint::recompute_graph_verdict(doc);
    ilint::attach_confirmation(a.findings[1], doc);
    render(a);
  }
  return 0;
}
