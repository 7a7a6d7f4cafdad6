#include "analyzer/cpp/clang/clang_common.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/Lex/Lexer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/PrecompiledPreamble.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "analyzer/cpp/cpp_limits.h"
#include "analyzer/cpp/cpp_text.h"
#include "analyzer/util/hash.h"
#include "analyzer/util/text.h"

namespace ilint::clangx {

namespace {

// A line or column Clang presumes (after `#line`), or 0 past any real source: a kernel's own
// `#line 2147483647` must not become an int that overflows when it is moved to a file line.
int presumed(unsigned n) { return n > (1u << 26) ? 0 : static_cast<int>(n); }

// Keeps Clang's errors (not warnings: generated code is full of unknown pragmas) with their place.
class ErrorCollector : public clang::DiagnosticConsumer {
 public:
  explicit ErrorCollector(std::vector<ClangError>& out) : out_(out) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    llvm::SmallString<256> msg;
    info.FormatDiagnostic(msg);
    if (level < clang::DiagnosticsEngine::Error) return;
    ClangError e;
    e.message = std::string(msg.str());
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const auto& sm = info.getSourceManager();
      auto loc = sm.getExpansionLoc(info.getLocation());
      if (sm.isWrittenInMainFile(loc)) {
        e.line = presumed(sm.getPresumedLineNumber(loc));
        e.column = e.line > 0 ? presumed(sm.getPresumedColumnNumber(loc)) : 0;
      } else {
        e.in_prelude = true;
        e.line = presumed(sm.getPresumedLineNumber(loc));
      }
    }
    out_.push_back(std::move(e));
  }

 private:
  std::vector<ClangError>& out_;
};

}  // namespace

namespace {

const char* const kMainFileName = "/ilint-input/kernel.cpp";
const char* const kExtraDeclsName = "/ilint-prelude/ilint_extra_decls.h";
const char* const kPchName = "/ilint-prelude/prelude.pch";

// The precompiled prelude file the build writes (prelude_pch_file_name) is a header of
// kPchHeaderSize bytes, then Clang's PCH. The header names the key the file was made for and
// the payload's size and checksum, so a stale, truncated or damaged file is refused before Clang
// reads a byte of it. 64 bytes keep the payload as aligned as the file.
constexpr size_t kPchHeaderSize = 64;
constexpr const char* kPchMagic = "ilint-prelude-pch";

// Everything that is the same for every parse against one prelude: the compiler invocation and
// the prelude precompiled once, either read from the file the build made (`pch`) or built in
// memory when the process first needs it (`preamble`).
struct PreparedPrelude {
  std::string name, text;
  // What every main file starts with: the prelude's #include, with the preamble (or none); empty
  // with the prebuilt PCH, which Clang includes implicitly, ahead of the main file.
  std::string main_prefix;
  std::shared_ptr<clang::CompilerInvocation> invocation;
  std::unique_ptr<llvm::MemoryBuffer> pch_file;        // the prebuilt file, when it is used
  std::optional<clang::PrecompiledPreamble> preamble;  // empty with `pch`, or: parse the prelude every time
  std::vector<ClangError> prelude_errors;              // errors in the prelude, repeated on every parse
  std::string failure;                                 // why there is no invocation at all

