// Shared by the two Clang translation units (kernel_reader.cpp, wrapper_reader.cpp): parsing a
// C++ string in memory with a mapped prelude, capturing Clang's errors, and small AST helpers.
// Includes Clang headers: include it only from those two files.
#pragma once
#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>

#include <memory>
#include <string>
#include <vector>

#include "analyzer/model/dtype.h"

namespace ilint::clangx {

// One error Clang reported. `line` is a line of the parsed source (0 when it has none);
// `in_prelude` is set when the error lies in one of our mapped headers.
struct ClangError {
  int line = 0;
  int column = 0;
  bool in_prelude = false;
  std::string message;
};

struct ParsedUnit {
  std::unique_ptr<clang::ASTUnit> ast;  // null when Clang could not even start
  std::vector<ClangError> errors;
};

// Parses `code` as C++17, -fsyntax-only, with no system header and `prelude_text` force-included
// (mapped in memory as `prelude_name`). Every `#include` line of `code` must already be blanked
// by the caller (line numbers stay as they are).
ParsedUnit parse_cpp(const std::string& code, const std::string& prelude_name, const std::string& prelude_text);

// Replaces each `#include ...` line by an empty line, so the prelude stands in for it.
std::string blank_includes(const std::string& code);

// Strips implicit nodes, parentheses-free: implicit casts, temporaries, cleanups and elidable
// copy constructions, so `auto x = Vectorized<float>::loadu(...)` reaches the call.
const clang::Expr* strip(const clang::Expr* e);

// Element dtype of a type: builtins, c10::BFloat16/Half/Float8_*, and the first template argument
// of Vectorized<T>, VectorizedN<T,N>, VecMask<T,N>, Welford<T>, IndexValue<T>, std::array<T,N>.
// Pointers and references are looked through.
DType elem_dtype(clang::QualType t);

// The source text of a node's range, whitespace collapsed to single spaces.
std::string node_text(const clang::SourceRange& r, const clang::ASTContext& ctx);

// Line/column in the main file of a location (macro expansions resolved); 0 when not in it.
int main_file_line(clang::SourceLocation loc, const clang::SourceManager& sm, int* column = nullptr);

}  // namespace ilint::clangx
