// Shared by the two Clang translation units (kernel_reader.cpp, wrapper_reader.cpp): parsing a
// C++ string in memory with a mapped prelude, capturing Clang's errors, and small AST helpers.
// Includes Clang headers: include it only from those two files.
#pragma once
#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/dtype.h"
#include "analyzer/model/model.h"

namespace clang {
class NamespaceDecl;
}

namespace ilint::clangx {

// One error Clang reported. `line` is a line of the parsed source (0 when it has none);
// `in_prelude` is set when the error lies in one of our mapped headers. `not_given` is set when
// the code was not handed to Clang at all, past a limit of analyzer/cpp/cpp_limits.h.
struct ClangError {
  int line = 0;
  int column = 0;
  bool in_prelude = false;
  std::string message;
  bool not_given = false;
};

// One parsed translation unit. The AST lives as long as this object; `ctx` is null when Clang
// could not even start (then `errors` says why).
class ParsedUnit {
 public:
  ParsedUnit();
  ~ParsedUnit();
  ParsedUnit(ParsedUnit&&) noexcept;
  ParsedUnit& operator=(ParsedUnit&&) noexcept;
  clang::ASTContext* ctx = nullptr;
  std::vector<ClangError> errors;

  struct State;  // the compiler instance and frontend action that own the AST
  std::unique_ptr<State> state;
};

// Parses `code` as C++17, -fsyntax-only, with no system header and `prelude_text` included
// first (mapped in memory as `prelude_name`), then `extra_decls` (code-specific declarations,
// may be empty). Every `#include` line of `code` must already be blanked by the caller; lines
// and columns of `code` are reported as they are in `code`.
//
// The prelude is the same text for thousands of kernels, so every parse loads it precompiled
// instead of re-parsing ~15 KB of declarations: from the PCH file the build wrote next to the
// binary (write_prelude_pch, below), or, when that file is missing, stale or refused, from a
// precompiled preamble built in memory on first use (clang::PrecompiledPreamble, as clangd
// does; ~60M instructions a prelude, a third to a half of analysing one small capture). Same
// AST either way. A parse writes nothing to disk. Thread-safe.
//
// Code past the limits of cpp_limits.h (nesting that could overflow Clang's stack, macros that
// could expand without bound) is not parsed: the unit has no AST and one error, `not_given`.
//
// `skip_body`, when set, is asked for each function definition: a function it answers true for
// is parsed without its body (clang's -fskip-function-bodies, per function), its body left for
// the caller to find with skipped_body_end.
using SkipBody = std::function<bool(const clang::FunctionDecl& f)>;
ParsedUnit parse_cpp(const std::string& code, const std::string& prelude_name, const std::string& prelude_text,
                     const std::string& extra_decls = "", SkipBody skip_body = {});

// ------------------------------------------------------------------ the prelude, precompiled at build time

// Writes the PCH of a prelude into `dir` (which must exist), named prelude_pch_file_name:
// a header (a key of the prelude text, the arguments and the Clang version; the PCH's size and
// checksum), then Clang's PCH of the prelude made with the arguments of every parse. Written to
// a temporary name and renamed. False, with *error, when Clang reports an error in the prelude
// or a file cannot be written. Run by the build (analyzer/cpp/clang/make_prelude_pch.cpp).
bool write_prelude_pch(const std::string& name, const std::string& text, const std::string& dir,
                       std::string* error);

// "<key>.pch": another prelude, other arguments or another Clang give another name, so a stale
// file is never even opened.
std::string prelude_pch_file_name(const std::string& name, const std::string& text);

// The header write_prelude_pch puts before a PCH `payload` of this prelude (tests forge files
// with it: a header that checks out over a payload Clang refuses).
std::string prelude_pch_header(const std::string& name, const std::string& text, std::string_view payload);

// Where parses look for prebuilt PCH files: `ilint-pch/` beside the binary holding this code,
// unless a test sets a directory ("" for none). std::nullopt restores the default.
void set_prelude_pch_dir(std::optional<std::string> dir);

// How parses against a prelude get it (prepares it if not done yet), for tests and reports.
enum class PreludeSource { Prebuilt, BuiltInMemory, None };
PreludeSource prelude_source(const std::string& name, const std::string& text);

// The two preludes (kernel_reader.cpp, wrapper_reader.cpp): name and text.
struct PreludeText {
  std::string name, text;
};
const PreludeText& kernel_prelude();
const PreludeText& wrapper_prelude();

// The closing brace of a function whose body was skipped (invalid when not found): the raw
// token stream after its declarator, braces counted.
clang::SourceLocation skipped_body_end(const clang::FunctionDecl& f, const clang::ASTContext& ctx);

// Replaces each `#include ...` line by an empty line, so the prelude stands in for it
// (blank_cpp_includes, analyzer/cpp/cpp_text.h: the hand readers blank the same lines).
std::string blank_includes(const std::string& code);

// ------------------------------------------------------------------ batches
//
// Several codes in one translation unit (a batch): each Clang run pays a fixed cost (a compiler
// instance, loading the precompiled prelude, deserializing the prelude declarations it looks
// up) that a batch pays once for all its members. The kernel reader batches kernels, the
// wrapper reader wrappers; both build the unit and find each member's AST the same way here.
//
// Each member goes in a namespace of its own, `<prefix><i>`, so its declarations stay apart
// from the others', with its lines restored by `#line 1`, so Clang reports its own lines. The
// macros a member defines or undefines are saved before it and restored after it
// (`#pragma push_macro`/`pop_macro`), so the next member sees what it would see alone.

// True when `code` can share a translation unit. Its preprocessor directives must be `#include`
// (the caller blanks those), `#pragma`, or, only when `macros` is given, `#define`/`#undef`,
// whose macro names are appended to *macros. Refused, too, is what a look for lines that start
// with '#' could miss or what would unbalance the batch's macro stack: a '#' anywhere but at the
// start of its line (`/* c */ #define X`), the digraph `%:`, `_Pragma`, `push_macro`/`pop_macro`
// of its own; and a namespace of its own (other than `using namespace`), whose braces could
// close the member's namespace early. Lines end at "\n", "\r\n" or a lone "\r", as for Clang.
bool can_share_unit(std::string_view code, std::vector<std::string>* macros);

// One member of a batch: its code (includes already blanked) and the macros it defines.
struct BatchMember {
  std::string code;
  std::vector<std::string> macros;
};

// The batch's translation unit (to pass to parse_cpp): the members, in order, each in namespace
// `<ns_prefix><i>` with its line numbers restored.
std::string batch_unit(std::string_view ns_prefix, const std::vector<BatchMember>& members);

// The namespaces of a parsed batch unit, by member index; empty when one is missing.
std::vector<const clang::NamespaceDecl*> batch_scopes(const clang::ASTContext& ctx, std::string_view ns_prefix,
                                                      size_t count);

// Strips implicit nodes, parentheses-free: implicit casts, temporaries, cleanups and elidable
// copy constructions, so `auto x = Vectorized<float>::loadu(...)` reaches the call.
const clang::Expr* strip(const clang::Expr* e);

// Element dtype of a type: builtins, c10::BFloat16/Half/Float8_*, and the first template argument
// of Vectorized<T>, VectorizedN<T,N>, VecMask<T,N>, Welford<T>, IndexValue<T>, std::array<T,N>.
// Pointers and references are looked through.
DType elem_dtype(clang::QualType t);

// The source text of a node's range, whitespace collapsed to single spaces.
std::string node_text(const clang::SourceRange& r, const clang::ASTContext& ctx);

// A kernel parameter as the model has it: name, type as written ("const at::BFloat16*"),
// pointer/const/restrict, element dtype.
KernelParam kernel_param_of(const clang::ParmVarDecl& p, const clang::ASTContext& ctx);

// Line/column in the main file of a location (macro expansions resolved); 0 when not in it.
int main_file_line(clang::SourceLocation loc, const clang::SourceManager& sm, int* column = nullptr);

}  // namespace ilint::clangx