  // The prebuilt file's PCH, after its header; empty without one.
  llvm::StringRef pch() const {
    return pch_file ? pch_file->getBuffer().drop_front(kPchHeaderSize) : llvm::StringRef();
  }
};

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> make_vfs(const PreparedPrelude& p, const std::string* extra) {
  // The parse sees no real file system: only the prelude, the extra declarations and the
  // precompiled prelude exist, in memory (the main file is remapped). An `#include` the kernel text
  // still holds, in whatever spelling (`# include`, `%:include`, `#import`, a backslash-newline
  // inside the word), is "file not found": a capture cannot make Clang open /dev/stdin, a FIFO or a
  // local file and quote it back in a diagnostic.
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> mem(new llvm::vfs::InMemoryFileSystem);
  mem->setCurrentWorkingDirectory("/ilint-input");
  mem->addFile(p.name, 0, llvm::MemoryBuffer::getMemBuffer(p.text, p.name));
  if (extra) mem->addFile(kExtraDeclsName, 0, llvm::MemoryBuffer::getMemBuffer(*extra, kExtraDeclsName));
  if (p.pch_file) mem->addFile(kPchName, 0, llvm::MemoryBuffer::getMemBuffer(p.pch(), kPchName, false));
  return mem;
}

class QuietCallbacks : public clang::PreambleCallbacks {};

const std::vector<const char*>& clang_args() {
  static const std::vector<const char*> args = {
      "clang++", "-x", "c++", "-std=c++17", "-fsyntax-only", "-nostdinc", "-nostdinc++", "-w",
      "-ferror-limit=50", "-ftemplate-depth=128", "-fno-delayed-template-parsing", "-fno-spell-checking",
      "-resource-dir", ILINT_CLANG_RESOURCE_DIR,
      kMainFileName,
  };
  return args;
}

// Sets p.invocation (or p.failure).
void make_invocation(PreparedPrelude& p) {
  std::vector<ClangError> driver_errors;
  ErrorCollector driver_collector(driver_errors);
  auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  auto driver_diags = clang::CompilerInstance::createDiagnostics(diag_opts.get(), &driver_collector, false);
  std::unique_ptr<clang::CompilerInvocation> ci =
      clang::createInvocationFromCommandLine(clang_args(), driver_diags, make_vfs(p, nullptr));
  if (!ci) {
    p.failure = driver_errors.empty() ? "clang could not make a compiler invocation" : driver_errors[0].message;
    return;
  }
  ci->getFrontendOpts().DisableFree = false;  // the driver asks to leak the AST at exit; we parse thousands
  ci->getFrontendOpts().ProgramAction = clang::frontend::ParseSyntaxOnly;
  // `#pragma clang __debug crash` (and llvm_fatal_error, overflow_stack, assert, llvm_unreachable,
  // also as `_Pragma(...)`) would kill or hang the process on Clang's say; clangd turns them off too.
  ci->getPreprocessorOpts().DisablePragmaDebugCrash = true;
  p.invocation = std::shared_ptr<clang::CompilerInvocation>(std::move(ci));
}

// What a PCH depends on: the prelude, the arguments and the Clang it was made by. Two preludes
// or two Clangs never share a file name.
std::string pch_key(const std::string& name, const std::string& text) {
  std::string all = std::string(kPchMagic) + " 1\n" + clang::getClangFullVersion() + "\n" + name + "\n";
  for (const char* a : clang_args()) all.append(a).push_back('\n');
  all += text;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(text_hash(std::string_view(all))));
  return hex;
}

std::string pch_file_name(const std::string& key) { return key + ".pch"; }

std::string pch_header(const std::string& key, llvm::StringRef payload) {
  char h[kPchHeaderSize + 1];
  int n = std::snprintf(h, sizeof h, "%s %s %zu %016llx\n", kPchMagic, key.c_str(), payload.size(),
                        static_cast<unsigned long long>(text_hash(std::string_view(payload.data(), payload.size()))));
  // Longer than the header only for a payload of 100 GB or more: cut (and never matched).
  std::string header(h, n < 0 ? 0 : std::min(static_cast<size_t>(n), kPchHeaderSize));
  header.resize(kPchHeaderSize, ' ');
  header.back() = '\n';
  return header;
}

// The directory the prebuilt files are looked for in: set by a test, or `ilint-pch/` next to
// the binary holding this code (libilint-clang.so, or an executable that links it in).
std::mutex pch_dir_mu;
std::optional<std::string> pch_dir_override;

std::string default_pch_dir() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&pch_key), &info) || !info.dli_fname) return "";
  std::string self = info.dli_fname;
  size_t slash = self.rfind('/');
  return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/ilint-pch";
}

std::string pch_dir() {
  {
    std::lock_guard<std::mutex> lock(pch_dir_mu);
    if (pch_dir_override) return *pch_dir_override;
  }
  static const std::string dir = default_pch_dir();
  return dir;
}

ParsedUnit parse_with(const PreparedPrelude& prep, const std::string& code, const std::string& extra_decls,
                      SkipBody skip_body);

