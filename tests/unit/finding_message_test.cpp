// A finding's message is a headline (analyzer/findings.h, kHeadlineMaxBytes): on every capture of the
// fixtures, every finding of every rule has a non-empty one-line message of at most that many bytes,
// and the detail behind it (kernel, nodes, values, bounds) in its notes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "analyzer/report/html.h"
#include "analyzer/report/json.h"
#include "analyzer/report/text.h"
#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {

// Every capture: each folder under fixtures/ (s1_cuda_limit holds logs only, no torch_compile_debug/)
// and each capture of the compressed sets, fixtures/versions/ and fixtures/forms/, as the build
// unpacked them (their folders under fixtures/ hold only the archives).
std::vector<fs::path> every_capture() {
  const fs::path fixtures(ILINT_FIXTURES_DIR);
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fixtures))
    if (e.is_directory() && e.path() != fixtures / "versions" && e.path() != fixtures / "forms") out.push_back(e.path());
  for (const char* set : {ILINT_VERSION_FIXTURES_DIR, ILINT_FORMS_FIXTURES_DIR})
    for (const auto& archive : fs::directory_iterator(set))
      if (archive.is_directory())
        for (const auto& c : fs::directory_iterator(archive.path()))
          if (c.is_directory()) out.push_back(c.path());
  std::sort(out.begin(), out.end());
  return out;
}

bool names_kernel(const Finding& f) {
  if (message_and_notes(f).find(f.kernel) != std::string::npos) return true;
  for (const auto& r : f.related)
    if (r.message.find(f.kernel) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(FindingMessage, EveryFindingOnTheFixturesHasAHeadlineAndNotes) {
  // A kernel name this long does not belong in a headline: the finding's `kernel` field and its
  // notes carry it. Shorter ones (`triton_poi_fused_0`) may stay.
  constexpr size_t kLongKernelName = 40;
  std::map<std::string, size_t> findings_by_rule;
  for (const auto& capture : every_capture()) {
    auto a = run_path(capture.string());
    for (const auto& f : a->findings) {
      const std::string where = capture.filename().string() + " " + f.rule + ": " + f.message;
      ++findings_by_rule[f.rule];
      EXPECT_FALSE(f.message.empty()) << where;
      EXPECT_LE(f.message.size(), kHeadlineMaxBytes) << where;
      EXPECT_EQ(f.message.find('\n'), std::string::npos) << where;
      // Every rule's claim has detail beyond its headline (each message was 270 to 490 bytes
      // before the headlines): the notes hold it.
      EXPECT_FALSE(f.notes.empty()) << where;
      for (const auto& n : f.notes) {
        EXPECT_FALSE(n.empty()) << where;
        EXPECT_EQ(n.find('\n'), std::string::npos) << where << " | " << n;
        EXPECT_NE(n, f.message) << where;
      }
      if (f.kernel.size() >= kLongKernelName) EXPECT_EQ(f.message.find(f.kernel), std::string::npos) << where;
      if (!f.kernel.empty()) EXPECT_TRUE(names_kernel(f)) << where << " | kernel " << f.kernel;
    }
  }
  // Not vacuous: the rules that are not experimental each fire on some real capture (README, "Rules").
  register_all_rules();
  for (const auto& id : RuleRegistry::instance().ids()) {
    auto rule = RuleRegistry::instance().create(id);
    if (rule && !rule->info().experimental) EXPECT_GT(findings_by_rule[id], 0u) << id;
  }
}

TEST(FindingMessage, FitHeadlineShortensOnlyNamesFromTheInput) {
  const std::string name(200, 'n');
  std::string h = fit_headline({"the rule's words `", input_text(name), "` and more of them"});
  EXPECT_LE(h.size(), kHeadlineMaxBytes);
  EXPECT_EQ(h.rfind("the rule's words `n", 0), 0u) << h;
  EXPECT_NE(h.find("n...n"), std::string::npos) << h;
  EXPECT_EQ(h.substr(h.size() - std::string("n` and more of them").size()), "n` and more of them") << h;
  // A headline that fits is the pieces joined, names whole.
  EXPECT_EQ(fit_headline({"a `", input_text("name"), "` b"}), "a `name` b");
  // Elision cuts between UTF-8 characters: every byte sequence stays whole.
  std::string wide;
  for (int i = 0; i < 100; ++i) wide += "\xc3\xa9";  // U+00E9, two bytes each
  h = fit_headline({"x ", input_text(wide), " y"});
  EXPECT_LE(h.size(), kHeadlineMaxBytes);
  size_t dots = h.find("...");
  ASSERT_NE(dots, std::string::npos);
  EXPECT_EQ((dots - 2) % 2, 0u) << h;  // whole characters before the dots
  EXPECT_EQ((h.size() - 2 - (dots + 3)) % 2, 0u) << h;  // and after them
}

TEST(FindingMessage, EveryReportCarriesTheNotes) {
  auto a = run_path(fixture("s2_cuda"));
  ASSERT_FALSE(a->findings.empty());
  std::ostringstream text;
  write_text(*a, TextOptions{}, text);
  const std::string t = text.str();
  const nlohmann::json json = analysis_json(*a);
  const nlohmann::json html = html_report_data(*a, HtmlOptions{});
  size_t from = 0;
  for (size_t i = 0; i < a->findings.size(); ++i) {
    const Finding& f = a->findings[i];
    ASSERT_FALSE(f.notes.empty()) << f.message;
    // Text: the finding's line, then (after the generated line and its caret) one indented note line
    // each, in order, before the related locations.
    size_t at = t.find(" " + f.message + " [" + f.rule + "]\n", from);
    ASSERT_NE(at, std::string::npos) << f.message;
    std::string notes;
    for (const auto& n : f.notes) notes += "  note: " + n + "\n";
    size_t notes_at = t.find(notes, at);
    ASSERT_NE(notes_at, std::string::npos) << t.substr(at, 2000);
    EXPECT_LE(std::count(t.begin() + at, t.begin() + notes_at, '\n'), 3) << t.substr(at, 2000);
    from = notes_at + notes.size();
    if (!f.related.empty()) {
      const std::string next = t.substr(from, t.find('\n', from) - from);
      EXPECT_NE(next.find(": note: " + f.related[0].message), std::string::npos) << next;
    }
    // JSON and the HTML page's data: a `notes` array on the finding.
    EXPECT_EQ(json["findings"][i]["notes"], nlohmann::json(f.notes));
    EXPECT_EQ(html["findings"][i]["notes"], nlohmann::json(f.notes));
  }
}
