// The Triton decorator scanner (analyzer/parse/triton_decorator.h): where it answers, the kernel
// reader must build the same Kernel, with the same diagnostics, as when the whole source goes
// through the Python parser. Checked on every Triton kernel of every fixture, on hand cases of
// what the scanner must leave to the parser, and on random edits of the fixture kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "analyzer/parse/triton_decorator.h"
#include "analyzer/pipeline.h"
#include "tests/kernel_facts.h"
#include "tests/unit/test_util.h"

namespace {

using ilint::Kernel;
using ilint::KernelBackend;
using ilint::TritonDecoratorRead;
using ilint::scan::Match;
using ilint::scan::TritonDecorator;
using ilint::testing::read_triton_facts;

struct Source {
  std::string name, text;
  int first_line = 1;
};

// Every distinct Triton kernel source of the fixtures, as parse_output_code hands it over.
const std::vector<Source>& fixture_kernels() {
  static const std::vector<Source> kernels = [] {
    std::vector<Source> out;
    std::set<std::string> seen;
    for (const auto& e : std::filesystem::directory_iterator(ILINT_FIXTURES_DIR)) {
      if (!e.is_directory()) continue;
      ilint::Analysis a;
      ilint::AnalyzeOptions o;
      o.paths = {e.path().string()};
      o.jobs = 1;
      o.keep_kernel_sources = true;
      ilint::analyze(o, a);
      for (const auto& c : a.program.compiles)
        for (const Kernel& k : c.kernels) {
          std::string source(c.source_of(k));
          if (k.backend == KernelBackend::Triton && !source.empty() && seen.insert(source).second)
            out.push_back({k.name, source, k.source_first_line});
        }
    }
    return out;
  }();
  return kernels;
}

// Both reads of one source; true when the scanner answered Yes (and so the fast path ran).
bool same_both_ways(const Source& s) {
  TritonDecorator d;
  bool yes = ilint::scan::triton_decorator(s.text, d) == Match::Yes;
  if (yes)
    EXPECT_EQ(d.line_ends, static_cast<size_t>(std::count(s.text.begin() + static_cast<std::ptrdiff_t>(d.begin),
                                                          s.text.begin() + static_cast<std::ptrdiff_t>(d.end), '\n')));
  std::string scan = read_triton_facts(s.name, s.text, s.first_line, TritonDecoratorRead::Scan);
  std::string parse = read_triton_facts(s.name, s.text, s.first_line, TritonDecoratorRead::Parse);
  EXPECT_EQ(scan, parse) << "kernel " << s.name << " source:\n" << s.text;
  return yes;
}

TEST(TritonDecorator, EveryFixtureKernelIsScannedAndReadAsTheParserReadsIt) {
  const auto& kernels = fixture_kernels();
  ASSERT_GT(kernels.size(), 40u);
  size_t yes = 0;
  for (const auto& s : kernels) yes += same_both_ways(s);
  std::cout << "fixture Triton kernels: " << kernels.size() << ", scanned: " << yes << "\n";
  // Every real decorator takes the fast path: a torch change that the scanner stops answering
  // for shows up here, not as a silent slowdown.
  EXPECT_EQ(yes, kernels.size());
}

TEST(TritonDecorator, ReadsKindSignatureAndMutatedArgs) {
  std::string src =
      "\nimport triton\n\n@triton_heuristics.reduction(\n    size_hints={'x': 1, 'r0_': 64},\n"
      "    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, "
      "'device': DeviceProperties(type='cuda', index=0), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]]}]},\n"
      "    inductor_meta={'autotune_hints': set(), 'mutated_arg_names': ['in_out_ptr0'], 'x': -1.5e-05},\n"
      "    min_elem_per_thread=0\n)\n@triton.jit\ndef k(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):\n    pass\n";
  TritonDecorator d;
  ASSERT_EQ(ilint::scan::triton_decorator(src, d), Match::Yes);
  EXPECT_EQ(d.kind, "reduction");
  ASSERT_EQ(d.signature.size(), 3u);
  EXPECT_EQ(d.signature[0].first, "in_out_ptr0");
  EXPECT_EQ(d.signature[0].second, "*bf16");
  EXPECT_EQ(d.signature[2].second, "constexpr");
  EXPECT_TRUE(d.has_mutated_args);
  ASSERT_EQ(d.mutated_args.size(), 1u);
  EXPECT_EQ(src.substr(d.begin, 30), "@triton_heuristics.reduction(\n");
  EXPECT_EQ(src[d.end], '\n');
  EXPECT_EQ(src.substr(d.end + 1, 11), "@triton.jit");
  same_both_ways({"k", src, 40});
}

TEST(TritonDecorator, LeavesToTheParserWhatItCannotReadExactly) {
  const std::string head = "import triton\n";
  const std::string tail = "\n@triton.jit\ndef k(in_ptr0, xnumel, XBLOCK : tl.constexpr):\n    tmp0 = tl.load(in_ptr0 + (0))\n";
  auto dec = [](const std::string& args) { return "@triton_heuristics.pointwise(" + args + ")"; };
  const std::string sig = "triton_meta={'signature': {'in_ptr0': '*fp32'}}";
  // Each must answer Unsure; each is still read the same both ways (by the parser).
  const std::vector<std::string> unsure = {
      head + dec(sig + ", x='a\\'b'") + tail,                 // an escape
      head + dec(sig + ", x='a' 'b'") + tail,                 // adjacent literals
      head + dec(sig + ", x=r'a'") + tail,                    // a string prefix
      head + dec(sig + ", x='''a'''") + tail,                 // triple quotes
      head + dec(sig + ", # c\n x=1") + tail,                 // a comment
      head + dec(sig + ", x=1 + 2") + tail,                   // an operator
      head + dec(sig + ", x=a[0]") + tail,                    // a subscript
      head + dec(sig + ", x=[i for i in y]") + tail,          // a comprehension
      head + dec(sig + ", x=lambda: 1") + tail,               // a keyword
      head + dec(sig + ", **kw") + tail,                      // unpacking
      head + dec(sig + ", x=0x10") + tail,                    // a number form it does not read
      head + dec(sig + ", " + sig) + tail,                    // triton_meta twice
      head + dec("triton_meta=meta") + tail,                  // not a dict display
      head + dec("triton_meta={'signature': ['in_ptr0']}") + tail,    // a signature that is no dict
      head + dec("triton_meta={'signature': {'in_ptr0': 1}}") + tail, // a type that is no string
      head + dec("inductor_meta={'mutated_arg_names': ['a', 1]}") + tail,
      head + dec("x={'a': 1, 'b'}") + tail,                   // dict and set mixed
      head + dec(sig) + " # trailing comment" + tail,
      head + dec(sig) + "\n@triton_heuristics.reduction()" + tail,  // a second decorator
      "x = '\n" + dec(sig) + "'" + tail,                      // a quote before it
      "f(\n" + dec(sig) + tail,                               // an open bracket before it
      "@ triton_heuristics.template()\ndef h():\n    pass\n" + dec(sig) + tail,  // a decorator before it
      head + dec(sig) + "\nx = a @ b" + tail,                // an '@' after it that is no @triton.jit
      head + "@triton_heuristics.pointwise (" + sig + ")" + tail,
      head + dec(sig + ", x=" + std::string(40, '[') + std::string(40, ']')) + tail,  // too deep
      head + dec(sig + ", x=a" + [] { std::string c; for (int i = 0; i < 250; ++i) c += ".b"; return c; }()) + tail,  // the parser cuts it
      head + dec(sig + ", x=" + [] { std::string c; for (int i = 0; i < 60; ++i) c += "a.b.c("; return c + std::string(60, ')'); }()) + tail,
      head + dec(sig).substr(0, 40) + tail,                   // truncated
      head + dec(sig + ",\r\n x=1") + tail,                   // a CR
      // An indented line after it: the decorator closes the helper's def above, blanked it would not.
      "@triton.jit\ndef h(a):\n    return a\n" + dec(sig) + "\n    tmp0 = a * a\n" + tail,
      "@triton.jit\ndef h(a):\n    return a\n" + dec(sig) + "\n\n    # c\n  \n\tx = 1" + tail,
  };
  for (const auto& s : unsure) {
    TritonDecorator d;
    EXPECT_EQ(ilint::scan::triton_decorator(s, d), Match::Unsure) << s;
    same_both_ways({"k", s, 3});
  }
  // And the forms it reads: trailing commas, empty displays, negative numbers, nested calls.
  const std::vector<std::string> yes = {
      head + dec(sig) + tail,
      head + dec(sig + ",") + tail,
      head + dec("\n    " + sig + " ,\n    inductor_meta={'mutated_arg_names': [], },\n") + tail,
      head + dec("triton_meta={}, x=(), y=(1,), z={'a', 'b'}, w=-3, v=f(a.b(c=1), 2.5e+3)") + tail,
      dec(sig) + tail,                                        // at the very start
      head + dec(sig) + "\n\n    # an indented comment\n" + tail,  // comments and blank lines before the jit line
      "x = triton_heuristics .y\n@triton.jit\ndef h():\n    pass\n" + dec(sig) + tail,  // named, no decorator
      head + dec("triton_meta={'a': 1, 'signature': {'in_ptr0': '*bf16'}, 'signature': {'x': '*fp32'}}") + tail,
  };
  for (const auto& s : yes) {
    TritonDecorator d;
    EXPECT_EQ(ilint::scan::triton_decorator(s, d), Match::Yes) << s;
    EXPECT_TRUE(same_both_ways({"k", s, 3}));
  }
}

// The inputs fuzz_triton found the two reads to differ on (tests/unit/regressions/triton_*).
TEST(TritonDecorator, FuzzFindingsAreReadTheSameBothWays) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(ILINT_SOURCE_DIR) + "/tests/unit/regressions")) {
    std::string name = e.path().filename().string();
    if (name.rfind("triton_", 0) != 0) continue;
    ++n;
    // Named and placed as the fuzz target does: the first `def NAME(`, line 1 + size % 5.
    std::string text = ilint::testing::read_all(e.path()), kname = ilint::testing::first_def_name(text);
    same_both_ways({kname, text, 1 + static_cast<int>(text.size() % 5)});
  }
  EXPECT_GE(n, 2u);
}