// Uses the prebuilt PCH of this prelude when there is one that checks out: its header matches,
// and an empty parse against it raises no error (Clang's own checks of version and options).
bool use_prebuilt_pch(PreparedPrelude& p, const std::string& dir) {
  if (dir.empty()) return false;
  const std::string key = pch_key(p.name, p.text);
  auto file = llvm::MemoryBuffer::getFile(dir + "/" + pch_file_name(key), /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file || (*file)->getBufferSize() < kPchHeaderSize) return false;
  llvm::StringRef all = (*file)->getBuffer();
  llvm::StringRef payload = all.drop_front(kPchHeaderSize);
  if (all.take_front(kPchHeaderSize) != pch_header(key, payload)) return false;
  p.pch_file = std::move(*file);
  ParsedUnit probe = parse_with(p, "", "", {});
  if (probe.ctx && probe.errors.empty()) return true;
  p.pch_file.reset();
  return false;
}

void build_preamble(PreparedPrelude& p) {
  p.main_prefix = "#include \"" + p.name + "\"\n";
  auto main = llvm::MemoryBuffer::getMemBufferCopy(p.main_prefix, kMainFileName);
  clang::PreambleBounds computed = clang::ComputePreambleBounds(*p.invocation->getLangOpts(), main->getMemBufferRef(), 0);
  if (computed.Size != p.main_prefix.size()) return;  // not a plain preamble: parse the prelude each time
  // The preamble ends at the start of a line in every real main file (the prefix ends with a
  // newline); computed on the prefix alone it ends at end of file instead, and the line after it
  // would not start a directive.
  clang::PreambleBounds bounds(computed.Size, /*PreambleEndsAtStartOfLine=*/true);
  ErrorCollector collector(p.prelude_errors);
  auto diags = clang::CompilerInstance::createDiagnostics(&p.invocation->getDiagnosticOpts(), &collector, false);
  QuietCallbacks callbacks;
  auto built = clang::PrecompiledPreamble::Build(*p.invocation, main.get(), bounds, *diags, make_vfs(p, nullptr),
                                                 std::make_shared<clang::PCHContainerOperations>(),
                                                 /*StoreInMemory=*/true, callbacks);
  if (built) p.preamble.emplace(std::move(*built));
  for (auto& e : p.prelude_errors) e.in_prelude = true;
}

void prepare(PreparedPrelude& p, const std::string& dir) {
  make_invocation(p);
  if (!p.invocation) return;
  if (use_prebuilt_pch(p, dir)) return;
  build_preamble(p);
}

const PreparedPrelude& prepared(const std::string& name, const std::string& text) {
  struct Slot {
    std::once_flag once;
    PreparedPrelude p;
  };
  static std::mutex mu;
  // By directory too, so a test that points the analyzer elsewhere gets a prelude of its own.
  static std::map<std::tuple<std::string, std::string, std::string>, std::unique_ptr<Slot>> slots;
  const std::string dir = pch_dir();
  Slot* slot;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto& s = slots[{name, text, dir}];
    if (!s) s = std::make_unique<Slot>();
    slot = s.get();
  }
  std::call_once(slot->once, [&] {
    slot->p.name = name;
    slot->p.text = text;
    prepare(slot->p, dir);
  });
  return slot->p;
}

}  // namespace

std::string prelude_pch_file_name(const std::string& name, const std::string& text) {
  return pch_file_name(pch_key(name, text));
}

std::string prelude_pch_header(const std::string& name, const std::string& text, std::string_view payload) {
  return pch_header(pch_key(name, text), llvm::StringRef(payload.data(), payload.size()));
}

void set_prelude_pch_dir(std::optional<std::string> dir) {
  std::lock_guard<std::mutex> lock(pch_dir_mu);
  pch_dir_override = std::move(dir);
}

PreludeSource prelude_source(const std::string& name, const std::string& text) {
  const PreparedPrelude& p = prepared(name, text);
  if (p.pch_file) return PreludeSource::Prebuilt;
  if (p.preamble) return PreludeSource::BuiltInMemory;
  return PreludeSource::None;
}

