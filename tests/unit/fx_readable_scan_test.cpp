// The line reader of print_readable modules (parse_fx_readable in analyzer/parse/fx_text.h):
// where it takes a file, the graph and the diagnostics must be those of the Python parser's read.
// Checked on every fx_graph_readable.py of the fixtures, on hand cases it must take and ones it
// must leave to the parser, and on random edits of the fixture files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <unistd.h>
#include <string>
#include <vector>

#include "analyzer/parse/fx_text.h"
#include "analyzer/util/read_file.h"
#include "tests/fx_graph_text.h"

namespace {

using ilint::FxReadableRead;

struct File {
  std::string path, text;
};

const std::vector<File>& fixture_graphs() {
  static const std::vector<File> files = [] {
    std::vector<File> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(ILINT_FIXTURES_DIR)) {
      if (e.path().filename() != "fx_graph_readable.py") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      out.push_back({e.path().string(), ss.str()});
    }
    std::sort(out.begin(), out.end(), [](const File& a, const File& b) { return a.path < b.path; });
    return out;
  }();
  return files;
}

std::string read_as(const std::string& text, FxReadableRead how) {
  ilint::FxGraph g;
  ilint::DiagSink diags;
  bool ok = ilint::parse_fx_readable("fx_graph_readable.py", text, g, diags, how);
  return std::string(ok ? "ok\n" : "nothing\n") + ilint::testing::describe_fx(g, diags);
}

// Both reads of one text; true when the line reader took it.
bool same_both_ways(const std::string& text) {
  EXPECT_EQ(read_as(text, FxReadableRead::Scan), read_as(text, FxReadableRead::Parse)) << "text:\n" << text;
  return ilint::fx_readable_scans(text);
}

TEST(FxReadableScan, EveryFixtureGraphIsScannedAndReadAsTheParserReadsIt) {
  const auto& files = fixture_graphs();
  ASSERT_GT(files.size(), 50u);
  size_t scanned = 0;
  for (const auto& f : files) {
    bool yes = same_both_ways(f.text);
    scanned += yes;
    EXPECT_TRUE(yes) << f.path << " is left to the parser";
  }
  std::cout << "fixture graphs: " << files.size() << ", scanned: " << scanned << "\n";
}

const char* const kHead = "class GraphModule(torch.nn.Module):\n    def forward(self, arg0_1: \"f32[8]\", arg1_1: \"Sym(s0)\"):\n";

std::string module(const std::string& body) { return kHead + body; }

TEST(FxReadableScan, TakesTheFormsFxPrintsAsTheParserReadsThem) {
  const std::vector<std::string> bodies = {
      // A node, its user line, the `;  x = None` groups.
      "        # File: /w/a.py:3 in f, code: y = x * 2\n"
      "        mul: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, 2.0);  arg0_1 = None\n"
      "        return (mul,)\n",
      // Keyword arguments, nested calls and lists, negative numbers, strings, attributes.
      "        full: \"bf16[8, 1]\" = torch.ops.aten.full.default([8, 1], -0.5, -inf, inf, -nan, dtype = torch.bfloat16, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)\n"
      "        view: \"f32[2, 4]\" = torch.ops.aten.view.default(arg0_1, [2, 4]);  arg0_1 = None\n"
      "        return (full, view)\n",
      // Unannotated nodes, getitem, a bare op, a get_attr, a plain name value, `a = b = None`.
      "        split = torch.ops.aten.split.Tensor(arg0_1, 4, -1);  arg0_1 = None\n"
      "        getitem: \"f32[4]\" = split[0]\n"
      "        getitem_1: \"f32[4]\" = split[1];  split = None\n"
      "        torch.ops.aten.copy_.default(getitem, getitem_1);  getitem = getitem_1 = None\n"
      "        _tensor_constant0: \"f32[]\" = self._tensor_constant0\n"
      "        alias: \"f32[]\" = _tensor_constant0\n"
      "        return [alias, None]\n",
      // Comment blocks: one cut off by a blank line, "No stacktrace found", two comments in a row.
      "        # File: /w/a.py:3 in f, code: y = x\n"
      "\n"
      "        add: \"f32[8]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n"
      "        # File: /w/a.py:4 in f, code: z = y\n"
      "        # No stacktrace found for following nodes\n"
      "        copy_: \"f32[8]\" = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = None\n"
      "        return ()\n",
      // Numbers in their forms, an empty call, a statement that is not a node.
      "        x = y\n"
      "        scalar: \"f64[]\" = torch.ops.aten.scalar_tensor.default(1e-08, 0.09999999999999998, 9223372036854775807, 0, 00, 1.5E+3)\n"
      "        rand: \"f32[8]\" = torch.ops.prims.rand.default()\n"
      "        return rand\n",
      // No node at all: the empty-graph diagnostic, both ways.
      "        return ()\n",
  };
  for (const auto& b : bodies) {
    std::string text = module(b);
    EXPECT_TRUE(same_both_ways(text)) << "not scanned:\n" << text;
  }
}

