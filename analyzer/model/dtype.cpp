#include "analyzer/model/dtype.h"

#include <cmath>
#include <string>

namespace ilint {

namespace {
std::string_view strip(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '*' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '*' || s.back() == '&' || s.back() == '\t')) s.remove_suffix(1);
  for (std::string_view p : {"const ", "tl.", "torch.", "at::", "c10::", "std::"}) {
    while (s.substr(0, p.size()) == p) {
      s.remove_prefix(p.size());
      while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    }
  }
  // "const at::BFloat16" after stripping "const " leaves "at::BFloat16": loop once more.
  for (std::string_view p : {"at::", "c10::"}) {
    if (s.substr(0, p.size()) == p) s.remove_prefix(p.size());
  }
  if (s.size() > 6 && s.substr(s.size() - 6) == " const") s.remove_suffix(6);
  return s;
}
}  // namespace

DType parse_dtype(std::string_view text) {
  // A bare name ("bf16", "float32", "int64_t") has none of the characters the prefixes and
  // suffixes strip() removes hold (' ', '*', '&', '.', ':', tab): skip it for those.
  bool bare = !text.empty();
  for (char c : text) bare &= (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  std::string_view s = bare ? text : strip(text);
  struct Name { std::string_view n; DType d; };
  static const Name names[] = {
      {"bf16", DType::BF16}, {"bfloat16", DType::BF16}, {"BFloat16", DType::BF16},
      {"f16", DType::F16}, {"fp16", DType::F16}, {"float16", DType::F16}, {"half", DType::F16}, {"Half", DType::F16},
      {"f32", DType::F32}, {"fp32", DType::F32}, {"float32", DType::F32}, {"float", DType::F32},
      {"f64", DType::F64}, {"fp64", DType::F64}, {"float64", DType::F64}, {"double", DType::F64},
      {"i64", DType::I64}, {"int64", DType::I64}, {"int64_t", DType::I64}, {"long", DType::I64},
      {"i32", DType::I32}, {"int32", DType::I32}, {"int32_t", DType::I32}, {"int", DType::I32},
      {"i16", DType::I16}, {"int16", DType::I16}, {"int16_t", DType::I16},
      {"i8", DType::I8}, {"int8", DType::I8}, {"int8_t", DType::I8},
      {"u8", DType::U8}, {"uint8", DType::U8}, {"uint8_t", DType::U8},
      {"b8", DType::Bool}, {"i1", DType::Bool}, {"bool", DType::Bool}, {"int1", DType::Bool},
      {"f8e4m3fn", DType::F8E4M3}, {"fp8e4nv", DType::F8E4M3}, {"float8_e4m3fn", DType::F8E4M3},
      {"f8e5m2", DType::F8E5M2}, {"fp8e5", DType::F8E5M2}, {"float8_e5m2", DType::F8E5M2},
      {"c64", DType::C64}, {"complex64", DType::C64}, {"c128", DType::C128}, {"complex128", DType::C128},
  };
  // Compared by length and first byte before the bytes: the table is scanned for every
  // annotation, parameter and cast the parsers read.
  for (const auto& n : names)
    if (n.n.size() == s.size() && n.n[0] == s[0] && s == n.n) return n.d;
  return DType::Unknown;
}

std::string dtype_name(DType d) {
  switch (d) {
    case DType::Bool: return "b8";
    case DType::I8: return "i8";
    case DType::U8: return "u8";
    case DType::I16: return "i16";
    case DType::I32: return "i32";
    case DType::I64: return "i64";
    case DType::F8E4M3: return "f8e4m3fn";
    case DType::F8E5M2: return "f8e5m2";
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::F32: return "f32";
    case DType::F64: return "f64";
    case DType::C64: return "c64";
    case DType::C128: return "c128";
    case DType::Unknown: break;
  }
  return "unknown";
}

bool is_low_precision_float(DType d) {
  return d == DType::BF16 || d == DType::F16 || d == DType::F8E4M3 || d == DType::F8E5M2;
}

bool is_float(DType d) {
  return is_low_precision_float(d) || d == DType::F32 || d == DType::F64;
}

double unit_roundoff(DType d) {
  switch (d) {
    case DType::BF16: return std::ldexp(1.0, -8);
    case DType::F16: return std::ldexp(1.0, -11);
    case DType::F32: return std::ldexp(1.0, -24);
    case DType::F64: return std::ldexp(1.0, -53);
    case DType::F8E4M3: return std::ldexp(1.0, -4);
    case DType::F8E5M2: return std::ldexp(1.0, -3);
    default: return 0;
  }
}

}  // namespace ilint
