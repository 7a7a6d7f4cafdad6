// The hand-written matchers of analyzer/parse/line_scan.h against the RE2 patterns they stand in
// for: on every line of every fixture's output_code.py and fx_graph_readable.py (raw, and with
// the comment marker stripped as the readers strip it), and on random mutations of the lines
// each pattern is about. Where a matcher answers, its answer and captures must be RE2's.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "analyzer/ingest/ingest.h"
#include "analyzer/parse/fx_text.h"
#include "analyzer/parse/line_scan.h"
#include "tests/json_events_recorder.h"

namespace fs = std::filesystem;
using namespace ilint;
using scan::Match;

namespace {

std::string_view sv(const re2::StringPiece& p) { return std::string_view(p.data(), p.size()); }

// Distinct lines of the fixtures' Python files, and the same with "#" and spaces stripped.
const std::vector<std::string>& fixture_lines() {
  static const std::vector<std::string> lines = [] {
    std::set<std::string> seen;
    for (const auto& e : fs::recursive_directory_iterator(ILINT_FIXTURES_DIR)) {
      auto n = e.path().filename();
      if (n != "output_code.py" && n != "fx_graph_readable.py") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::string line;
      while (std::getline(in, line)) {
        if (line.size() > 4000) continue;
        seen.insert(line);
        size_t i = line.find_first_not_of(' ');
        if (i != std::string::npos && line[i] == '#') {
          seen.insert(line.substr(i));
          size_t j = line.find_first_not_of(' ', i + 1);
          if (j != std::string::npos) seen.insert(line.substr(j));
        }
      }
    }
    return std::vector<std::string>(seen.begin(), seen.end());
  }();
  return lines;
}

// Lines containing `key`, each followed by `copies` random mutations of it: deletions, insertions
// of bytes that matter to the patterns (brackets, separators, digits, space, newline, non-ASCII),
// duplications and truncations.
std::vector<std::string> cases_for(const std::string& key, int copies) {
  std::vector<std::string> out;
  std::mt19937 rng(12345);
  static const std::string alphabet = "[](){},:% \t\"=_a0123456789#\n\r\f\x0b\xc3\xa9.-";
  for (const auto& line : fixture_lines()) {
    if (line.find(key) == std::string::npos) continue;
    out.push_back(line);
    for (int c = 0; c < copies; ++c) {
      std::string m = line;
      int ops = 1 + static_cast<int>(rng() % 3);
      for (int o = 0; o < ops && !m.empty(); ++o) {
        size_t at = rng() % (m.size() + 1);
        switch (rng() % 5) {
          case 0:
            if (at < m.size()) m.erase(at, 1);
            break;
          case 1:
          case 2:
            m.insert(at, 1, alphabet[rng() % alphabet.size()]);
            break;
          case 3: {
            size_t len = std::min<size_t>(rng() % 12, m.size() - std::min(at, m.size()));
            m.insert(at, m.substr(std::min(at, m.size()), len));
            break;
          }
          default:
            m.resize(at);
        }
      }
      out.push_back(m);
    }
  }
  return out;
}

// The quoted strings of the fixtures' lines (the annotations of node lines and FX graphs),
// appended to `out`.
void append_quoted_strings(std::vector<std::string>& out) {
  for (const auto& line : fixture_lines())
    for (size_t q = line.find('"'); q != std::string::npos; q = line.find('"', q + 1)) {
      size_t e = line.find('"', q + 1);
      if (e == std::string::npos) break;
      out.push_back(line.substr(q + 1, e - q - 1));
      q = e;
    }
}

struct Tally {
  size_t yes = 0, no = 0, unsure = 0;
};

std::ostream& operator<<(std::ostream& os, const Tally& t) {
  return os << t.yes << " matched, " << t.no << " not, " << t.unsure << " left to RE2";
}

}  // namespace

