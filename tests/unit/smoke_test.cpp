#include <gtest/gtest.h>
#include "analyzer/model/dtype.h"
TEST(DType, ParsesSpellings) {
  EXPECT_EQ(ilint::parse_dtype("*bf16"), ilint::DType::BF16);
  EXPECT_EQ(ilint::parse_dtype("const at::BFloat16*"), ilint::DType::BF16);
  EXPECT_EQ(ilint::parse_dtype("tl.float32"), ilint::DType::F32);
  EXPECT_EQ(ilint::parse_dtype("torch.bfloat16"), ilint::DType::BF16);
  EXPECT_EQ(ilint::parse_dtype("int64_t"), ilint::DType::I64);
  EXPECT_EQ(ilint::parse_dtype("nonsense"), ilint::DType::Unknown);
}
