// IString / IStringList: equal values share one copy, whichever thread made them, however many
// values the tables hold (they grow by rehashing: addresses handed out must survive that).
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/util/source_loc.h"

namespace ilint {
namespace {

TEST(Interning, EqualTextsShareOneCopyAndDifferentTextsDoNot) {
  std::string a = "tmp0 = tl.load(in_ptr0 + (x0), xmask)";
  IString x(a), y{std::string_view(a)}, z(a.c_str());
  EXPECT_EQ(x.c_str(), y.c_str());
  EXPECT_EQ(x.c_str(), z.c_str());
  IString w("tmp0 = tl.load(in_ptr0 + (x0), xmask) ");  // one more byte
  EXPECT_NE(x.c_str(), w.c_str());
  EXPECT_FALSE(x == w);
  // An IString passed on as a std::string& (the pooled text itself) interns to itself.
  const std::string& pooled = x;
  EXPECT_EQ(IString(pooled).c_str(), x.c_str());
  EXPECT_TRUE(IString("").empty());
  EXPECT_EQ(IString("").c_str(), IString().c_str());
}

TEST(Interning, TextsThatDifferInOneByteAnywhereAreTwoValues) {
  // Lengths around the hash's 8-byte steps, NUL bytes inside (binary input): a NUL is a byte of
  // the text, not its end, and zero padding of a short last step must not make two texts equal.
  for (size_t n : {1u, 7u, 8u, 9u, 15u, 16u, 17u, 40u}) {
    std::string a(n, 'x');
    for (size_t at = 0; at < n; ++at) {
      std::string b = a;
      b[at] = '\0';
      IString ia(a), ib(b);
      EXPECT_NE(ia.c_str(), ib.c_str()) << n << " " << at;
      EXPECT_EQ(ib.str(), b);
      EXPECT_EQ(IString(b).c_str(), ib.c_str());
    }
  }
}

TEST(Interning, AddressesSurviveTableGrowth) {
  // Far more values than the first table size (1024): several rehashes of both tables.
  std::vector<IString> first;
  for (int i = 0; i < 50000; ++i) first.emplace_back("buf" + std::to_string(i));
  for (int i = 0; i < 50000; i += 997) {
    IString again("buf" + std::to_string(i));
    EXPECT_EQ(again.c_str(), first[i].c_str());
    EXPECT_EQ(again.str(), "buf" + std::to_string(i));
  }
}

TEST(Interning, ThreadsAgreeOnEveryValue) {
  // Each thread interns the same texts in its own order: its own table misses at first, so the
  // shared one must hand out the value another thread made.
  constexpr int kThreads = 4, kValues = 16384;  // a power of two: k -> k * odd + c is a permutation
  std::vector<std::vector<const char*>> seen(kThreads, std::vector<const char*>(kValues));
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([t, &seen] {
      for (int k = 0; k < kValues; ++k) {
        int i = (k * (2 * t + 1) + t * 7) % kValues;
        seen[t][i] = IString("thread-shared text " + std::to_string(i)).c_str();
      }
    });
  for (auto& th : pool) th.join();
  for (int i = 0; i < kValues; ++i)
    for (int t = 1; t < kThreads; ++t) ASSERT_EQ(seen[t][i], seen[0][i]) << "value " << i;
}

TEST(Interning, ListsShareOneCopyPerValue) {
  IStringList a(std::vector<IString>{"8", "s0", "1"});
  IStringList b{IString("8"), IString("s0"), IString("1")};
  IStringList c{IString("8"), IString("1"), IString("s0")};
  EXPECT_TRUE(a == b);
  EXPECT_EQ(&a.vec(), &b.vec());
  EXPECT_FALSE(a == c);
  EXPECT_TRUE(IStringList().empty());
  std::vector<IStringList> many;
  for (int i = 0; i < 5000; ++i) many.emplace_back(std::vector<IString>{IString(std::to_string(i)), "1"});
  EXPECT_EQ(&IStringList(std::vector<IString>{"123", "1"}).vec(), &many[123].vec());
}

// FxGraph's name index (a flat table of positions, not a map): a name finds the last node added
// under it, any string finds by text, a missing name finds nothing, and growth keeps every entry.
TEST(FxGraphIndex, FindsTheLastNodeOfANameThroughGrowth) {
  FxGraph g;
  EXPECT_EQ(g.find("add"), nullptr);
  for (int i = 0; i < 1000; ++i) {
    FxNode n;
    n.name = "n" + std::to_string(i % 700);  // 300 names come twice
    n.target = std::to_string(i);
    g.add(std::move(n));
  }
  ASSERT_EQ(g.nodes.size(), 1000u);
  for (int k = 0; k < 700; ++k) {
    const FxNode* f = g.find(std::string("n") + std::to_string(k));
    ASSERT_NE(f, nullptr) << k;
    EXPECT_EQ(f->target, std::to_string(k < 300 ? k + 700 : k));
  }
  EXPECT_EQ(g.find("n700"), nullptr);
  EXPECT_EQ(g.find(""), nullptr);
  FxGraph moved = std::move(g);
  ASSERT_NE(moved.find("n5"), nullptr);
  EXPECT_EQ(moved.find("n5")->target, "705");
  FxGraph copy = moved;
  EXPECT_EQ(copy.find("n699")->target, "699");
  EXPECT_EQ(copy.find("n699"), &copy.nodes[699]);
}

}  // namespace
}  // namespace ilint