TEST(LineScan, FragmentLineIsTheRegex) {
  RE2 re(scan::kFragmentLinePattern);
  ASSERT_TRUE(re.ok());
  Tally t;
  for (const auto& s : cases_for("%", 30)) {
    scan::FragmentLine f;
    Match m = scan::fragment_line(s, f);
    re2::StringPiece name, type, ann, op, target, args, kwargs;
    bool ok = RE2::FullMatch(s, re, &name, &type, &ann, &op, &target, &args, &kwargs);
    if (m == Match::Unsure) {
      ++t.unsure;
      continue;
    }
    ASSERT_EQ(m == Match::Yes, ok) << s;
    if (!ok) {
      ++t.no;
      continue;
    }
    ++t.yes;
    EXPECT_EQ(f.name, sv(name)) << s;
    EXPECT_EQ(f.type, sv(type)) << s;
    EXPECT_EQ(f.annotation, sv(ann)) << s;
    EXPECT_EQ(f.op, sv(op)) << s;
    EXPECT_EQ(f.target, sv(target)) << s;
    EXPECT_EQ(f.args, sv(args)) << s;
    EXPECT_EQ(f.kwargs, sv(kwargs)) << s;
  }
  std::cout << "fragment lines: " << t << "\n";
  EXPECT_GT(t.yes, 100u);
  EXPECT_GT(t.no, 100u);
}

TEST(LineScan, EveryFixtureNodeLineTakesTheFastPath) {
  size_t n = 0;
  for (const auto& s : fixture_lines()) {
    if (s.empty() || s[0] != '%') continue;
    scan::FragmentLine f;
    EXPECT_NE(scan::fragment_line(s, f), Match::Unsure) << s;
    ++n;
  }
  EXPECT_GT(n, 10u);
}

TEST(LineScan, AnnotationsAreTheRegexes) {
  RE2 sym(scan::kSymPattern), tensor(scan::kTensorPattern);
  ASSERT_TRUE(sym.ok() && tensor.ok());
  // The annotations of the fixtures: the quoted strings of node lines and FX graphs.
  std::vector<std::string> anns = {"Sym(s0)", "Sym()", "Sym(", "Sym(Eq(s0, 1))", "f32[]", "bf16[8, 1][1, 1]cuda:0",
                                   "i64[s0, 4]", "f32[16][1]", "f32[16][1", "f32[16", "F32[1]", "9f[1]", "f32x[1][2][3]"};
  append_quoted_strings(anns);
  std::mt19937 rng(7);
  static const std::string alphabet = "[]() ,:\n\xc3\xa9" "a0";
  size_t base = anns.size();
  for (size_t i = 0; i < base; ++i)
    for (int c = 0; c < 4; ++c) {
      std::string m = anns[i];
      size_t at = rng() % (m.size() + 1);
      if (rng() % 2 && at < m.size()) m.erase(at, 1);
      else m.insert(at, 1, alphabet[rng() % alphabet.size()]);
      anns.push_back(m);
    }
  Tally ts, tt;
  for (const auto& s : anns) {
    std::string_view inner;
    Match m = scan::sym_annotation(s, inner);
    re2::StringPiece in;
    bool ok = RE2::FullMatch(s, sym, &in);
    if (m == Match::Unsure) {
      ++ts.unsure;
    } else {
      ASSERT_EQ(m == Match::Yes, ok) << s;
      (ok ? ts.yes : ts.no)++;
      if (ok) EXPECT_EQ(inner, sv(in)) << s;
    }
    scan::TensorAnnotation t;
    m = scan::tensor_annotation(s, t);
    re2::StringPiece dt, shape, stride, device;
    ok = RE2::FullMatch(s, tensor, &dt, &shape, &stride, &device);
    if (m == Match::Unsure) {
      ++tt.unsure;
      continue;
    }
    ASSERT_EQ(m == Match::Yes, ok) << s;
    (ok ? tt.yes : tt.no)++;
    if (!ok) continue;
    EXPECT_EQ(t.dtype, sv(dt)) << s;
    EXPECT_EQ(t.shape, sv(shape)) << s;
    EXPECT_EQ(t.stride, sv(stride)) << s;
    EXPECT_EQ(t.device, sv(device)) << s;
  }
  std::cout << "Sym annotations: " << ts << "\ntensor annotations: " << tt << "\n";
  EXPECT_GT(tt.yes, 50u);
  EXPECT_GT(tt.no, 50u);
}

