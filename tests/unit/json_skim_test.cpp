// The JSON skimmer (analyzer/parse/json_skim.h) and the TORCH_TRACE envelopes read through it
// (analyzer/dynamo/trace_envelope.h) against nlohmann's parse of the same text: on every envelope
// of the fixtures, on hand cases and on random edits. Then the trace reader with and without the
// skimmer, and across the read buffer's block boundaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/dynamo/log_line.h"
#include "analyzer/dynamo/readers.h"
#include "analyzer/dynamo/trace_envelope.h"
#include "analyzer/parse/json_skim.h"
#include "tests/json_compare.h"
#include "tests/log_facts_text.h"
#include "tests/unit/test_util.h"

namespace fs = std::filesystem;
using namespace ilint;
using nlohmann::json;

namespace {

std::vector<std::string> fixture_traces() {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(ILINT_FIXTURES_DIR))
    if (e.is_regular_file() && e.path().parent_path().filename() == "trace" && e.path().extension() == ".log")
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The JSON text of every envelope line of every fixture trace.
const std::vector<std::string>& fixture_envelopes() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out;
    for (const auto& path : fixture_traces()) {
      std::istringstream in(ilint::testing::read_all(path));
      std::string line;
      while (std::getline(in, line))
        if (auto rest = dynamo::glog_rest(line); rest && !rest->empty() && (*rest)[0] == '{') out.emplace_back(*rest);
    }
    return out;
  }();
  return all;
}

// json_object_members against nlohmann on `text` (tests/json_compare.h); true when it answered Yes.
bool members_match_nlohmann(std::string_view text) {
  bool skimmed = false;
  EXPECT_EQ(ilint::testing::json_members_difference(text, skimmed), "") << text.substr(0, 300);
  return skimmed;
}

// One envelope text both ways (tests/json_compare.h). Returns true when the skimmer took it.
bool envelope_same_both_ways(std::string_view text) {
  bool skimmed = false;
  EXPECT_EQ(ilint::testing::envelope_difference(text, skimmed), "") << text.substr(0, 300);
  return skimmed;
}

std::string read_facts(const std::string& path, bool skim) {
  dynamo::LogFacts facts;
  DiagSink diags;
  dynamo::read_trace_log(path, facts, diags, skim);
  return ilint::testing::describe_log_facts(facts, diags);
}

size_t env_count(const char* name, size_t fallback) {
  const char* e = std::getenv(name);
  return e ? std::strtoul(e, nullptr, 10) : fallback;
}

}  // namespace

TEST(JsonSkim, HandCasesAsNlohmannReadsThem) {
  struct Case {
    std::string text;
    bool skimmed;       // the skimmer answers Yes
    bool nlohmann_ok;   // nlohmann::json::parse accepts it
  };
  std::string deep = "{\"a\":" + std::string(600, '[') + std::string(600, ']') + "}";
  const Case cases[] = {
      {"{}", true, true},
      {" \t{ \"a\" : 1 }\r\n", true, true},
      {"{\"a\":-0,\"b\":0,\"c\":-12,\"d\":123456789012345678}", true, true},
      {"{\"a\":1.5e-3,\"b\":[1,2,{\"c\":null}],\"d\":true,\"e\":false,\"f\":1E+2}", true, true},
      {"{\"big\":123456789012345678901234567890,\"x\":1234567890123456789}", true, true},
      {"{\"a\":1e306,\"b\":-9.9e305,\"c\":1e-400,\"d\":0.5E-99999999}", true, true},
      {"{\"a\":1e309}", false, false},  // not finite as a double: nlohmann's "number overflow"
      {"{\"a\":" + std::string(400, '9') + "}", false, false},
      {"{\"a\":1e308}", false, true},   // finite, but left to nlohmann
      {"{\"a\":-17.5e00000000000000000306}", false, true},
      {R"({"s":"\u00e9\ud83d\ude00\u0000\/\b\f\n\r\t\"\\x"})", true, true},
      {"{\"k\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}", true, true},
      {"{\"a\":1,\"a\":{\"b\":2,\"b\":3}}", true, true},
      {"{\"a\":\"\x7f\"}", true, true},
      {"{\"o\":{\"k\":{\"deep\":[{\"x\":\"y\"}]}}}", true, true},
      {"{\"o\":{\"k\":{\"a\\u0062\":1}}}", true, true},  // escapes in keys deeper down are fine...
      {"{\"a\\u0062\":1}", false, true},      // ...at the top they are left to nlohmann
      {"{\"o\":{\"a\\u0062\":1}}", false, true},  // and in a member's object (children)
      {deep, false, true},
      {"{\"a\":01}", false, false},
      {"{\"a\":1.}", false, false},
      {"{\"a\":.5}", false, false},
      {"{\"a\":+1}", false, false},
      {"{\"a\":1e}", false, false},
      {"{\"a\":-}", false, false},
      {"{\"a\":tru}", false, false},
      {"{\"a\":truex}", false, false},
      {"{\"a\":1,}", false, false},
      {"{,}", false, false},
      {"{\"a\" 1}", false, false},
      {"{\"a\":\"\x01\"}", false, false},
      {R"({"a":"\ud800"})", false, false},
      {R"({"a":"\udc00"})", false, false},
      {R"({"a":"\ud800\u0041"})", false, false},
      {R"({"a":"\q"})", false, false},
      {R"({"a":"\u12g4"})", false, false},
      {"{\"a\":\"\xc0\x80\"}", false, false},
      {"{\"a\":\"\xed\xa0\x80\"}", false, false},
      {"{\"a\":\"\xf4\x90\x80\x80\"}", false, false},
      {"{\"a\":\"\xe2\x82\"}", false, false},
      {"{\"a\":1} x", false, false},
      {"{\"a\":1}}", false, false},
      {"[1]", false, true},
      {"{\"a\":[1,2}", false, false},
      {"{\"a\":\"abc", false, false},
      {"", false, false},
      {std::string("{\"a\":1}\0", 8), false, true},  // nlohmann ends its input at a NUL byte
      {std::string("{\"a\":\"\0\"}", 8), false, false},
  };
  for (const auto& c : cases) {
    bool parsed = true;
    try {
      json parsed_value = json::parse(c.text);
      (void)parsed_value;
    } catch (const json::exception&) {
      parsed = false;
    }
    EXPECT_EQ(parsed, c.nlohmann_ok) << c.text;
    EXPECT_EQ(members_match_nlohmann(c.text), c.skimmed) << c.text;
  }
}

