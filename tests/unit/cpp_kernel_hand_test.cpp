// The hand reader of C++ kernels (analyzer/cpp/cpp_kernel_hand.*) against the Clang reader:
// on every C++ kernel of every capture in fixtures/ (cpp_pybinding kernels and the kernels of
// C++ wrappers), it must accept and fill exactly what Clang fills; on what it does not know, it
// must decline and leave the kernel as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <cctype>
#include <sstream>
#include <regex>

#include "analyzer/cpp/cpp_hand.h"
#include "analyzer/cpp/cpp_kernel_hand.h"
#include "analyzer/ingest/ingest.h"
#include "analyzer/pipeline.h"
#include "tests/kernel_facts.h"
#include "tests/unit/test_util.h"

#ifdef ILINT_HAVE_CLANG
#include "analyzer/cpp/clang/clang_reader.h"
#endif

namespace fs = std::filesystem;
using namespace ilint;

namespace {

// Every C++ kernel of every fixture, as the pipeline hands them to the kernel reader (with
// their output_code.py), one Program per fixture kept alive.
struct FixtureKernels {
  std::vector<std::unique_ptr<Program>> programs;
  std::vector<CppKernelJob> jobs;
  std::vector<std::string> fixture_of;
};

FixtureKernels all_fixture_kernels() {
  FixtureKernels out;
  std::vector<fs::path> dirs;
  for (auto& d : fs::directory_iterator(ILINT_FIXTURES_DIR))
    if (d.is_directory()) dirs.push_back(d.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    DiagSink diags;
    IngestResult in = ingest_paths({dir.string()}, diags);
    auto prog = std::make_unique<Program>();
    std::vector<CppKernelJob> jobs;
    // build_compiles reads what the hand reader takes itself; with the hand readers off, every C++
    // kernel is handed out unread (the wrappers' ones found by Clang's wrapper reader, which reads
    // them as the hand one does).
    ilint::testing::HandReadersScope hand_off(false);
    build_compiles(in, *prog, diags, 1, &jobs);
    for (auto& j : jobs) {
      out.jobs.push_back(j);
      out.fixture_of.push_back(dir.filename().string());
    }
    out.programs.push_back(std::move(prog));
  }
  return out;
}

// The cpu_vocab_* fixtures are real captures made to reach beyond the C++ the hand reader knows
// (tools/capture_scripts/cpu_vocab.py; docs/cpp-kernels.md): there it may decline a kernel,
// which then goes to Clang. What it accepts, anywhere, it must read as Clang does.
bool beyond_hand_vocabulary(const std::string& fixture) { return fixture.rfind("cpu_vocab_", 0) == 0; }

// s2_cpu's cpp_fused_div_1 (loads, a broadcast, a divide, a store), which the tests of single
// forms edit; nullptr when no fixture has it.
const Kernel* s2_cpu_div_kernel(const FixtureKernels& fk) {
  for (const auto& j : fk.jobs)
    if (j.kernel->name == "cpp_fused_div_1") return j.kernel;
  return nullptr;
}

}  // namespace