TEST(LineScan, FileCommentIsTheRegex) {
  RE2 re(scan::kFileCommentPattern);
  ASSERT_TRUE(re.ok());
  auto cases = cases_for("File: ", 30);
  for (std::string extra : {"# File: a.py:12345678901 in f, code: x", "# File: a.py:999999999 in f, code: x",
                            "# File: C:/a.py:3 in f, code: x = y[1:2]", "# File: a:b:1 in , code: ",
                            "#File: a.py:1 in f,g, code: x", "# File: a.py:1 in f, code: x, code: y"})
    cases.push_back(extra);
  Tally t;
  for (const auto& s : cases) {
    scan::FileComment f;
    Match m = scan::file_comment(s, f);
    std::string file, fn, code;
    int line = 0;
    bool ok = RE2::FullMatch(s, re, &file, &line, &fn, &code);
    if (m == Match::Unsure) {
      ++t.unsure;
      continue;
    }
    ASSERT_EQ(m == Match::Yes, ok) << s;
    (ok ? t.yes : t.no)++;
    if (!ok) continue;
    EXPECT_EQ(f.file, file) << s;
    EXPECT_EQ(f.line, line) << s;
    EXPECT_EQ(f.function, fn) << s;
    EXPECT_EQ(f.code, code) << s;
  }
  std::cout << "file comments: " << t << "\n";
  EXPECT_GT(t.yes, 100u);
  EXPECT_GT(t.no, 10u);
}

TEST(LineScan, SourceNodesAndHandlesAreTheRegexes) {
  RE2 nodes_re(scan::kSourceNodesPattern), handle_re(scan::kProvenanceHandlePattern);
  ASSERT_TRUE(nodes_re.ok() && handle_re.ok());
  auto cases = cases_for("Topologically Sorted Source Nodes", 40);
  for (auto& s : cases_for("[Provenance debug handles]", 40)) cases.push_back(s);
  for (std::string extra :
       {"# Topologically Sorted Source Nodes: [a], Original ATen: [b]  ", "# Topologically Sorted Source Nodes: [a]]  ",
        "# Topologically Sorted Source Nodes: [a], Original ATen: [b] x]", "# [Provenance debug handles]   ",
        "# [Provenance debug handles] k:1 \t", "# Topologically Sorted Source Nodes: [a] , Original ATen: [b]"})
    cases.push_back(extra);
  Tally tn, th;
  for (const auto& s : cases) {
    std::string_view n, a;
    Match m = scan::source_nodes(s, n, a);
    re2::StringPiece np, ap;
    bool ok = RE2::FullMatch(s, nodes_re, &np, &ap);
    if (m == Match::Unsure) {
      ++tn.unsure;
    } else {
      ASSERT_EQ(m == Match::Yes, ok) << s;
      (ok ? tn.yes : tn.no)++;
      if (ok) {
        EXPECT_EQ(n, sv(np)) << s;
        EXPECT_EQ(a, sv(ap)) << s;
      }
    }
    std::string_view h;
    m = scan::provenance_handle(s, h);
    std::string hs;
    ok = RE2::FullMatch(s, handle_re, &hs);
    if (m == Match::Unsure) {
      ++th.unsure;
      continue;
    }
    ASSERT_EQ(m == Match::Yes, ok) << s;
    (ok ? th.yes : th.no)++;
    if (ok) EXPECT_EQ(h, hs) << s;
  }
  std::cout << "source nodes: " << tn << "\nprovenance handles: " << th << "\n";
  EXPECT_GT(tn.yes, 20u);
  EXPECT_GT(tn.no, 20u);
  EXPECT_GT(th.yes, 5u);
}

TEST(LineScan, FragmentRefsAreTheRegex) {
  RE2 re(scan::kFragmentRefPattern);
  size_t plain = 0;
  for (const auto& s : cases_for("%", 10)) {
    if (!scan::plain_line(s)) continue;
    ++plain;
    std::vector<std::string> fast, slow;
    std::string_view in = s, name;
    while (scan::next_fragment_ref(in, name)) fast.emplace_back(name);
    re2::StringPiece rin(s), rname;
    while (RE2::FindAndConsume(&rin, re, &rname)) slow.emplace_back(sv(rname));
    EXPECT_EQ(fast, slow) << s;
  }
  EXPECT_GT(plain, 100u);
}