TEST(JsonSkim, NumbersAreTypedAsNlohmannTypesThem) {
  dynamo::TraceEnvelope e;
  ASSERT_TRUE(dynamo::skim_trace_envelope(R"({"frame_id": 0, "frame_compile_id": -0, "attempt": 2.0, "x": {}})", e));
  EXPECT_EQ(e.kind, "x");
  EXPECT_TRUE(e.fields["frame_id"].is_number_unsigned());
  EXPECT_TRUE(e.fields["frame_compile_id"].is_number_integer() && !e.fields["frame_compile_id"].is_number_unsigned());
  EXPECT_TRUE(e.fields["attempt"].is_number_float());
}

TEST(JsonSkim, EnvelopeKeepsTheReadFieldsOfTheFirstNonContextKey) {
  dynamo::TraceEnvelope e;
  // Sorted order, not document order, names the event (nlohmann's std::map); the last of a
  // repeated key wins; unread context keys and body fields are dropped.
  std::string text = R"({"rank": 0, "stack": [1], "zeta": {}, "compilation_metrics": {"co_name": "f", )"
                     R"("inductor_config": "{\"huge\": 1}", "co_name": "g", "co_firstlineno": 7}, "frame_id": 3})";
  ASSERT_TRUE(dynamo::skim_trace_envelope(text, e));
  EXPECT_EQ(e.kind, "compilation_metrics");
  EXPECT_EQ(e.fields.dump(), R"({"compilation_metrics":{"co_firstlineno":7,"co_name":"g"},"frame_id":3})");
  EXPECT_TRUE(envelope_same_both_ways(text));
  EXPECT_TRUE(envelope_same_both_ways(R"({"": [1], "frame_id": 1})"));  // no event: the empty key is none
  EXPECT_TRUE(dynamo::trace_body_field("str", "*"));
  EXPECT_FALSE(dynamo::trace_body_field("compilation_metrics", "inductor_config"));
}

TEST(JsonSkim, EveryFixtureEnvelopeIsSkimmedAsNlohmannReadsIt) {
  const auto& all = fixture_envelopes();
  ASSERT_GT(all.size(), 1000u);
  size_t took = 0;
  for (const auto& t : all) {
    took += envelope_same_both_ways(t);
    members_match_nlohmann(t);
    if (HasFailure()) break;
  }
  // The real envelopes have no escaped keys and no deep nesting: all of them are skimmed.
  EXPECT_EQ(took, all.size());
}

// Random edits of real envelopes: where the skimmer answers, nlohmann accepts the text and the
// kept envelope is the same. ILINT_TRACE_MUTANTS sets how many (default 20000).
TEST(JsonSkim, RandomEditsOfEnvelopesReadTheSameEitherWay) {
  const auto& all = fixture_envelopes();
  ASSERT_FALSE(all.empty());
  const size_t count = env_count("ILINT_TRACE_MUTANTS", 20000);
  std::mt19937_64 rng(20261205);
  const std::string alphabet = std::string("{}[]\":,\\ u0123456789abcdefABCDEF-+.eE\t\ntfnrl/") + "\x80\xc3\xa9\x01\x7f";
  size_t took = 0;
  for (size_t i = 0; i < count; ++i) {
    std::string t = all[rng() % all.size()];
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits && !t.empty(); ++k) {
      size_t at = rng() % t.size();
      switch (rng() % 4) {
        case 0: t.erase(at, 1 + rng() % 3); break;
        case 1: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 2: t[at] = alphabet[rng() % alphabet.size()]; break;
        default: t.resize(at); break;  // cut
      }
    }
    took += envelope_same_both_ways(t);
    members_match_nlohmann(t);
    if (HasFailure()) break;
  }
  std::cout << "[ skimmed  ] " << took << " of " << count << " edited envelopes\n";
  EXPECT_GT(took, count / 10);  // the edits leave many valid: the comparison is not vacuous
}