TEST(FxReadableScan, LeavesToTheParserWhatItDoesNotTake) {
  const std::vector<std::string> texts = {
      module("        a: \"f32[8]\" = torch.ops.aten.view.default(arg0_1, (2, 4))\n        return (a,)\n"),  // a tuple
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1,\n            2.0)\n        return (a,)\n"),  // two lines
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, 2.0)  # why\n        return (a,)\n"),  // trailing comment
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, 'x\\'y')\n        return (a,)\n"),  // an escape
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, 2.0)\n\treturn (a,)\n"),  // a tab
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, -arg1_1)\n        return (a,)\n"),  // -name
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, 0x10)\n        return (a,)\n"),  // hex
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, 2.0)\n        return (a,)\n    class Sub(torch.nn.Module):\n        pass\n"),
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(x=arg0_1, 2.0)\n        return (a,)\n"),  // positional after keyword
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, 2.0)\n"),  // no return
      module("        a: \"f32[8]\" = arg0_1[0:2]\n        return (a,)\n"),  // a slice
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, 2.0);  arg0_1 = 3\n        return (a,)\n"),
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, lambda)\n        return (a,)\n"),  // a keyword
      module("        a: \"f32[8]\" = torch.ops.aten.mul.Tensor(arg0_1, None = 1)\n        return (a,)\n"),
      "# a comment first\n" + module("        return ()\n"),
      "class GraphModule(torch.nn.Module):\n    def forward(self, arg0_1: \"f32[8]\" = None):\n        return ()\n",
      "class Other(torch.nn.Module):\n    def forward(self):\n        return ()\n",
  };
  for (const auto& t : texts) {
    EXPECT_FALSE(same_both_ways(t)) << "scanned:\n" << t;
  }
}

// Random edits of the fixture files: characters deleted, inserted or replaced, lines repeated,
// dropped or moved, indentation changed. Whatever the line reader takes must read as the parser
// reads it. ILINT_FX_MUTANTS sets how many (default 3000).
TEST(FxReadableScan, RandomEditsReadTheSameEitherWay) {
  const auto& files = fixture_graphs();
  ASSERT_FALSE(files.empty());
  size_t count = 3000;
  if (const char* e = std::getenv("ILINT_FX_MUTANTS")) count = std::strtoul(e, nullptr, 10);
  std::mt19937_64 rng(20261205);
  const std::string alphabet = "(),[]=:; \"'#.-+e0123456789abx_\n\t\\NoneTrue";
  size_t scanned = 0;
  for (size_t i = 0; i < count; ++i) {
    std::string t = files[rng() % files.size()].text;
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits && !t.empty(); ++k) {
      size_t at = rng() % t.size();
      switch (rng() % 6) {
        case 0: t.erase(at, 1 + rng() % 3); break;
        case 1: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 2: t[at] = alphabet[rng() % alphabet.size()]; break;
        case 3: {  // a line repeated
          size_t b = t.rfind('\n', at);
          b = b == std::string::npos ? 0 : b + 1;
          size_t e = t.find('\n', at);
          e = e == std::string::npos ? t.size() : e + 1;
          t.insert(b, t.substr(b, e - b));
          break;
        }
        case 4: {  // a line dropped
          size_t b = t.rfind('\n', at);
          b = b == std::string::npos ? 0 : b + 1;
          size_t e = t.find('\n', at);
          e = e == std::string::npos ? t.size() : e + 1;
          t.erase(b, e - b);
          break;
        }
        default: {  // indentation changed
          size_t b = t.rfind('\n', at);
          b = b == std::string::npos ? 0 : b + 1;
          if (rng() % 2) t.insert(b, rng() % 2 ? "    " : " ");
          else if (t.compare(b, 4, "    ") == 0) t.erase(b, 4);
          break;
        }
      }
    }
    scanned += same_both_ways(t);
    if (HasFailure()) break;
  }
  std::cout << "edited graphs: " << count << ", scanned: " << scanned << "\n";
  EXPECT_GT(scanned, count / 10);  // the edits do reach the line reader, not only the parser
}