// ingest's parse_compile_dir_name scans by hand what this std::regex matched.
TEST(LineScan, CompileDirNameIsTheRegex) {
  static const std::regex re(R"(^.*?__(\d+)_(forward|backward|inference)_(.+)$)");
  std::vector<std::string> names = {"model__0_forward_1.0", "model__12_backward_3", "model__1_inference_0.1", "x__0_forward_",
                                    "a___0_forward_x", "a__0_forward__1_backward_2", "a__b__3_inference_z", "__1_forward_a",
                                    "model__99999999999_forward_0", "m\n__1_forward_a", "m__1_forward_a\nb", "m__1_forward_\r",
                                    "m__x_forward_a__2_backward_b", "m__1_forwardx_a", "m__1_backward", "", "__", "m__1__forward_a"};
  for (const auto& e : fs::recursive_directory_iterator(ILINT_FIXTURES_DIR))
    if (e.is_directory()) names.push_back(e.path().filename().string());
  std::mt19937 rng(3);
  static const std::string alphabet = "_0123456789\n\rabdfikornw.";
  size_t base = names.size();
  for (size_t i = 0; i < base; ++i)
    for (int c = 0; c < 20; ++c) {
      std::string m = names[i];
      for (int o = 0; o < 3; ++o) {
        size_t at = rng() % (m.size() + 1);
        if (rng() % 2 && at < m.size()) m.erase(at, 1);
        else m.insert(at, 1, alphabet[rng() % alphabet.size()]);
      }
      names.push_back(m);
    }
  size_t matched = 0;
  for (const auto& n : names) {
    std::smatch m;
    bool ok = std::regex_match(n, m, re);
    int index = -7;
    std::string kind, trailing;
    ASSERT_EQ(parse_compile_dir_name(n, index, kind, trailing), ok) << n;
    if (!ok) continue;
    ++matched;
    int want = -1;
    std::string digits = m[1].str();
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), want);
    if (ec != std::errc() || end != digits.data() + digits.size()) want = -1;
    EXPECT_EQ(index, want) << n;
    EXPECT_EQ(kind, m[2].str()) << n;
    EXPECT_EQ(trailing, m[3].str()) << n;
  }
  EXPECT_GT(matched, 50u);
}