// Every other fixture kernel, torch 2.11 to 2.14 (the realistic training step, cpu_train_step_t213,
// among them), must be read by hand: the hand reader is kept for its speed on such compiles
// (docs/performance.md). A fixture of a newer torch with a form it does not know fails here until
// the form is taught.
#ifdef ILINT_HAVE_CLANG
TEST(CppKernelHand, ReadsEveryFixtureKernelAsClangDoes) {
  install_optional_readers();
  FixtureKernels fk = all_fixture_kernels();
  size_t compared = 0, vocab_kernels = 0, vocab_accepted = 0;
  std::set<std::string> distinct;
  std::map<std::string, std::vector<std::string>> declined_why;
  for (size_t i = 0; i < fk.jobs.size(); ++i) {
    const Kernel& original = *fk.jobs[i].kernel;
    Kernel by_clang = original, by_hand = original;
    DiagSink clang_diags;
    read_cpp_kernel_clang(by_clang, fk.jobs[i].file, clang_diags);
    EXPECT_TRUE(by_clang.parse_errors.empty()) << fk.fixture_of[i] << " " << original.name;
    std::string why;
    bool accepted = read_cpp_kernel_hand(by_hand, fk.jobs[i].file, &why);
    const bool beyond = beyond_hand_vocabulary(fk.fixture_of[i]);
    vocab_kernels += beyond;
    if (beyond && !accepted) {
      declined_why[why].push_back(fk.fixture_of[i] + " " + original.name);
      EXPECT_EQ(ilint::testing::kernel_facts(by_hand), ilint::testing::kernel_facts(original)) << "declined but changed";
      continue;
    }
    EXPECT_TRUE(accepted) << fk.fixture_of[i] << " " << original.name << ": declined: " << why;
    if (!accepted) continue;
    EXPECT_EQ(ilint::testing::kernel_facts(by_hand), ilint::testing::kernel_facts(by_clang))
        << fk.fixture_of[i] << " " << original.name;
    ++compared;
    vocab_accepted += beyond;
    distinct.insert(original.source);
  }
  // 16 distinct cpp_pybinding sources in 8 captures, and the kernels of the C++ wrappers.
  EXPECT_EQ(compared + vocab_kernels - vocab_accepted, fk.jobs.size());
  EXPECT_GE(compared, 24u);
  EXPECT_GE(distinct.size(), 24u);
  EXPECT_GE(vocab_kernels, 15u);
  EXPECT_EQ(vocab_accepted, vocab_kernels);  // the vocabulary covers them all (and 63 of the 37 captures' 64)
  std::cout << "[ info ] " << compared << " kernels (" << distinct.size() << " distinct sources) read alike; "
            << vocab_accepted << " of the " << vocab_kernels << " in cpu_vocab_* fixtures accepted\n";
  for (const auto& [why, kernels] : declined_why) {
    std::cout << "[ info ]   declined " << kernels.size() << ": " << why << "\n";
    for (const auto& k : kernels) std::cout << "[ info ]     " << k << "\n";
  }
}
#endif

#ifdef ILINT_HAVE_CLANG
namespace {

// Small edits of a real kernel: a line dropped, doubled or swapped with the next, a name or a
// number replaced by another of the kernel's, a byte dropped or a punctuator inserted. Most
// mutants are not Inductor's C++ any more; the hand reader must then either decline or read
// them exactly as Clang does (errors included: accepting what Clang rejects is a failure).
std::string mutate(const std::string& src, uint64_t& rng) {
  auto next = [&rng](size_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? static_cast<size_t>(rng % n) : 0;
  };
  std::vector<std::string> lines;
  {
    size_t b = 0;
    for (size_t i = 0; i <= src.size(); ++i)
      if (i == src.size() || src[i] == '\n') {
        lines.push_back(src.substr(b, i - b));
        b = i + 1;
      }
  }
  auto join = [](const std::vector<std::string>& ls) {
    std::string s;
    for (size_t i = 0; i < ls.size(); ++i) s += ls[i] + (i + 1 < ls.size() ? "\n" : "");
    return s;
  };
  auto words = [&src](bool numbers) {
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t i = 0; i < src.size();) {
      if (std::isalnum(static_cast<unsigned char>(src[i])) || src[i] == '_') {
        size_t j = i;
        while (j < src.size() && (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '_' || src[j] == '.')) ++j;
        if (bool(std::isdigit(static_cast<unsigned char>(src[i]))) == numbers) out.push_back({i, j - i});
        i = j;
      } else {
        ++i;
      }
    }
    return out;
  };
  switch (next(7)) {
    case 0: {
      size_t l = next(lines.size());
      lines.erase(lines.begin() + static_cast<long>(l));
      return join(lines);
    }
    case 1: {
      size_t l = next(lines.size());
      lines.insert(lines.begin() + static_cast<long>(l), lines[l]);
      return join(lines);
    }
    case 2: {
      if (lines.size() < 2) return src;
      size_t l = next(lines.size() - 1);
      std::swap(lines[l], lines[l + 1]);
      return join(lines);
    }
    case 3:
    case 4: {
      auto ws = words(next(2) == 0);
      if (ws.size() < 2) return src;
      auto a = ws[next(ws.size())], b = ws[next(ws.size())];
      std::string s = src;
      s.replace(a.first, a.second, src.substr(b.first, b.second));
      return s;
    }
    case 5: {
      std::string s = src;
      if (!s.empty()) s.erase(next(s.size()), 1);
      return s;
    }
    default: {
      static const char* kInsert[] = {"(", ")", "{", "}", ";", ",", "-", "*", "<", ">", "=", "&", "[", "]", "."};
      std::string s = src;
      s.insert(next(s.size() + 1), kInsert[next(sizeof kInsert / sizeof *kInsert)]);
      return s;
    }
  }
}

}  // namespace