bool write_prelude_pch(const std::string& name, const std::string& text, const std::string& dir,
                       std::string* error) {
  PreparedPrelude p;
  p.name = name;
  p.text = text;
  make_invocation(p);
  if (!p.invocation) {
    *error = p.failure;
    return false;
  }
  const std::string key = pch_key(name, text);
  const std::string file = dir + "/" + pch_file_name(key);
  const std::string clang_out = file + ".clang.tmp", tmp = file + ".tmp";
  // The prelude itself is the main file, parsed with the options of every later parse (so the
  // PCH's language options are theirs), into a PCH.
  auto ci = std::make_shared<clang::CompilerInvocation>(*p.invocation);
  ci->getFrontendOpts().Inputs = {clang::FrontendInputFile(name, clang::InputKind(clang::Language::CXX))};
  ci->getFrontendOpts().OutputFile = clang_out;
  ci->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
  std::vector<ClangError> errors;
  ErrorCollector collector(errors);
  clang::CompilerInstance compiler(std::make_shared<clang::PCHContainerOperations>());
  compiler.setInvocation(std::move(ci));
  compiler.createDiagnostics(&collector, /*ShouldOwnClient=*/false);
  compiler.createFileManager(make_vfs(p, nullptr));
  clang::GeneratePCHAction action;
  bool ok = compiler.ExecuteAction(action) && errors.empty();
  if (!ok) {
    *error = errors.empty() ? "clang could not write " + clang_out
                            : name + ":" + std::to_string(errors[0].line) + ": " + errors[0].message;
    std::remove(clang_out.c_str());
    return false;
  }
  auto written = llvm::MemoryBuffer::getFile(clang_out, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!written) {
    *error = "cannot read back " + clang_out;
    return false;
  }
  llvm::StringRef payload = (*written)->getBuffer();
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << pch_header(key, payload);
    out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
    if (!out.flush()) {
      *error = "cannot write " + tmp;
      std::remove(clang_out.c_str());
      std::remove(tmp.c_str());
      return false;
    }
  }
  std::remove(clang_out.c_str());
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);  // whole or not at all: a reader never sees half a file
  if (ec) {
    *error = "cannot rename " + tmp + ": " + ec.message();
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

struct ParsedUnit::State {
  std::string main_text, extra_decls;  // the files the parse reads (the AST points into them)
  std::vector<ClangError> late_errors;  // anything Clang says after the parse (nothing, normally)
  std::unique_ptr<ErrorCollector> collector;
  std::unique_ptr<clang::CompilerInstance> compiler;
  std::unique_ptr<clang::FrontendAction> action;
  bool begun = false;
  ~State() {
    if (action && begun) action->EndSourceFile();
  }
};

ParsedUnit::ParsedUnit() = default;
ParsedUnit::~ParsedUnit() = default;
ParsedUnit::ParsedUnit(ParsedUnit&&) noexcept = default;
ParsedUnit& ParsedUnit::operator=(ParsedUnit&&) noexcept = default;

namespace {

class BodySkippingConsumer : public clang::ASTConsumer {
 public:
  explicit BodySkippingConsumer(const SkipBody& skip) : skip_(skip) {}
  bool shouldSkipFunctionBody(clang::Decl* d) override {
    const clang::FunctionDecl* f = d ? d->getAsFunction() : nullptr;
    return f && skip_(*f);
  }

 private:
  const SkipBody& skip_;
};

class BodySkippingAction : public clang::SyntaxOnlyAction {
 public:
  explicit BodySkippingAction(SkipBody skip) : skip_(std::move(skip)) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<BodySkippingConsumer>(skip_);
  }

 private:
  SkipBody skip_;
};

}  // namespace

clang::SourceLocation skipped_body_end(const clang::FunctionDecl& f, const clang::ASTContext& ctx) {
  const auto& sm = ctx.getSourceManager();
  clang::SourceLocation from = sm.getExpansionLoc(f.getEndLoc());
  if (from.isInvalid()) return {};
  auto [fid, offset] = sm.getDecomposedLoc(from);
  bool invalid = false;
  llvm::StringRef buf = sm.getBufferData(fid, &invalid);
  if (invalid || offset > buf.size()) return {};
  clang::Lexer lex(sm.getLocForStartOfFile(fid), ctx.getLangOpts(), buf.begin(), buf.begin() + offset, buf.end());
  int depth = 0;
  bool opened = false;
  clang::Token tok;
  for (;;) {
    bool at_end = lex.LexFromRawLexer(tok);
    if (tok.is(clang::tok::l_brace)) {
      ++depth;
      opened = true;
    } else if (tok.is(clang::tok::r_brace) && opened && --depth == 0) {
      return tok.getLocation();
    }
    if (at_end || tok.is(clang::tok::eof)) return {};
  }
}