// build_compiles' read_runnable: the config lines and the torch version of fx_graph_runnable.py's
// head, on every fixture's head and on mutations of its config and version lines.
TEST(LineScan, RunnableHeadIsTheRegexes) {
  RE2 cfg(scan::kRunnableConfigPattern), ver(scan::kTorchVersionPattern);
  ASSERT_TRUE(cfg.ok() && ver.ok());
  std::vector<std::string> texts;
  for (const auto& e : fs::recursive_directory_iterator(ILINT_FIXTURES_DIR)) {
    if (e.path().filename() != "fx_graph_runnable.py") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string t = ss.str();
    texts.push_back(t.substr(0, t.find("\nclass Repro(")));
  }
  ASSERT_FALSE(texts.empty());
  std::sort(texts.begin(), texts.end());
  texts.erase(std::unique(texts.begin(), texts.end()), texts.end());
  for (std::string extra : {"torch._inductor.config.a = 1", "torch._inductor.config.a =1\ntorch._dynamo.config.b.c = x y\r\n",
                            "torch._functorch.config. = 1", "torch._inductor.config.a b = 1", "torch._inductorx.config.a = 1",
                            " torch._dynamo.config.a = 1", "torch._dynamo.config.a = \xc3\xa9", "torch._dynamo.config.a = ",
                            "# torch version: ", "# torch version:  2.11\n# torch version: 2.12\x0b+x\r",
                            "# torch version: 2\xc3\xa9", "x\n# torch version: \t\n# torch version: a b", ""})
    texts.push_back(extra);
  // Line-level mutations: each config or version line changed in one place.
  std::mt19937 rng(7);
  static const std::string alphabet = " =._\r\t\x0b\xc3\xa9" "az09#\n";
  size_t base = texts.size();
  for (size_t t = 0; t < base; ++t) {
    for (int c = 0; c < 30; ++c) {
      std::string m = texts[t];
      std::vector<size_t> starts;
      for (size_t p = 0; p < m.size();) {
        if (m.compare(p, 6, "torch.") == 0 || m.compare(p, 9, "# torch v") == 0) starts.push_back(p);
        size_t nl = m.find('\n', p);
        if (nl == std::string::npos) break;
        p = nl + 1;
      }
      if (starts.empty()) break;
      size_t line = starts[rng() % starts.size()];
      size_t at = line + rng() % 40;
      if (at > m.size()) at = m.size();
      if (rng() % 2 && at < m.size()) m.erase(at, 1);
      else m.insert(at, 1, alphabet[rng() % alphabet.size()]);
      texts.push_back(m);
    }
  }
  Tally tc, tv;
  for (const auto& text : texts) {
    std::vector<scan::ConfigLine> fast;
    Match m = scan::runnable_config(text, fast);
    if (m == Match::Unsure) {
      ++tc.unsure;
    } else {
      std::vector<std::string> a, b;
      for (auto& l : fast) a.push_back(std::string(l.module) + "|" + std::string(l.key) + "|" + std::string(l.value));
      re2::StringPiece in(text), mod, key, val;
      while (RE2::FindAndConsume(&in, cfg, &mod, &key, &val))
        b.push_back(std::string(sv(mod)) + "|" + std::string(sv(key)) + "|" + std::string(sv(val)));
      ASSERT_EQ(a, b) << text;
      (a.empty() ? tc.no : tc.yes)++;
    }
    std::string_view v;
    m = scan::torch_version(text, v);
    re2::StringPiece rv;
    bool ok = RE2::PartialMatch(text, ver, &rv);
    if (m == Match::Unsure) {
      ++tv.unsure;
      continue;
    }
    ASSERT_EQ(m == Match::Yes, ok) << text;
    (ok ? tv.yes : tv.no)++;
    if (ok) EXPECT_EQ(v, sv(rv)) << text;
  }
  std::cout << "runnable config: " << tc << "\ntorch version: " << tv << "\n";
  EXPECT_GT(tc.yes, 100u);
  EXPECT_GT(tv.yes, 100u);
  EXPECT_GT(tv.no, 0u);
}