TEST(CppKernelHand, MutantsAreDeclinedOrReadAsClangReadsThem) {
  install_optional_readers();
  FixtureKernels fk = all_fixture_kernels();
  std::vector<const Kernel*> distinct;
  std::set<std::string> seen;
  for (auto& j : fk.jobs) {
    if (!seen.insert(j.kernel->source).second) continue;
    // Mutants of kernels the reader declines whole would mostly be declined too: they test little.
    Kernel probe = *j.kernel;
    if (read_cpp_kernel_hand(probe, j.kernel->def_loc.file, nullptr)) distinct.push_back(j.kernel);
  }
  const char* env = std::getenv("ILINT_HAND_MUTANTS");
  const size_t mutants = env ? std::strtoul(env, nullptr, 10) : 480;
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  size_t accepted = 0, accepted_changed = 0;
  for (size_t m = 0; m < mutants; ++m) {
    const Kernel& original = *distinct[m % distinct.size()];
    Kernel mutant = original;
    mutant.source = mutate(original.source, rng);
    if (m % 3 == 2) mutant.source = mutate(mutant.source, rng);  // some get two edits
    Kernel by_hand = mutant;
    std::string why;
    if (!read_cpp_kernel_hand(by_hand, mutant.def_loc.file, &why)) {
      EXPECT_EQ(ilint::testing::kernel_facts(by_hand), ilint::testing::kernel_facts(mutant)) << "declined but changed";
      continue;
    }
    ++accepted;
    if (mutant.source != original.source) ++accepted_changed;
    Kernel by_clang = mutant;
    DiagSink diags;
    read_cpp_kernel_clang(by_clang, mutant.def_loc.file, diags);
    EXPECT_EQ(ilint::testing::kernel_facts(by_hand), ilint::testing::kernel_facts(by_clang))
        << "mutant " << m << " of " << original.name << ":\n" << mutant.source;
  }
  std::cout << "[ info ] " << mutants << " mutants: " << accepted << " accepted by the hand reader ("
            << accepted_changed << " differing from their kernel), the rest declined\n";
  EXPECT_GT(accepted_changed, 0u);
}
#endif

#ifdef ILINT_HAVE_CLANG
// Inputs fuzz_cpp_kernel_hand found accepted by the hand reader and read otherwise by Clang
// (tests/unit/regressions/cpp_kernel_hand_*): each is now declined untouched or read alike.
TEST(CppKernelHand, SavedFuzzInputsKeepTheContract) {
  install_optional_readers();
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(fs::path(ILINT_SOURCE_DIR) / "tests/unit/regressions")) {
    std::string name = e.path().filename().string();
    if (name.rfind("cpp_kernel_hand_", 0) != 0) continue;
    ++n;
    Kernel k;
    k.name = "cpp_fused_fuzz_0";
    k.backend = KernelBackend::Cpp;
    k.source = ilint::testing::read_all(e.path());
    k.source_first_line = 10;
    k.def_loc = SourceLoc{"fuzz/output_code.py", 9, 1};
    Kernel by_hand = k;
    if (!read_cpp_kernel_hand(by_hand, "fuzz/output_code.py")) {
      EXPECT_EQ(ilint::testing::kernel_facts(by_hand), ilint::testing::kernel_facts(k)) << name;
      continue;
    }
    Kernel by_clang = k;
    DiagSink diags;
    read_cpp_kernel_clang(by_clang, "fuzz/output_code.py", diags);
    EXPECT_EQ(ilint::testing::kernel_facts(by_hand), ilint::testing::kernel_facts(by_clang)) << name;
  }
  EXPECT_GE(n, 1u);
}
#endif

