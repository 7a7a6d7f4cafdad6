// Element types, and how each dump spells them.
#pragma once
#include <string>
#include <string_view>

namespace ilint {

enum class DType { Unknown, Bool, I8, U8, I16, I32, I64, F8E4M3, F8E5M2, F16, BF16, F32, F64, C64, C128 };

// Accepts every spelling seen in Inductor output: FX annotations ("bf16", "f32", "i64", "b8"),
// Triton signatures ("*bf16", "fp32", "i32"), Triton dtypes ("tl.bfloat16"), torch dtypes
// ("torch.bfloat16"), C++ types ("at::BFloat16", "c10::Half", "float", "double", "int64_t", "bfloat16").
DType parse_dtype(std::string_view text);

// Short name as FX prints it ("bf16", "f32").
std::string dtype_name(DType d);

bool is_low_precision_float(DType d);  // bf16, fp16, fp8
bool is_float(DType d);

// Unit roundoff u = 2^-p for a floating dtype (bf16 2^-8, fp16 2^-11, fp32 2^-24); 0 otherwise.
double unit_roundoff(DType d);

}  // namespace ilint