namespace {

// `clang __debug` pragmas turned into an unknown (ignored) `clang __debuG`, in place (offsets and
// columns unchanged). DisablePragmaDebugCrash stops the ones that crash, but not the ones that write
// to the process's stderr: `crash` still times itself and LLVM prints the timer table, `diag_mapping`
// dumps object addresses, `macro X` and `dump X` dump, so a mutated kernel made the analyzer's
// stderr differ between runs. Clang gives no way to unregister its handler (the pragma namespace is
// private), so the pragma is respelled: wherever `__debug` follows `clang` (a directive, a
// `_Pragma("...")` string, a macro argument that becomes one). An identifier pasted together with
// `##` or spliced by a backslash-newline still reaches the handler.
void respell_clang_debug_pragmas(std::string& text, size_t from) {
  static constexpr std::string_view kWord = "__debug";
  for (size_t at = text.find(kWord, from); at != std::string::npos; at = text.find(kWord, at + kWord.size())) {
    size_t end = at + kWord.size();
    if ((at > 0 && is_ident_char(text[at - 1])) || (end < text.size() && is_ident_char(text[end]))) continue;
    size_t b = at;
    while (b > from && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
    if (b == at || b < from + 5 || text.compare(b - 5, 5, "clang") != 0) continue;
    if (b > 5 && is_ident_char(text[b - 6])) continue;  // `xclang __debug` is not the pragma
    text[end - 1] = 'G';
  }
}

ParsedUnit parse_with(const PreparedPrelude& prep, const std::string& code, const std::string& extra_decls,
                      SkipBody skip_body) {
  ParsedUnit pu;
  if (!prep.invocation) {
    pu.errors.push_back({0, 0, false, prep.failure});
    return pu;
  }
  // The main file: the prelude's #include (served from the precompiled preamble), the
  // code-specific declarations, then the code with its own line numbers restored by #line.
  std::string main_text = prep.main_prefix;
  if (!extra_decls.empty()) main_text += std::string("#include \"") + kExtraDeclsName + "\"\n";
  main_text += "#line 1\n";
  size_t code_at = main_text.size();
  main_text += code;
  if (code.find("__debug") != std::string::npos) respell_clang_debug_pragmas(main_text, code_at);

  pu.state = std::make_unique<ParsedUnit::State>();
  ParsedUnit::State& st = *pu.state;
  st.main_text = std::move(main_text);
  st.extra_decls = extra_decls;
  // One copy at a time: two threads copying the shared invocation at once aborted the analyzer
  // (std::bad_alloc / bad_array_new_length thrown inside CompilerInvocationRefBase's copy, both
  // threads there; about one -j2 run in six on a 50k-kernel corpus). The copy is microseconds.
  static std::mutex invocation_mu;
  std::shared_ptr<clang::CompilerInvocation> invocation;
  {
    std::lock_guard<std::mutex> lock(invocation_mu);
    invocation = std::make_shared<clang::CompilerInvocation>(*prep.invocation);
  }
  auto vfs = make_vfs(prep, st.extra_decls.empty() ? nullptr : &st.extra_decls);
  // The main file is a remapped buffer whose ownership passes to the SourceManager
  // (RetainRemappedFileBuffers is false). AddImplicitPreamble remaps it itself.
  auto main = llvm::MemoryBuffer::getMemBuffer(st.main_text, kMainFileName);
  if (prep.pch_file) {
    invocation->getPreprocessorOpts().ImplicitPCHInclude = kPchName;
    invocation->getPreprocessorOpts().addRemappedFile(kMainFileName, main.release());
  } else if (prep.preamble) {
    prep.preamble->AddImplicitPreamble(*invocation, vfs, main.release());
  } else {
    invocation->getPreprocessorOpts().addRemappedFile(kMainFileName, main.release());
  }

  std::vector<ClangError> errors;
  st.collector = std::make_unique<ErrorCollector>(errors);
  st.compiler = std::make_unique<clang::CompilerInstance>(std::make_shared<clang::PCHContainerOperations>());
  st.compiler->setInvocation(std::move(invocation));
  st.compiler->createDiagnostics(st.collector.get(), /*ShouldOwnClient=*/false);
  st.compiler->createFileManager(vfs);
  if (skip_body) {
    st.compiler->getFrontendOpts().SkipFunctionBodies = true;
    st.action = std::make_unique<BodySkippingAction>(std::move(skip_body));
  } else {
    st.action = std::make_unique<clang::SyntaxOnlyAction>();
  }
  bool ok = st.compiler->createTarget() &&
            (st.begun = st.action->BeginSourceFile(*st.compiler, st.compiler->getFrontendOpts().Inputs[0]));
  if (ok) {
    if (llvm::Error e = st.action->Execute()) {
      errors.push_back({0, 0, false, llvm::toString(std::move(e))});
      ok = false;
    }
  }
  if (ok && st.compiler->hasASTContext()) pu.ctx = &st.compiler->getASTContext();
  // Errors of the prelude itself were reported once, when it was precompiled: every parse repeats
  // them, as a parse without the preamble would.
  pu.errors = prep.preamble ? prep.prelude_errors : std::vector<ClangError>{};
  pu.errors.insert(pu.errors.end(), errors.begin(), errors.end());
  st.collector = std::make_unique<ErrorCollector>(st.late_errors);
  st.compiler->getDiagnostics().setClient(st.collector.get(), false);
  if (!pu.ctx && pu.errors.empty()) pu.errors.push_back({0, 0, false, "clang could not build an AST"});
  return pu;
}

}  // namespace

ParsedUnit parse_cpp(const std::string& code, const std::string& prelude_name, const std::string& prelude_text,
                     const std::string& extra_decls, SkipBody skip_body) {
  // Checked before Clang sees the text: past these limits Clang can crash or run without end.
  for (const std::string* text : {&extra_decls, &code}) {
    if (text->empty()) continue;
    if (std::optional<CppLimitBreach> breach = check_cpp_limits(*text)) {
      ParsedUnit refused;
      ClangError e;
      e.line = text == &code ? breach->line : 0;
      e.not_given = true;
      e.message = breach->message;
      refused.errors.push_back(std::move(e));
      return refused;
    }
  }
  return parse_with(prepared(prelude_name, prelude_text), code, extra_decls, std::move(skip_body));
}

namespace {

std::string_view ident_at(std::string_view s, size_t pos) {
  size_t e = pos;
  while (e < s.size() && is_ident_char(s[e])) ++e;
  return s.substr(pos, e - pos);
}

// True when `code` has a `namespace` keyword not part of `using namespace`.
bool declares_namespace(std::string_view code) {
  static constexpr std::string_view kw = "namespace";
  for (size_t p = 0; (p = code.find(kw, p)) != std::string_view::npos; p += kw.size()) {
    bool word = (p == 0 || !is_ident_char(code[p - 1])) &&
                (p + kw.size() >= code.size() || !is_ident_char(code[p + kw.size()]));
    if (!word) continue;
    size_t b = p;
    while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t')) --b;
    bool after_using = b >= 5 && code.substr(b - 5, 5) == "using" && (b == 5 || !is_ident_char(code[b - 6]));
    if (!after_using) return true;
  }
  return false;
}

}  // namespace

bool can_share_unit(std::string_view code, std::vector<std::string>* macros) {
  for (std::string_view word : {"%:", "_Pragma", "push_macro", "pop_macro"})
    if (code.find(word) != std::string_view::npos) return false;
  if (declares_namespace(code)) return false;
  // Only lines with a '#' matter: found with memchr, so the rest of the code is not walked line
  // by line (this runs on every kernel and wrapper).
  static constexpr const char* kSpace = " \t\f\v";
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; };
  for (size_t hash = code.find('#'); hash != std::string_view::npos; hash = code.find('#', hash)) {
    size_t bol = hash;
    while (bol > 0 && is_space(code[bol - 1])) --bol;
    // Anything before the '#' on its line (a comment, say) might still leave it a directive.
    if (bol > 0 && code[bol - 1] != '\n' && code[bol - 1] != '\r') return false;
    size_t eol = hash;
    while (eol < code.size() && code[eol] != '\n' && code[eol] != '\r') ++eol;
    std::string_view line = code.substr(hash, eol - hash);
    size_t d = line.find_first_not_of(kSpace, 1);
    std::string_view name = d == std::string_view::npos ? std::string_view() : ident_at(line, d);
    if (macros && (name == "define" || name == "undef")) {
      size_t m = line.find_first_not_of(kSpace, d + name.size());
      std::string_view macro = m == std::string_view::npos ? std::string_view() : ident_at(line, m);
      if (macro.empty()) return false;
      macros->emplace_back(macro);
    } else if (name != "include" && name != "pragma") {
      return false;
    }
    hash = eol;
  }
  return true;
}