namespace {

// The pieces of a shape or stride text, by the rule the readers document: split at commas
// outside brackets, each piece's whitespace runs made one space and its ends trimmed, an empty
// last piece dropped ("8," is one piece).
std::vector<std::string> reference_pieces(const std::string& s) {
  std::vector<std::string> raw;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      raw.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  raw.push_back(cur);
  std::vector<std::string> out;
  for (const auto& r : raw) {
    std::istringstream words(r);
    std::string w, joined;
    while (words >> w) joined += (joined.empty() ? "" : " ") + w;
    out.push_back(joined);
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

std::vector<std::string> texts(const IStringList& l) { return {l.begin(), l.end()}; }

}  // namespace

TEST(FxText, ShapeAndStridePiecesAreSplitAtTopLevelCommasAndNormalized) {
  std::vector<std::string> anns = {"bf16[8, 1, s0 + 1][s0 + 1,  1 ,1]cuda:0", "f32[8,][1,]cpu", "f32[8,,1][ ,1, ]cpu",
                                   "i64[(s0 + 1)//2, 4][4,\t1]cuda:0", "f32[][]cpu", "f32[ s0 ][1]cpu"};
  append_quoted_strings(anns);
  size_t tensors = 0;
  for (const auto& a : anns) {
    scan::TensorAnnotation t;
    if (scan::tensor_annotation(a, t) != Match::Yes) continue;
    ValueKind kind;
    TensorMeta m = parse_value_annotation(a, kind);
    if (kind != ValueKind::Tensor) continue;
    ++tensors;
    EXPECT_EQ(texts(m.shape), reference_pieces(std::string(t.shape))) << a;
    EXPECT_EQ(texts(m.stride), reference_pieces(std::string(t.stride))) << a;
  }
  EXPECT_GT(tensors, 50u);
}

TEST(FxText, AnnotationsReadAgainAndAfterTheCacheStartsOverGiveTheSameAnswer) {
  // parse_value_annotation keeps the answers it gave (per thread, at most 4096): an answer handed
  // out again, or made again after the cache was emptied, is the one first made.
  std::vector<std::string> anns = {"Sym(s0)", "Sym(zf0)", "Sym(Eq(s0, 1))", "f32[8, 16][16, 1]cuda:0", "not an annotation"};
  append_quoted_strings(anns);
  struct Answer {
    ValueKind kind;
    DType dtype;
    std::vector<std::string> shape, stride;
    std::string device;
    bool operator==(const Answer&) const = default;
  };
  auto answer = [](const std::string& a) {
    ValueKind kind;
    TensorMeta m = parse_value_annotation(a, kind);
    return Answer{kind, m.dtype, texts(m.shape), texts(m.stride), m.device.str()};
  };
  std::vector<Answer> first;
  for (const auto& a : anns) first.push_back(answer(a));
  for (size_t i = 0; i < anns.size(); ++i) EXPECT_EQ(answer(anns[i]), first[i]) << anns[i];  // from the cache
  for (int n = 0; n < 5000; ++n) {  // more distinct texts than the cache holds: it starts over
    Answer a = answer("f32[" + std::to_string(n) + ", 2][2, 1]cpu");
    ASSERT_EQ(a.shape, (std::vector<std::string>{std::to_string(n), "2"}));
  }
  for (size_t i = 0; i < anns.size(); ++i) EXPECT_EQ(answer(anns[i]), first[i]) << anns[i];  // made again
  EXPECT_EQ(first[0].kind, ValueKind::SymInt);
  EXPECT_EQ(first[1].kind, ValueKind::SymFloat);
  EXPECT_EQ(first[2].kind, ValueKind::SymBool);
  EXPECT_EQ(first[3].kind, ValueKind::Tensor);
  EXPECT_EQ(first[4].kind, ValueKind::Other);
}

TEST(LineScan, JsonStringsIsNlohmannsStrictParse) {
  // The fixtures' provenance mappings, small hand cases, and random edits of both: where the
  // scanner answers Yes, nlohmann must accept the text and report the same events.
  std::vector<std::string> docs = {"{}", "[]", "{\"a\": [\"b\", \"c\"]}", " {\"a\":{}} ", "{\"a\": 1}", "{\"a\": \"\\n\"}",
                                   "{\"a\": [\"b\",]}", "{\"a\" \"b\"}", "{} x", "", "[[[[]]]]", "\"s\"", "{\"\xc3\xa9\": []}",
                                   std::string(300, '[') + std::string(300, ']')};
  for (const auto& e : fs::recursive_directory_iterator(ILINT_FIXTURES_DIR))
    if (e.path().filename() == "inductor_provenance_tracking_node_mappings.json") {
      std::ifstream in(e.path(), std::ios::binary);
      docs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  std::mt19937 rng(11);
  static const std::string alphabet = "{}[]\",: \\1\x01\xc3n";
  size_t base = docs.size();
  for (size_t i = 0; i < base; ++i)
    for (int c = 0; c < 40; ++c) {
      std::string m = docs[i];
      for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
        size_t at = rng() % (m.size() + 1);
        if (rng() % 2 && at < m.size()) m.erase(at, 1);
        else m.insert(at, 1, alphabet[rng() % alphabet.size()]);
      }
      docs.push_back(m);
    }
  Tally t;
  for (const auto& d : docs) {
    ilint::testing::RecordedJson fast;
    Match m = scan::json_strings(d, fast);
    ASSERT_NE(m, Match::No);
    if (m == Match::Unsure) {
      ++t.unsure;
      continue;
    }
    ++t.yes;
    ilint::testing::RecordedJson slow;
    JsonEventsSax sax(slow);
    ASSERT_TRUE(nlohmann::json::sax_parse(d, &sax, nlohmann::json::input_format_t::json, true)) << d;
    EXPECT_EQ(fast.events, slow.events) << d;
  }
  std::cout << "JSON documents: " << t.yes << " read by the scanner, " << t.unsure << " left to nlohmann\n";
  EXPECT_GT(t.yes, 100u);
  EXPECT_GT(t.unsure, 100u);
}