TEST(TraceLogSkim, EveryFixtureTraceReadsTheSameEitherWay) {
  auto traces = fixture_traces();
  ASSERT_GT(traces.size(), 40u);
  for (const auto& p : traces) EXPECT_EQ(read_facts(p, true), read_facts(p, false)) << p;
}

// Whole traces edited (bytes changed, lines cut, repeated or dropped, invalid UTF-8, the file
// cut): the same facts and diagnostics with and without the skimmer. ILINT_TRACE_FILE_MUTANTS
// sets how many (default 200).
TEST(TraceLogSkim, RandomEditsOfTracesReadTheSameEitherWay) {
  auto traces = fixture_traces();
  ASSERT_FALSE(traces.empty());
  ilint::testing::TempDir dir;
  const size_t count = env_count("ILINT_TRACE_FILE_MUTANTS", 200);
  std::mt19937_64 rng(4242);
  const std::string alphabet = std::string("{}[]\":,\\ 0123456789\t\n\r") + "\x80\xff\xc3";
  for (size_t i = 0; i < count; ++i) {
    std::string t = ilint::testing::read_all(traces[rng() % traces.size()]);
    int edits = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < edits && !t.empty(); ++k) {
      size_t at = rng() % t.size();
      size_t b = t.rfind('\n', at);
      b = b == std::string::npos ? 0 : b + 1;
      size_t e = t.find('\n', at);
      e = e == std::string::npos ? t.size() : e + 1;
      switch (rng() % 6) {
        case 0: t.erase(at, 1 + rng() % 4); break;
        case 1: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 2: t[at] = alphabet[rng() % alphabet.size()]; break;
        case 3: t.insert(b, t.substr(b, e - b)); break;
        case 4: t.erase(b, e - b); break;
        default: if (rng() % 4 == 0) t.resize(at); break;
      }
    }
    fs::path p = dir.path / ("t" + std::to_string(i) + ".log");
    ilint::testing::write_all(p, t);
    EXPECT_EQ(read_facts(p.string(), true), read_facts(p.string(), false)) << "mutant " << i;
    fs::remove(p);
    if (HasFailure()) break;
  }
}

// The reader cuts lines from 1 MiB blocks. Spaces added inside the first envelope (valid JSON
// whitespace) move every later byte, so that a block boundary falls inside the payload lines of
// events the reader reads, and past a block (a first line longer than one block): the facts
// and diagnostics stay those of the file as it was.
TEST(TraceLogSkim, BlockBoundariesDoNotChangeTheRead) {
  const std::string path = ilint::testing::fixture("s1_cpu") + "/trace";
  std::string file;
  for (const auto& e : fs::directory_iterator(path)) file = e.path().string();
  ASSERT_FALSE(file.empty());
  const std::string text = ilint::testing::read_all(file);
  size_t brace = text.find("] {");
  ASSERT_NE(brace, std::string::npos);
  brace += 3;  // just inside the first envelope
  const std::string want = read_facts(file, true);
  ASSERT_NE(want.find("hash="), std::string::npos);
  // Offsets in the middle of payload lines of read events (output code, guards, graphs).
  std::vector<size_t> pads = {0, size_t(1) << 20, (size_t(3) << 20) / 2, (size_t(5) << 20) / 2};
  for (const char* kind : {"\"inductor_output_code\"", "\"dynamo_cpp_guards_str\"", "\"dynamo_output_graph\""}) {
    size_t at = text.find(kind);
    ASSERT_NE(at, std::string::npos) << kind;
    size_t payload = text.find("\n\t", at);
    ASSERT_NE(payload, std::string::npos);
    size_t mid = payload + 200;  // inside its payload
    if (mid < (size_t(1) << 20)) pads.push_back((size_t(1) << 20) - mid);
    pads.push_back((size_t(2) << 20) - mid);
  }
  ilint::testing::TempDir dir;
  for (size_t pad : pads) {
    std::string t = text;
    t.insert(brace, pad, ' ');
    fs::path p = dir.path / "padded.log";
    ilint::testing::write_all(p, t);
    std::string got = read_facts(p.string(), true);
    // Only the file name differs.
    size_t k;
    while ((k = got.find(p.string())) != std::string::npos) got.replace(k, p.string().size(), file);
    EXPECT_EQ(got, want) << "padding " << pad;
  }
}