std::string batch_unit(std::string_view ns_prefix, const std::vector<BatchMember>& members) {
  size_t bytes = 0;
  for (const auto& m : members) bytes += m.code.size() + 64 + 48 * m.macros.size();
  std::string tu;
  tu.reserve(bytes);
  for (size_t i = 0; i < members.size(); ++i) {
    const BatchMember& m = members[i];
    for (const auto& name : m.macros) tu.append("#pragma push_macro(\"").append(name).append("\")\n");
    tu.append("namespace ").append(ns_prefix).append(std::to_string(i)).append(" {\n#line 1\n");
    tu += m.code;
    if (tu.back() != '\n' && tu.back() != '\r') tu += '\n';
    tu += "}\n";
    for (auto it = m.macros.rbegin(); it != m.macros.rend(); ++it)
      tu.append("#pragma pop_macro(\"").append(*it).append("\")\n");
  }
  return tu;
}

std::vector<const clang::NamespaceDecl*> batch_scopes(const clang::ASTContext& ctx, std::string_view ns_prefix,
                                                      size_t count) {
  std::vector<const clang::NamespaceDecl*> scopes(count, nullptr);
  for (auto* d : ctx.getTranslationUnitDecl()->noload_decls()) {
    auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(d);
    if (!ns || !ns->getIdentifier()) continue;
    llvm::StringRef name = ns->getName();
    if (!name.startswith(llvm::StringRef(ns_prefix.data(), ns_prefix.size()))) continue;
    size_t i = 0;
    if (name.drop_front(ns_prefix.size()).getAsInteger(10, i) || i >= count) continue;
    // Twice at the top level means a member's braces moved it: the batch is not to be trusted.
    if (scopes[i]) return {};
    scopes[i] = ns;
  }
  for (const auto* s : scopes)
    if (!s) return {};
  return scopes;
}