TEST(TritonDecorator, RandomEditsOfFixtureKernelsAreReadTheSameBothWays) {
  // Edits inside and around the decorator: characters that change how Python tokenizes.
  static const std::string alphabet = "'\"\\#()[]{},:=-.+*\n\r\t x0e@_";
  std::mt19937 rng(5);
  const auto& kernels = fixture_kernels();
  size_t yes = 0, unsure = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const Source& base = kernels[i];
    size_t at = base.text.find("@triton_heuristics");
    size_t jit = base.text.find("@triton.jit", at == std::string::npos ? 0 : at);
    if (at == std::string::npos || jit == std::string::npos) continue;
    for (int c = 0; c < 60; ++c) {
      std::string m = base.text;
      for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
        // Mostly in the decorator, sometimes anywhere.
        size_t lo = rng() % 4 ? at : 0, hi = rng() % 4 ? jit + 12 : m.size();
        hi = std::min(hi, m.size());
        size_t pos = lo + rng() % (hi - lo + 1);
        if (rng() % 2 && pos < m.size()) m.erase(pos, 1);
        else m.insert(pos, 1, alphabet[rng() % alphabet.size()]);
      }
      if (same_both_ways({base.name, m, base.first_line})) ++yes;
      else ++unsure;
      if (::testing::Test::HasFailure()) return;
    }
  }
  std::cout << "edited kernels: " << yes << " scanned, " << unsure << " left to the parser\n";
  EXPECT_GT(yes, 100u);
  EXPECT_GT(unsure, 100u);
}

}  // namespace