#ifdef ILINT_HAVE_CLANG
// Edits of a real kernel that Clang rejects although every token is in the hand reader's
// vocabulary: the hand reader must decline them all (found by the mutation test and
// fuzz_cpp_kernel_hand, or by reading the C++ rules the reader has to follow).
// The hand reader refuses declarations named like the prelude's globals (a kernel local named
// `welford_combine` would shadow it for Clang). Its list is kept by hand: every type and function
// the prelude declares after its namespaces must be on it.
TEST(CppKernelHand, ReservesEveryGlobalNameOfThePrelude) {
  static const char kPrelude[] =
#include "analyzer/cpp/prelude/cpp_prefix_prelude.inc"
      ;
  const std::string text(kPrelude);
  const size_t globals = text.find("}  // namespace at");
  ASSERT_NE(globals, std::string::npos);
  std::istringstream in(text.substr(globals));
  std::set<std::string> names;
  static const std::regex type_name(R"(^(?:struct|class)\s+(\w+))");
  static const std::regex function_name(R"((\w+)\s*\()");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || !std::isalpha(static_cast<unsigned char>(line[0]))) continue;  // members, comments, `}`
    if (line.rfind("template", 0) == 0) {  // drop `template <...> `
      size_t i = line.find('<');
      int depth = 0;
      for (; i < line.size(); ++i) {
        depth += line[i] == '<' ? 1 : line[i] == '>' ? -1 : 0;
        if (depth == 0) break;
      }
      line = line.substr(i + 1);
      line.erase(0, line.find_first_not_of(' '));
    }
    std::smatch m;
    if (std::regex_search(line, m, type_name) || std::regex_search(line, m, function_name)) names.insert(m[1]);
  }
  EXPECT_GE(names.size(), 40u);
  for (const char* known : {"Welford", "WelfordHelper", "welford_combine", "IndexValueVec", "argmax_combine_vec",
                            "transpose_mxn", "any_masked_reduce", "atomic_add_vec"})
    EXPECT_EQ(names.count(known), 1u) << known << " not found: the scan of the prelude is off";
  for (const auto& n : names) EXPECT_TRUE(cpp_kernel_hand_reserves(n)) << n;
}