std::string blank_includes(const std::string& code) { return blank_cpp_includes(code); }

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
            name == "IndexValue" || name == "IndexValueVec" || name == "array" || name == "atomic" ||
            name == "CascadeSumHelper")
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
  // Inside a macro argument (`AOTI_TORCH_ERROR_CODE_CHECK(f(buf0, 3L))`) the written text is the
  // argument's; elsewhere in a macro, the whole expansion.
  auto range = clang::Lexer::makeFileCharRange(clang::CharSourceRange::getTokenRange(r), sm, ctx.getLangOpts());
  if (range.isInvalid()) range = clang::CharSourceRange::getTokenRange(sm.getExpansionRange(r).getAsRange());
  llvm::StringRef text = clang::Lexer::getSourceText(range, sm, ctx.getLangOpts());
  return collapse_blanks(std::string_view(text.data(), text.size()));
}

KernelParam kernel_param_of(const clang::ParmVarDecl& p, const clang::ASTContext& ctx) {
  KernelParam kp;
  kp.name = p.getName().str();
  clang::QualType t = p.getType();
  clang::PrintingPolicy pol(ctx.getLangOpts());
  pol.SuppressScope = false;
  // As written in the kernel ("const at::BFloat16*"), not canonicalized.
  // The TypeLoc range leaves out a leading `const`: start at the declaration.
  kp.type_text = node_text(clang::SourceRange(p.getBeginLoc(), p.getTypeSourceInfo()->getTypeLoc().getEndLoc()), ctx);
  if (kp.type_text.empty()) kp.type_text = t.getAsString(pol);
  kp.is_pointer = t->isPointerType();
  if (kp.is_pointer) {
    clang::QualType pointee = t->getPointeeType();
    kp.is_const = pointee.isConstQualified();
    kp.is_restrict = t.isRestrictQualified();
    kp.dtype = parse_dtype(pointee.getUnqualifiedType().getAsString(pol));
  } else {
    kp.is_const = t.isConstQualified();
    kp.dtype = parse_dtype(t.getUnqualifiedType().getAsString(pol));
  }
  if (kp.dtype == DType::Unknown) kp.dtype = elem_dtype(t);
  return kp;
}

int main_file_line(clang::SourceLocation loc, const clang::SourceManager& sm, int* column) {
  if (loc.isInvalid()) return 0;
  auto e = sm.getExpansionLoc(loc);
  if (!sm.isWrittenInMainFile(e)) return 0;
  int line = presumed(sm.getPresumedLineNumber(e));
  if (column) *column = line > 0 ? presumed(sm.getPresumedColumnNumber(e)) : 0;
  return line;
}

}  // namespace ilint::clangx
