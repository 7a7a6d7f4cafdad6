#include "analyzer/clang/clang_common.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>

namespace ilint::clangx {

namespace {

// Keeps Clang's errors (not warnings: generated code is full of unknown pragmas) with their place.
class ErrorCollector : public clang::DiagnosticConsumer {
 public:
  explicit ErrorCollector(std::vector<ClangError>& out) : out_(out) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    ClangError e;
    llvm::SmallString<256> msg;
    info.FormatDiagnostic(msg);
    e.message = std::string(msg.str());
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const auto& sm = info.getSourceManager();
      auto loc = sm.getExpansionLoc(info.getLocation());
      if (sm.isWrittenInMainFile(loc)) {
        e.line = static_cast<int>(sm.getPresumedLineNumber(loc));
        e.column = static_cast<int>(sm.getPresumedColumnNumber(loc));
      } else {
        e.in_prelude = true;
        e.line = static_cast<int>(sm.getPresumedLineNumber(loc));
      }
    }
    out_.push_back(std::move(e));
  }

 private:
  std::vector<ClangError>& out_;
};

}  // namespace

ParsedUnit parse_cpp(const std::string& code, const std::string& prelude_name, const std::string& prelude_text) {
  ParsedUnit pu;
  ErrorCollector collector(pu.errors);
  std::vector<std::string> args = {
      "-std=c++17", "-fsyntax-only", "-nostdinc", "-nostdinc++", "-w", "-ferror-limit=50",
      "-fno-delayed-template-parsing", "-resource-dir", ILINT_CLANG_RESOURCE_DIR,
      "-include", prelude_name,
  };
  clang::tooling::FileContentMappings mapped = {{prelude_name, prelude_text}};
  pu.ast = clang::tooling::buildASTFromCodeWithArgs(code, args, "/ilint-input/kernel.cpp", "inductor-lint",
                                                    std::make_shared<clang::PCHContainerOperations>(),
                                                    clang::tooling::getClangStripDependencyFileAdjuster(),
                                                    mapped, &collector);
  if (!pu.ast && pu.errors.empty()) pu.errors.push_back({0, 0, false, "clang could not build an AST"});
  return pu;
}

std::string blank_includes(const std::string& code) {
  std::string out;
  out.reserve(code.size());
  size_t pos = 0;
  while (pos <= code.size()) {
    size_t nl = code.find('\n', pos);
    size_t end = nl == std::string::npos ? code.size() : nl;
    std::string_view line(code.data() + pos, end - pos);
    size_t first = line.find_first_not_of(" \t");
    bool is_include = first != std::string_view::npos && line.substr(first).rfind("#include", 0) == 0;
    if (!is_include) out.append(line);
    if (nl == std::string::npos) break;
    out.push_back('\n');
    pos = nl + 1;
  }
  return out;
}

const clang::Expr* strip(const clang::Expr* e) {
  while (e) {
    const clang::Expr* next = e->IgnoreImplicit();
    if (auto* ce = llvm::dyn_cast<clang::CXXConstructExpr>(next)) {
      // Elidable copies/moves and converting constructors the code did not spell.
      if (!llvm::isa<clang::CXXTemporaryObjectExpr>(ce) && ce->getNumArgs() >= 1 &&
          (ce->isElidable() || ce->getConstructor()->isCopyOrMoveConstructor() ||
           ce->getParenOrBraceRange().isInvalid())) {
        next = ce->getArg(0);
      }
    } else if (auto* bt = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(next)) {
      next = bt->getSubExpr();
    } else if (auto* mt = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(next)) {
      next = mt->getSubExpr();
    } else if (auto* fc = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(next)) {
      // `Vectorized<float>(x)` parses as a functional cast around a construct expr: keep it,
      // the caller classifies it. Nothing to strip.
      (void)fc;
    }
    if (next == e) break;
    e = next;
  }
  return e;
}

DType elem_dtype(clang::QualType t) {
  if (t.isNull()) return DType::Unknown;
  t = t.getNonReferenceType();
  while (t->isPointerType() || t->isArrayType()) {
    t = t->isPointerType() ? t->getPointeeType() : clang::QualType(t->getArrayElementTypeNoTypeQual(), 0);
  }
  clang::QualType c = t.getCanonicalType();
  if (auto* bt = c->getAs<clang::BuiltinType>()) {
    switch (bt->getKind()) {
      case clang::BuiltinType::Bool: return DType::Bool;
      case clang::BuiltinType::Char_S:
      case clang::BuiltinType::SChar: return DType::I8;
      case clang::BuiltinType::Char_U:
      case clang::BuiltinType::UChar: return DType::U8;
      case clang::BuiltinType::Short: return DType::I16;
      case clang::BuiltinType::Int: return DType::I32;
      case clang::BuiltinType::Long:
      case clang::BuiltinType::LongLong: return DType::I64;
      case clang::BuiltinType::Half:
      case clang::BuiltinType::Float16: return DType::F16;
      case clang::BuiltinType::BFloat16: return DType::BF16;
      case clang::BuiltinType::Float: return DType::F32;
      case clang::BuiltinType::Double: return DType::F64;
      default: return DType::Unknown;
    }
  }
  if (auto* rd = c->getAsCXXRecordDecl()) {
    std::string name = rd->getNameAsString();
    if (auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd)) {
      const auto& targs = spec->getTemplateArgs();
      if (targs.size() >= 1 && targs[0].getKind() == clang::TemplateArgument::Type) {
        if (name == "Vectorized" || name == "VectorizedN" || name == "VecMask" || name == "Welford" ||
            name == "IndexValue" || name == "array" || name == "atomic" || name == "CascadeSumHelper")
          return elem_dtype(targs[0].getAsType());
      }
    }
    if (name == "BFloat16") return DType::BF16;
    if (name == "Half") return DType::F16;
    if (name == "Float8_e4m3fn") return DType::F8E4M3;
    if (name == "Float8_e5m2") return DType::F8E5M2;
  }
  return DType::Unknown;
}

std::string node_text(const clang::SourceRange& r, const clang::ASTContext& ctx) {
  const auto& sm = ctx.getSourceManager();
  auto range = clang::CharSourceRange::getTokenRange(sm.getExpansionRange(r).getAsRange());
  llvm::StringRef text = clang::Lexer::getSourceText(range, sm, ctx.getLangOpts());
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (char ch : text) {
    if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(ch);
  }
  return out;
}

int main_file_line(clang::SourceLocation loc, const clang::SourceManager& sm, int* column) {
  if (loc.isInvalid()) return 0;
  auto e = sm.getExpansionLoc(loc);
  if (!sm.isWrittenInMainFile(e)) return 0;
  if (column) *column = static_cast<int>(sm.getPresumedColumnNumber(e));
  return static_cast<int>(sm.getPresumedLineNumber(e));
}

}  // namespace ilint::clangx