// Torch 2.11's vocabulary beyond the seed fixtures, each form written into s2_cpu's
// cpp_fused_div_1: the hand reader accepts every variant and fills what Clang fills.
TEST(CppKernelHand, ReadsTheCpuVocabularyFormsAsClangDoes) {
  install_optional_readers();
  FixtureKernels fk = all_fixture_kernels();
  const Kernel* div = s2_cpu_div_kernel(fk);
  ASSERT_NE(div, nullptr);
  const std::string tmp1 = "auto tmp1 = static_cast<float>(2.0);", tmp3 = "auto tmp3 = tmp0 / tmp2;";
  const std::string next = "\n                    ";
  struct Variant {
    const char* what;
    std::vector<std::pair<std::string, std::string>> edits;
  };
  const std::vector<Variant> variants = {
      {"numeric_limits and std::max",
       {{tmp1, "auto tmp1 = std::max(static_cast<float>(2.0), -std::numeric_limits<float>::infinity());"}}},
      {"std::pow and std::isnan",
       {{tmp1, "auto tmp1 = std::pow(static_cast<float>(2.0), static_cast<float>(1.0)) + "
               "static_cast<float>(std::isnan(static_cast<float>(2.0)));"}}},
      {"decltype(v)(1)", {{tmp3, "auto tmp3 = tmp0 / (tmp2 * decltype(tmp2)(1));"}}},
      {"unqualified fmadd", {{tmp3, "auto tmp3 = fmadd(tmp0, tmp2, tmp0);"}}},
      {"TORCH_CHECK", {{tmp1, "TORCH_CHECK((0 <= x0) & (x0 < 592L), \"index out of bounds: 0 <= x0 < 592L\");" + next + tmp1}}},
      {"a symbolic bound in C10_LIKELY",
       {{"kernel(float* in_out_ptr0)", "kernel(float* in_out_ptr0,\n                       const int64_t ks0)"},
        {"x0 < static_cast<int64_t>(592L)))",
         "x0 < static_cast<int64_t>(16L*(c10::div_floor_integer(static_cast<int64_t>(ks0), static_cast<int64_t>(16L))))))"}}},
      {"std::min in a loop bound",
       {{"x0<static_cast<int64_t>(600L);",
         "x0<static_cast<int64_t>(std::min(static_cast<int64_t>(600L), static_cast<int64_t>(700L)));"}}},
      {"VecMask from, set, to and from<U,L>",
       {{tmp3, tmp3 + next + "auto tmp4 = at::vec::VecMask<float,1>::from(1);" + next +
                   "auto tmp5 = at::vec::VecMask<float,1>::set(tmp4, at::vec::VecMask<float,1>(tmp0 > tmp2), "
                   "static_cast<int64_t>(8L));" + next + "auto tmp6 = tmp5.to<int64_t,2>();" + next +
                   "auto tmp7 = at::vec::VecMask<int64_t,2>::from<int64_t,2>(tmp6);" + next +
                   "auto tmp8 = at::vec::VecMask<float,1>::from(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(16));"}}},
      {"reduce helpers",
       {{tmp1, "auto tmp1 = max_propagate_nan(static_cast<float>(2.0), static_cast<float>(1.0));"},
        {tmp3, "auto tmp3 = sum_masked_reduce(tmp0, tmp2, static_cast<int64_t>(8L));"}}},
      {"at::vec::convert with counts", {{tmp3, "auto tmp3 = at::vec::convert<float,1,float,1>(tmp0 / tmp2);"}}},
      // Tried as a declaration first (its `>>` split in two), then read as an expression statement.
      {"a `>>` the reader backs up over", {{tmp3, tmp3 + next + "Welford<at::vec::Vectorized<float>>();"}}},
      {"an aligned local array, stores into it and a transpose out of it",
       {{tmp3, tmp3 + next + "alignas(std::max(std::size_t(16), alignof(float))) float tmp9[16*16];" + next +
                   "tmp3.store(tmp9 + static_cast<int64_t>(16L));" + next +
                   "transpose_mxn<float,static_cast<int64_t>(16),static_cast<int64_t>(8L),false>(tmp9, "
                   "static_cast<int64_t>(16), in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));" + next +
                   "auto tmp10 = at::vec::Vectorized<float>::loadu(tmp9, static_cast<int64_t>(16));"}}},
      // torch 2.14's wrapping int64 arithmetic, and uint8 values promoted to int.
      {"unsigned arithmetic of one type, and uint8_t promoted",
       {{tmp3, tmp3 + next + "auto tmp9 = int64_t(static_cast<std::make_unsigned_t<int64_t>>(x0) * "
                   "static_cast<std::make_unsigned_t<int64_t>>(x0));" + next +
                   "auto tmp10 = uint8_t(static_cast<uint8_t>(200) * static_cast<uint8_t>(x0));"}}},
      // The operands' own type when both have it, as C++ types a conditional.
      {"a conditional on two uint8_t values",
       {{tmp3, tmp3 + next + "auto tmp9 = static_cast<uint8_t>(x0);" + next +
                   "auto tmp10 = uint8_t(x0 > 3 ? tmp9 : tmp9);" + next + "auto tmp11 = static_cast<int32_t>(x0 > 3 ? tmp9 : tmp9);"}}},
      {"arg*_combine_vec of two accumulators",
       {{tmp3, tmp3 + next + "IndexValueVec<float, 1, 2> tmp_acc9_vec = IndexValueVec<float, 1, 2>(0);" + next +
                   "tmp_acc9_vec = argmax_combine_vec<float, 1, 2>(tmp_acc9_vec, tmp_acc9_vec);"}}},
      {"a local array in a lambda, normalized_rand_cpu",
       {{tmp1, "auto tmp1 = [&]()\n                    {\n                        int64_t offset[16];\n"
               "                        float result[16];\n                        for( int64_t offset_idx = 0; offset_idx < 16; offset_idx++ )\n"
               "                        {\n                            result[offset_idx] = normalized_rand_cpu(x0, offset[offset_idx]);\n"
               "                        }\n                        return result[0];\n                    }\n                    ();"}}},
  };
  for (const auto& v : variants) {
    Kernel k = *div;
    for (const auto& [from, to] : v.edits) {
      size_t at = k.source.find(from);
      ASSERT_NE(at, std::string::npos) << v.what << ": " << from;
      k.source.replace(at, from.size(), to);
    }
    Kernel by_hand = k, by_clang = k;
    std::string why;
    EXPECT_TRUE(read_cpp_kernel_hand(by_hand, k.def_loc.file, &why)) << v.what << ": declined: " << why;
    DiagSink diags;
    read_cpp_kernel_clang(by_clang, k.def_loc.file, diags);
    EXPECT_TRUE(by_clang.parse_errors.empty()) << v.what << ": " << by_clang.parse_errors.front();
    EXPECT_EQ(ilint::testing::kernel_facts(by_hand), ilint::testing::kernel_facts(by_clang)) << v.what;
  }
}

