// WordSet / WordMap: the fixed vocabularies of the hand readers. A word is found exactly when it
// is one of the words given, whatever its length, its neighbours in the table, or a prefix or
// extension of it being a word.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "analyzer/util/word_set.h"

namespace ilint {
namespace {

TEST(WordSet, FindsExactlyTheWordsGiven) {
  const WordSet kw = {"if", "else", "for", "static_cast", "a", "", "int64_t"};
  for (std::string_view w : {"if", "else", "for", "static_cast", "a", "", "int64_t"}) EXPECT_TRUE(kw.contains(w)) << w;
  // Prefixes, extensions, other cases, a NUL byte more: none is a word.
  for (std::string_view w : {"i", "iff", "If", "els", "static_cast_", "b", "int64_", "int64_t ", "fo"})
    EXPECT_FALSE(kw.contains(w)) << w;
  EXPECT_FALSE(kw.contains(std::string_view("if\0", 3)));
  // A view of other storage with the same bytes is the same word.
  std::string copy = "static_cast";
  EXPECT_TRUE(kw.contains(copy));
}

TEST(WordSet, ManyWordsCollideAndStillAnswerExactly) {
  // More words than the first table size (8 slots): the table grows, probes run into each other.
  const WordSet big = {"w0",  "w1",  "w2",  "w3",  "w4",  "w5",  "w6",  "w7",  "w8",  "w9",  "w10", "w11",
                       "w12", "w13", "w14", "w15", "w16", "w17", "w18", "w19", "w20", "w21", "w22", "w23",
                       "w24", "w25", "w26", "w27", "w28", "w29", "w30", "w31", "w32", "w33", "w34", "w35"};
  for (int i = 0; i < 36; ++i) EXPECT_TRUE(big.contains("w" + std::to_string(i))) << i;
  for (int i = 36; i < 2000; ++i) EXPECT_FALSE(big.contains("w" + std::to_string(i))) << i;
  EXPECT_FALSE(big.contains("w"));
  EXPECT_FALSE(big.contains(""));
  const WordSet none = {};
  EXPECT_FALSE(none.contains(""));
  EXPECT_FALSE(none.contains("w0"));
}

TEST(WordMap, GivesTheValueOfEachWordAndTheFirstOfADuplicate) {
  const WordMap<int> m = {{"maximum", 2}, {"clamp", 3}, {"fmadd", 3}, {"maximum", 9}};
  ASSERT_NE(m.find("maximum"), nullptr);
  EXPECT_EQ(*m.find("maximum"), 2);
  ASSERT_NE(m.find("clamp"), nullptr);
  EXPECT_EQ(*m.find("clamp"), 3);
  EXPECT_EQ(m.find("clamp_min"), nullptr);
  EXPECT_EQ(m.find("minimum"), nullptr);
  EXPECT_TRUE(m.contains("fmadd"));
  EXPECT_FALSE(m.contains("fmsub"));
}

}  // namespace
}  // namespace ilint