// read_fx_readable on a file: with blocks of `block_bytes`, the graph and the diagnostics of the
// file's text read whole and given to parse_fx_readable (the read's own diagnostics included).
void expect_read_in_blocks_as_whole(const std::string& path, size_t block_bytes) {
  std::string whole;
  ilint::FxGraph wg, bg;
  ilint::DiagSink wd, bd;
  bool wok = ilint::read_text_file(path, whole, wd) && ilint::parse_fx_readable(path, whole, wg, wd);
  size_t bytes = 0;
  bool bok = ilint::read_fx_readable(path, bg, bd, bytes, block_bytes);
  EXPECT_EQ(bok, wok) << path << ", blocks of " << block_bytes;
  EXPECT_EQ(ilint::testing::describe_fx(bg, bd), ilint::testing::describe_fx(wg, wd)) << path << ", blocks of " << block_bytes;
  EXPECT_EQ(bd.size(), wd.size()) << path << ", blocks of " << block_bytes << ": each diagnostic given once";
  EXPECT_EQ(bytes, whole.size()) << path;
}

TEST(FxReadableScan, EveryFixtureGraphReadInBlocksIsReadAsWhole) {
  // Blocks of 64 bytes cut nearly every comment run from its node; 4096, a few per file; the
  // default takes each fixture file in one block (the whole-file path).
  for (const auto& f : fixture_graphs())
    for (size_t block : {size_t{64}, size_t{4096}, ilint::kFxReadableBlockBytes}) {
      expect_read_in_blocks_as_whole(f.path, block);
      if (HasFailure()) return;
    }
}

TEST(FxReadableScan, EditedGraphsReadInBlocksAreReadAsWhole) {
  // Fixture files edited as a hostile or damaged capture would have them, written to a file:
  // bytes that stop the line reader halfway (a tab, a backslash: the parser then reads the
  // file whole), NULs and invalid UTF-8 (diagnostics counted across blocks, first line named),
  // a byte order mark, a line longer than a block, no newline at the end, an empty file.
  const auto& files = fixture_graphs();
  ASSERT_FALSE(files.empty());
  const std::string path = ::testing::TempDir() + "ilint_fx_blocks_" + std::to_string(::getpid()) + ".py";
  std::mt19937_64 rng(20261207);
  const std::vector<std::string> inserts = {"\t", "\\", std::string(1, '\0'), "\xff", "\xc3\xa9", "\n\n",
                                            std::string(300, 'x'), "        # File: /w/a.py:9 in f, code: y\n"};
  for (int i = 0; i < 120; ++i) {
    std::string t = files[rng() % files.size()].text;
    if (i % 10 == 0) t = "\xEF\xBB\xBF" + t;
    if (i % 15 == 1) t.pop_back();
    if (i == 2) t.clear();
    // Every block read, then no return: the parser reads the file again (its NUL said once).
    if (i == 3) t = t.substr(0, t.rfind("        return")) + "        # a NUL: " + std::string(1, '\0') + "\n";
    for (int k = 0; k < 2 && !t.empty() && i != 3; ++k) t.insert(rng() % t.size(), inserts[rng() % inserts.size()]);
    {
      std::ofstream out(path, std::ios::binary);
      out << t;
    }
    expect_read_in_blocks_as_whole(path, 64 + rng() % 512);
    if (HasFailure()) break;
  }
  std::remove(path.c_str());
}

}  // namespace