// Forms the hand reader leaves to Clang although Clang takes them: the conversions of mixed
// signed and unsigned operands, an array of vectors that is no accumulator (Clang records its
// elements' constructor as a value) or that is used whole.
TEST(CppKernelHand, LeavesToClangTheFormsNearItsVocabulary) {
  install_optional_readers();
  FixtureKernels fk = all_fixture_kernels();
  const Kernel* div = s2_cpu_div_kernel(fk);
  ASSERT_NE(div, nullptr);
  const std::string tmp3 = "auto tmp3 = tmp0 / tmp2;", next = "\n                    ";
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"unsigned arithmetic", "auto tmp9 = int64_t(static_cast<std::make_unsigned_t<int64_t>>(x0) + x0);"},
      {"unsigned arithmetic", "auto tmp9 = static_cast<uint32_t>(x0) * static_cast<std::make_unsigned_t<int64_t>>(x0);"},
      {"an array of a type", "at::vec::Vectorized<float> tmp9[2];"},
      {"used other than by an index", "at::vec::Vectorized<float> tmp_acc9_vec_arr[2];" + next +
                                          "auto tmp9 = tmp_acc9_vec_arr;"},
  };
  for (const auto& [why, line] : edits) {
    Kernel k = *div;
    size_t at = k.source.find(tmp3);
    ASSERT_NE(at, std::string::npos);
    k.source.replace(at, tmp3.size(), tmp3 + next + line);
    DiagSink diags;
    Kernel by_clang = k;
    read_cpp_kernel_clang(by_clang, k.def_loc.file, diags);
    EXPECT_TRUE(by_clang.parse_errors.empty()) << line << ": " << by_clang.parse_errors.front();
    std::string got;
    Kernel by_hand = k;
    EXPECT_FALSE(read_cpp_kernel_hand(by_hand, k.def_loc.file, &got)) << line;
    EXPECT_NE(got.find(why), std::string::npos) << line << ": declined for " << got;
  }
}

TEST(CppKernelHand, DeclinesWhatClangRejects) {
  install_optional_readers();
  FixtureKernels fk = all_fixture_kernels();
  const Kernel* div = s2_cpu_div_kernel(fk);
  ASSERT_NE(div, nullptr);
  struct Edit {
    const char* what;
    std::string from, to;
    std::string why = "";  // part of the reason the hand reader gives, where another reason could also decline
  };
  const std::vector<Edit> edits = {
      {"a local takes a parameter's name", "auto tmp1 = static_cast<float>(2.0);", "auto in_out_ptr0 = static_cast<float>(2.0);"},
      {"a name in its own auto initializer", "auto tmp1 = static_cast<float>(2.0);", "auto tmp1 = static_cast<float>(tmp1);"},
      {"a declaration as an if's branch is gone after it", "if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(592L)))\n                {",
       "if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(592L)))\n                auto tmp9 = 1; { auto tmp10 = tmp9;"},
      {"a string glued to a name", "extern \"C\"  void", "extern \"C\"void"},
      {"a vector divided by a double", "auto tmp3 = tmp0 / tmp2;", "auto tmp3 = tmp0 / 2.0;"},
      {"a store through a pointer to const", "float* in_out_ptr0", "const float* in_out_ptr0"},
      {"a keyword as the kernel's name", "void  kernel(", "void  static_cast("},
      {"std::max of two types", "auto tmp1 = static_cast<float>(2.0);", "auto tmp1 = std::max(static_cast<float>(2.0), 1.0);"},
      {"an array value-initialized through decltype", "auto tmp1 = static_cast<float>(2.0);",
       "float tmp9[16];\n                    auto tmp8 = decltype(tmp9)();\n                    auto tmp1 = static_cast<float>(2.0);",
       "decltype of an array"},
      {"a local array assigned whole", "auto tmp1 = static_cast<float>(2.0);",
       "float tmp9[16];\n                    float tmp8[16];\n                    tmp9 = tmp8;\n                    auto tmp1 = static_cast<float>(2.0);"},
      {"a transpose into a pointer to const", "auto tmp3 = tmp0 / tmp2;",
       "auto tmp3 = tmp0 / tmp2;\n                    float tmp9[16];\n                    "
       "transpose_mxn<float,static_cast<int64_t>(4L),static_cast<int64_t>(4L),false>(tmp9, static_cast<int64_t>(4L), "
       "static_cast<const float*>(tmp9), static_cast<int64_t>(4L));"},
      {"c10::div_floor_integer of long and int", "auto tmp1 = static_cast<float>(2.0);",
       "auto tmp1 = static_cast<float>(c10::div_floor_integer(x0, 16));"},
      {"a VecMask::from<U,L> of another vector", "auto tmp3 = tmp0 / tmp2;",
       "auto tmp3 = tmp0 / tmp2;\n                    auto tmp4 = at::vec::VecMask<float,1>::from<int64_t,2>(tmp3);"},
      // The prelude's TORCH_CHECK is a macro: a local of that name, called, is the macro to Clang.
      // C++17 forbids ++ on a bool (fuzz_cpp_kernel_hand: `for (bool x1_inner = 0; ...; x1_inner++)`).
      {"++ of a bool", "auto tmp1 = static_cast<float>(2.0);",
       "bool tmp9 = false;\n                    tmp9++;\n                    auto tmp1 = static_cast<float>(2.0);", "on a bool"},
      // (The store below it declines the kernel too: the reason tells which check fired.)
      {"-- through a pointer to const", "float* in_out_ptr0)\n{\n    {\n        for(int64_t x0",
       "const float* in_out_ptr0)\n{\n    {\n        in_out_ptr0[0]--;\n        for(int64_t x0", "through a pointer to const"},
      {"a local named like a prelude macro", "auto tmp3 = tmp0 / tmp2;",
       "auto TORCH_CHECK = [](at::vec::Vectorized<float>& x, at::vec::Vectorized<float>& y) { return x / y; };\n"
       "                    auto tmp3 = TORCH_CHECK(tmp0, tmp2);"},
  };
  for (const auto& e : edits) {
    Kernel k = *div;
    size_t at = k.source.find(e.from);
    ASSERT_NE(at, std::string::npos) << e.what;
    k.source.replace(at, e.from.size(), e.to);
    Kernel by_hand = k, by_clang = k;
    std::string why;
    EXPECT_FALSE(read_cpp_kernel_hand(by_hand, k.def_loc.file, &why)) << e.what;
    if (!e.why.empty()) EXPECT_NE(why.find(e.why), std::string::npos) << e.what << ": declined for another reason: " << why;
    EXPECT_EQ(ilint::testing::kernel_facts(by_hand), ilint::testing::kernel_facts(k)) << e.what;
    DiagSink diags;
    read_cpp_kernel_clang(by_clang, k.def_loc.file, diags);
    EXPECT_FALSE(by_clang.parse_errors.empty()) << e.what << ": Clang accepts it, so declining it is not needed";
  }
}
#endif
