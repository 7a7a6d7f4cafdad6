// Builds the Dynamo layer of the model from the three Dynamo logs, and joins it to the compile
// folders: frames and their compiles, graph breaks, and the Python scalars that cross graph
// breaks, with the guards that pin each of them and the compiled literals that derive from them.
//
// Files of one capture (one process) are read together: a capture is the folder above `trace/`,
// `torch_compile_debug/`, or the folder holding a TORCH_LOGS file. Compile ids are only unique
// within one torch.compile session of one process, so every capture and session gets its own
// session number in the model.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "analyzer/dynamo/literals.h"
#include "analyzer/dynamo/readers.h"
#include "analyzer/model/sym_expr.h"
#include "analyzer/dynamo/dynamo_model.h"
#include "analyzer/util/hash.h"
#include "analyzer/util/text.h"

namespace ilint {

using namespace dynamo;
namespace fs = std::filesystem;

namespace {

std::string capture_root_of(const std::string& path) {
  // A relative input (`inductor-lint torch_compile_debug`) starts with the folder's name: seen
  // with a leading '/', it is the same capture as its absolute spelling's (root ".").
  const std::string slashed = "/" + path;
  for (const char* marker : {"/trace/", "/torch_compile_debug/"}) {
    auto p = slashed.rfind(marker);
    if (p != std::string::npos) return p == 0 ? std::string(".") : path.substr(0, p - 1);
  }
  return fs::path(path).parent_path().string();
}

std::string basename_of(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (s.empty()) return;
  for (const auto& x : v)
    if (x == s) return;
  v.push_back(s);
}

// Merges what the TORCH_LOGS text and the TORCH_TRACE log say about one compile.
void merge_into(CompileFacts& dst, const CompileFacts& src) {
  if (dst.function.empty() || src.source_kind == "trace") {
    if (!src.function.empty()) dst.function = src.function;
  }
  if (!dst.code_loc.valid() && src.code_loc.valid()) dst.code_loc = src.code_loc;
  if (!dst.guards_seen && src.guards_seen) {
    dst.guards = src.guards;
    dst.guards_seen = true;
  }
  for (size_t i = 0; i < src.recompile_reasons.size(); ++i) {
    bool have = std::find(dst.recompile_reasons.begin(), dst.recompile_reasons.end(), src.recompile_reasons[i]) !=
                dst.recompile_reasons.end();
    if (!have) {
      dst.recompile_reasons.push_back(src.recompile_reasons[i]);
      if (i < src.failures.size()) dst.failures.push_back(src.failures[i]);
    }
  }
  if (dst.failures.empty()) dst.failures = src.failures;
  if (!dst.recompile_log_loc.valid()) dst.recompile_log_loc = src.recompile_log_loc;
  for (const auto& d : src.compile_dirs) add_unique(dst.compile_dirs, d);
  for (const auto& a : src.aot_ids) add_unique(dst.aot_ids, a);
  if (dst.output_code_hash.empty()) dst.output_code_hash = src.output_code_hash;
  if (dst.aot_outputs.empty() && dst.joint_pass_outputs.empty()) {
    dst.aot_outputs = src.aot_outputs;
    dst.joint_pass_outputs = src.joint_pass_outputs;
  }
  for (const auto& e : src.cache_events) add_unique(dst.cache_events, e);
  for (const auto& r : src.restart_reasons) add_unique(dst.restart_reasons, r);
  for (const auto& s : src.symbols)
    if (std::find(dst.symbols.begin(), dst.symbols.end(), s) == dst.symbols.end()) dst.symbols.push_back(s);
  for (const auto& s : src.symbol_sources)
    if (std::find(dst.symbol_sources.begin(), dst.symbol_sources.end(), s) == dst.symbol_sources.end())
      dst.symbol_sources.push_back(s);
  for (const auto& s : src.specializations) add_unique(dst.specializations, s);
  for (const auto& s : src.shape_env_guards) add_unique(dst.shape_env_guards, s);
  if (dst.graph_inputs.empty()) dst.graph_inputs = src.graph_inputs;
  for (const auto& e : src.sym_exprs) add_unique(dst.sym_exprs, e);
  dst.has_graph = dst.has_graph || src.has_graph;
  dst.frame_skipped = dst.frame_skipped || src.frame_skipped;
}

// "ork/steering/probe/seed1.py" (Dynamo cuts guard-comment paths) -> the full user path that ends so.
void resolve_path(std::optional<SourceLoc>& loc, const std::vector<std::string>& user_files) {
  if (!loc) return;
  for (const auto& f : user_files)
    if (f == loc->file) return;
  for (const auto& f : user_files)
    if (ends_with(f, loc->file.str())) {
      loc->file = f;
      return;
    }
}

bool parse_resume_name(const std::string& fn, std::string& resumed, int& line) {
  static const std::string prefix = "torch_dynamo_resume_in_";
  if (!starts_with(fn, prefix)) return false;
  auto at = fn.rfind("_at_");
  if (at == std::string::npos || at < prefix.size()) return false;
  resumed = fn.substr(prefix.size(), at - prefix.size());
  line = leading_int(std::string_view(fn).substr(at + 4));
  return line > 0;
}

bool is_float_text(const std::string& v) { return looks_like_float_literal(v); }

// Python's repr of a float: "2.0", "0.001" (shortest text that reads back the same).
std::string normalize_value(const std::string& text) {
  double v;
  if (!parse_float_literal(text, v) || !std::isfinite(v)) return text;
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e16) {
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
  }
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// The graph input that carries a frame local: Dynamo names L['___stack0'] "L_stack0_", L['step'] "L_step_".
bool input_is_local(const std::string& input, const std::string& local) {
  auto colon = input.find(':');
  std::string name = input.substr(0, colon);
  std::string stripped = local;
  while (!stripped.empty() && stripped[0] == '_') stripped.erase(0, 1);
  return name == "L_" + stripped + "_" || name == "L_" + local + "_";
}

// `<expression naming L['local']> == <number>`, the number maybe in parentheses.
bool pins_through_expression(const std::string& expr, const std::string& local) {
  if (expr.find("L['" + local + "']") == std::string::npos) return false;
  auto eq = expr.rfind(" == ");
  if (eq == std::string::npos) return false;
  std::string rhs = trim(std::string_view(expr).substr(eq + 4));
  while (rhs.size() >= 2 && rhs.front() == '(' && rhs.back() == ')') rhs = trim(std::string_view(rhs).substr(1, rhs.size() - 2));
  double v;
  return parse_float_literal(rhs, v);
}

std::string annotation_of(const std::string& input) {
  auto colon = input.find(": ");
  return colon == std::string::npos ? "" : input.substr(colon + 2);
}

// A literal site of a compile as a literal derived from a scalar (under `key`, its place in the
// aligned compiles).
DerivedLiteral derived_literal(const LiteralSite& s, const std::string& key) {
  DerivedLiteral d;
  d.where = s.where;
  d.text = s.text;
  d.value = s.value;
  d.key = key;
  d.node = s.node;
  d.target = s.target;
  d.loc = s.loc;
  d.user_loc = s.user_loc;
  d.user_code = s.user_code;
  d.compile_id = s.compile_id;
  return d;
}

// A compile that takes the scalar as a dynamic input and is not pinned by a guard: a literal of its
// code that equals one of its Dynamo graph's symbolic expressions of the scalar, evaluated at the
// scalar's hint, was computed from the hint and baked in (the tensorify pass's guard_scalar).
void add_sym_derived(ScalarCrossing& sc, const std::vector<std::map<std::string, LiteralSite>>& sites,
                     const DynamoModel& dm) {
  const Frame* fr = dm.frame(sc.session, sc.into_frame);
  if (!fr) return;
  for (size_t i = 0; i < sc.uses.size(); ++i) {
    ScalarUse& u = sc.uses[i];
    double hint;
    if (u.pinned_by_guard || u.symbol.empty() || !parse_float_literal(u.value, hint) || sites[i].empty()) continue;
    // The expressions of this compile (and of its restarted attempts: same frame compile).
    const FrameCompile* self = nullptr;
    for (const auto& c : fr->compiles)
      if (c.compile_id == u.compile_id) self = &c;
    if (!self) continue;
    std::vector<std::pair<std::string, double>> values;
    for (const auto& c : fr->compiles) {
      if (c.frame_compile_id != self->frame_compile_id) continue;
      for (const auto& e : c.sym_exprs) {
        auto names = sym_expr_symbols(e);
        if (std::find(names.begin(), names.end(), u.symbol) == names.end()) continue;
        if (auto v = eval_sym_expr(e, {{u.symbol, hint}}); v && std::isfinite(*v)) values.push_back({e, *v});
      }
    }
    for (const auto& [key, s] : sites[i]) {
      bool have = false;
      for (const auto& d : u.literals) have |= d.key == key;
      if (have) continue;
      for (const auto& [e, v] : values) {
        if (std::fabs(s.value - v) > 1e-12 * std::max(1.0, std::fabs(v))) continue;
        if (std::fabs(v) == hint || v == 0.0) continue;  // the hint itself, or 0, proves nothing
        DerivedLiteral d = derived_literal(s, key);
        d.derived_by = "sym_expr";
        d.expr = e + " at " + u.symbol + "=" + u.value;
        u.literals.push_back(std::move(d));
        break;
      }
    }
  }
}

// A compile of the capture the logs' compiles are joined to: a compile folder, or a compile
// read from the capture's TORCH_TRACE (joined by its compile id and session).
struct FolderInfo {
  const CompileFiles* files = nullptr;
  std::string name;  // model__3_inference_2.2
  int model_index = -1;
  std::string kind;
};

}  // namespace

// What read_dynamo_logs read: each capture's logs, in capture order.
struct DynamoLogs {
  // The inputs of one capture: its logs and its compile folders.
  struct Capture {
    std::vector<std::string> torch_logs, traces, debug_logs;
    std::vector<const CompileFiles*> folders;
  };
  struct CaptureLogs {
    std::string root;
    Capture cap;
    LogFacts tl, tr, dl;               // TORCH_LOGS text, TORCH_TRACE, debug.log
    std::vector<std::string> sources;  // the files read, in that order
  };
  std::vector<CaptureLogs> captures;
  size_t files_read = 0;
};

std::shared_ptr<DynamoLogs> read_dynamo_logs(const IngestResult& in, DiagSink& diags) {
  auto logs = std::make_shared<DynamoLogs>();
  // Group the inputs by capture.
  std::map<std::string, DynamoLogs::Capture> captures;
  for (const auto& p : in.torch_logs) captures[capture_root_of(p)].torch_logs.push_back(p);
  for (const auto& p : in.trace_logs) captures[capture_root_of(p)].traces.push_back(p);
  for (const auto& p : in.dynamo_debug_logs) captures[capture_root_of(p)].debug_logs.push_back(p);
  for (const auto& cf : in.compiles) {
    std::string root = capture_root_of(cf.dir.empty() ? cf.output_code.str() : cf.dir + "/x");
    auto it = captures.find(root);
    if (it != captures.end()) it->second.folders.push_back(&cf);
  }
  for (auto& [root, cap] : captures) {
    DynamoLogs::CaptureLogs& c = logs->captures.emplace_back();
    c.root = root;
    c.cap = std::move(cap);
    // An allocation that fails while a log is read (a hostile file under a memory limit) drops
    // what that log gave, with an error naming it; the other files are still read.
    auto read_log = [&](const std::string& p, LogFacts& facts, bool (*reader)(const std::string&, LogFacts&, DiagSink&)) {
      try {
        if (reader(p, facts, diags)) c.sources.push_back(p);
      } catch (const std::bad_alloc&) {
        facts = LogFacts{};
        diags.error("out-of-memory", "ran out of memory reading this log; what it says is left out", {p, 0, 0});
      }
    };
    for (const auto& p : c.cap.torch_logs) read_log(p, c.tl, read_torch_logs);
    for (const auto& p : c.cap.traces) read_log(p, c.tr, read_trace_log);
    for (const auto& p : c.cap.debug_logs) read_log(p, c.dl, read_dynamo_debug_log);
    logs->files_read += c.sources.size();
  }
  return logs;
}

std::vector<TraceCompileSource> take_unread_trace_compiles(DynamoLogs& logs, const Program& program, DiagSink& diags) {
  std::vector<TraceCompileSource> unread;
  // The hash of each folder's output_code.py text, by the file's path.
  std::map<FilePath, uint64_t> hash_of;
  for (const Compile& c : program.compiles)
    if (c.output_code_hash && c.files.trace_compile_id.empty()) hash_of[c.files.output_code] = c.output_code_hash;
  for (auto& read : logs.captures) {
    std::vector<TraceCompileSource>& sources = read.tr.compile_sources;
    if (sources.empty()) continue;
    // A payload is the compile of a folder when the folder's output_code.py holds the same text.
    // The folder of the same AOT ID (model__N_<kind>_...) is the same compile, whatever it holds; a
    // cpp_wrapper=True module names no AOT ID, and is found by its text alone.
    std::set<uint64_t> folder_hashes;
    std::map<std::pair<int, std::string>, const CompileFiles*> folders_by_aot_id;
    for (const CompileFiles* f : read.cap.folders) {
      int index = -1;
      std::string kind, trailing;
      if (parse_compile_dir_name(basename_of(f->dir), index, kind, trailing)) folders_by_aot_id[{index, kind}] = f;
      if (auto h = hash_of.find(f->output_code); h != hash_of.end()) folder_hashes.insert(h->second);
    }
    for (auto& src : sources) {
      const CompileFiles* named = nullptr;
      if (auto n = folders_by_aot_id.find({src.model_index, src.graph_kind}); src.model_index >= 0 && n != folders_by_aot_id.end())
        named = n->second;
      bool in_folder = folder_hashes.count(text_hash(src.output_code.text)) > 0;
      if (named && !in_folder && !named->output_code.empty())
        diags.note("trace-folder-mismatch",
                   "the TORCH_TRACE output code of compile " + src.files.trace_compile_id + " (AOT ID " +
                       std::to_string(src.model_index) + "_" + src.graph_kind + ") differs from " +
                       named->output_code.str() + "; the folder's file is read",
                   {src.files.output_code, src.output_code.first_line, 0});
      if (!in_folder && !named) unread.push_back(std::move(src));
    }
    sources.clear();
    sources.shrink_to_fit();
  }
  return unread;
}

namespace {

// ---- The steps of build_dynamo_model, in the order it takes them.

// The compile facts of one capture: the TORCH_LOGS text's first (its guard lines are the ones
// users read), then the trace's, merged by (session, compile id).
std::vector<CompileFacts> merge_compile_facts(const LogFacts& tl, const LogFacts& tr) {
  std::vector<CompileFacts> merged;
  auto find = [&](int s, const CompileId& id) -> CompileFacts* {
    for (auto& c : merged)
      if (c.session == s && c.id == id) return &c;
    return nullptr;
  };
  for (const LogFacts* lf : {&tl, &tr})
    for (const auto& c : lf->compiles) {
      if (auto* m = find(c.session, c.id)) merge_into(*m, c);
      else merged.push_back(c);
    }
  return merged;
}

// Graph breaks: TORCH_LOGS, then the trace's for breaks the text lacks, then debug.log when
// neither gave any (it has no compile ids).
std::vector<GraphBreak> merge_graph_breaks(const LogFacts& tl, const LogFacts& tr, const LogFacts& dl) {
  std::vector<GraphBreak> breaks = tl.breaks;
  for (const auto& b : tr.breaks) {
    bool have = false;
    for (const auto& x : breaks)
      if (x.session == b.session && x.compile_id == b.compile_id && x.user_loc == b.user_loc) have = true;
    if (!have) breaks.push_back(b);
  }
  if (breaks.empty())
    for (auto b : dl.breaks) {
      b.session = 0;
      breaks.push_back(b);
    }
  // A duplicate-suppressed break has no traceback: take it from a break at the same place.
  for (auto& b : breaks)
    if (b.user_code.empty())
      for (const auto& o : breaks)
        if (&o != &b && o.user_loc == b.user_loc && !o.user_code.empty()) {
          b.user_code = o.user_code;
          b.traceback = o.traceback;
          if (b.function.empty()) b.function = o.function;
          break;
        }
  return breaks;
}

// The compile folders of a capture, and the compiles read from its trace's own payloads.
std::vector<FolderInfo> folders_of_capture(const DynamoLogs::Capture& cap, const Program& program,
                                           const std::string& root) {
  std::vector<FolderInfo> folders;
  for (const auto* cf : cap.folders) {
    FolderInfo fi;
    fi.files = cf;
    fi.name = basename_of(cf->dir);
    std::string trailing;
    parse_compile_dir_name(fi.name, fi.model_index, fi.kind, trailing);
    folders.push_back(fi);
  }
  for (const Compile& c : program.compiles)
    if (!c.files.trace_compile_id.empty() && capture_root_of(c.files.output_code.str()) == root)
      folders.push_back(FolderInfo{&c.files, c.id, c.model_index, c.graph_kind});
  return folders;
}

// One compile of a frame, joined to the compile folders that hold its code: the "debug trace:" path,
// else the AOT id of the output code, else the trace's own payloads.
FrameCompile frame_compile(const CompileFacts& c, int s, const std::vector<FolderInfo>& folders) {
  auto folder_by_name = [&](const std::string& name) -> const FolderInfo* {
    for (const auto& f : folders)
      if (f.name == name) return &f;
    return nullptr;
  };
  FrameCompile fc;
  fc.compile_id = c.id.str();
  fc.frame_id = c.id.frame_id;
  fc.frame_compile_id = c.id.frame_compile_id;
  fc.attempt = c.id.attempt;
  fc.session = s;
  fc.guards = c.guards;
  fc.recompile_reasons = c.recompile_reasons;
  fc.restart_reasons = c.restart_reasons;
  fc.aot_ids = c.aot_ids;
  fc.output_code_hash = c.output_code_hash;
  fc.aot_outputs = c.aot_outputs;
  fc.joint_pass_outputs = c.joint_pass_outputs;
  fc.shape_env_guards = c.shape_env_guards;
  fc.symbols = c.symbols;
  fc.symbol_sources = c.symbol_sources;
  fc.specializations = c.specializations;
  fc.graph_inputs = c.graph_inputs;
  fc.sym_exprs = c.sym_exprs;
  fc.has_graph = c.has_graph;
  fc.log_loc = c.first_loc;
  for (size_t i = 0; i < c.cache_events.size(); ++i)
    fc.cache_events += (i ? "," : "") + c.cache_events[i];
  for (const auto& d : c.compile_dirs)
    if (const auto* f = folder_by_name(basename_of(d))) {
      add_unique(fc.inductor_compiles, f->name);
      add_unique(fc.compile_dirs, compile_origin(*f->files));
    } else {
      add_unique(fc.inductor_compiles, basename_of(d));
    }
  for (const auto& aot : c.aot_ids) {
    auto us = aot.find('_');
    if (us == std::string::npos) continue;
    int idx = leading_int(aot);
    std::string kind = aot.substr(us + 1);
    for (const auto& f : folders)
      if (f.files->trace_compile_id.empty() && f.model_index == idx && f.kind == kind) {
        add_unique(fc.inductor_compiles, f.name);
        add_unique(fc.compile_dirs, compile_origin(*f.files));
      }
  }
  // The compiles read from the trace's own payloads.
  for (const auto& f : folders)
    if (f.files->trace_session == c.session && f.files->trace_compile_id == c.id.str()) {
      add_unique(fc.inductor_compiles, f.name);
      add_unique(fc.compile_dirs, compile_origin(*f.files));
    }
  if (!fc.inductor_compiles.empty() || !fc.output_code_hash.empty()) fc.backend_hint = "inductor";
  return fc;
}

// The frames of a capture's compiles (sessions numbered from `session_base`); returns the index of
// its first frame in dm.frames.
size_t add_frames(DynamoModel& dm, std::vector<CompileFacts>& merged, int session_base,
                  const std::vector<std::string>& user_files, const std::vector<FolderInfo>& folders,
                  const std::vector<std::string>& limit_fns) {
  std::sort(merged.begin(), merged.end(), [](const CompileFacts& a, const CompileFacts& b) {
    return std::tie(a.session, a.id) < std::tie(b.session, b.id);
  });
  size_t first_frame = dm.frames.size();
  for (auto& c : merged) {
    for (auto& g : c.guards) resolve_path(g.user_loc, user_files);
    int s = session_base + c.session;
    Frame* fr = nullptr;
    for (size_t i = first_frame; i < dm.frames.size(); ++i)
      if (dm.frames[i].session == s && dm.frames[i].frame_id == c.id.frame_id) fr = &dm.frames[i];
    if (!fr) {
      dm.frames.push_back(Frame{});
      fr = &dm.frames.back();
      fr->frame_id = c.id.frame_id;
      fr->session = s;
    }
    if (!c.function.empty() && (fr->function.empty() || c.source_kind == "trace")) fr->function = c.function;
    if (!fr->code_loc.valid() && c.code_loc.valid()) fr->code_loc = c.code_loc;
    if (c.frame_skipped) fr->fell_back_to_eager = true, fr->skip_reason = "frame skipped after a graph break";
    fr->compiles.push_back(frame_compile(c, s, folders));
  }
  for (size_t i = first_frame; i < dm.frames.size(); ++i) {
    Frame& fr = dm.frames[i];
    fr.is_resume = parse_resume_name(fr.function, fr.resumed_function, fr.resume_line);
    for (const auto& fn : limit_fns)
      if (fn == fr.function) fr.fell_back_to_eager = true, fr.skip_reason = "recompile_limit reached";
    for (auto& c : fr.compiles)
      for (const auto& o : fr.compiles)
        if (o.frame_compile_id == c.frame_compile_id && o.attempt > c.attempt) c.superseded = true;
  }
  return first_frame;
}

// Compiles whose output code the trace holds but no compile folder of the input gave: their
// kernels were not read, so "no finding" must not be said over them in silence. A cache hit
// whose code is that of a compile with a folder (the same payload) was read with it.
void warn_unread_trace_code(const DynamoModel& dm, size_t first_frame, const DynamoLogs::Capture& cap,
                            const std::string& root, DiagSink& diags) {
  std::set<std::string> read_code;
  for (size_t i = first_frame; i < dm.frames.size(); ++i)
    for (const auto& c : dm.frames[i].compiles)
      if (!c.compile_dirs.empty() && !c.output_code_hash.empty()) read_code.insert(c.output_code_hash);
  std::vector<std::string> unread;
  for (size_t i = first_frame; i < dm.frames.size(); ++i)
    for (const auto& c : dm.frames[i].compiles)
      if (!c.output_code_hash.empty() && c.compile_dirs.empty() && !read_code.count(c.output_code_hash))
        unread.push_back(c.compile_id);
  if (!unread.empty()) {
    std::string ids;
    for (size_t i = 0; i < unread.size() && i < 8; ++i) ids += (i ? ", " : "") + unread[i];
    if (unread.size() > 8) ids += ", ...";
    diags.warning("trace-output-code-unread",
                  "TORCH_TRACE holds the Inductor output code of " + std::to_string(unread.size()) +
                      " compile(s) (" + ids + ") that no torch_compile_debug folder of the input gives; "
                      "their kernels were not analyzed (give the run's torch_compile_debug/ folder as well)",
                  {cap.traces.empty() ? root : cap.traces[0], 0, 0});
  }
}

// How `local` reaches one compile of its frame: the guard or recompile reason that pins its value,
// its symbol, whether it entered as a dynamic input, the value the compile saw.
ScalarUse scalar_use(const Frame& fr, const FrameCompile& c, const std::string& local,
                     const std::vector<std::string>& user_files) {
  ScalarUse u;
  u.compile_id = c.compile_id;
  u.session = c.session;
  u.compile_dirs = c.compile_dirs;
  u.guards_logged = !c.guards.empty();
  u.cache_event = c.cache_events.find("_cache_hit") != std::string::npos ? c.cache_events : "";
  for (const auto& g : c.guards) {
    if (g.kind == "LAMBDA_GUARD" && local_name_of(g.source) != local && pins_through_expression(g.expr, local)) {
      u.guarded_by_expression = true;
      continue;
    }
    if (local_name_of(g.source) != local) continue;
    // Only a comparison with a number pins the value: `L['s'] == ___as_tensor(L['s']).item()`
    // (a dynamic float's self-consistency guard) pins nothing.
    double gv;
    if ((g.kind == "EQUALS_MATCH" || g.kind == "LAMBDA_GUARD" || g.kind == "CONSTANT_MATCH") &&
        parse_float_literal(g.value, gv)) {
      u.pinned_by_guard = true;
      if (u.value.empty()) u.value = g.value, u.value_source = "guard";
      u.guards.push_back(g.kind + ": " + g.expr);
      u.guard_locs.push_back(g.log_loc);
      if (!u.guard_user_loc && g.user_loc) u.guard_user_loc = g.user_loc;
    }
  }
  // A later compile's recompile reasons say which guard of this compile failed.
  for (const auto& o : fr.compiles)
    for (const auto& reason : o.recompile_reasons) {
      auto f = parse_guard_failure(reason);
      double fv;
      if (!f || local_name_of(f->source) != local || !parse_float_literal(f->value, fv)) continue;
      auto fid = parse_compile_id(f->compile_id);
      if (!fid || fid->frame_compile_id != c.frame_compile_id) continue;
      if (!u.pinned_by_guard) {
        u.pinned_by_guard = true;
        u.value = f->value;
        u.value_source = "recompile_reason";
        u.guard_locs.push_back(o.log_loc);
      }
      add_unique(u.guards, "(failed later) " + f->guard);
      std::optional<SourceLoc> ul = f->user_loc;
      resolve_path(ul, user_files);
      if (!u.guard_user_loc && ul) u.guard_user_loc = ul;
    }
  // Tensorify guards (LAMBDA_GUARD ... == 2.0) carry no user line: use the line of the
  // other guards on the same local (its TYPE_MATCH names where the value is used).
  if (u.pinned_by_guard && !u.guard_user_loc)
    for (const auto& g : c.guards)
      if (local_name_of(g.source) == local && g.user_loc) {
        u.guard_user_loc = g.user_loc;
        break;
      }
  std::string sym;
  for (const auto& [s, src] : c.symbol_sources)
    if (local_name_of(src) == local) sym = s;
  u.symbol = sym;
  std::string spec;
  for (const auto& s : c.specializations)
    if (!sym.empty() && starts_with(s, sym + "=")) spec = s.substr(sym.size() + 1);
  for (const auto& g : c.shape_env_guards)
    if (!sym.empty() && g.find(sym) != std::string::npos) u.shape_env_guards.push_back(g);
  for (const auto& in_ : c.graph_inputs)
    if (input_is_local(in_, local)) {
      std::string ann = annotation_of(in_);
      if (starts_with(ann, "f64[]") || starts_with(ann, "f32[]") || starts_with(ann, "Sym(")) u.dynamic_input = true;
    }
  if (u.value.empty() && !spec.empty()) u.value = spec, u.value_source = "specialization";
  if (u.value.empty() && !sym.empty())
    for (const auto& [s, hint] : c.symbols)
      if (s == sym) u.value = hint, u.value_source = "create_symbol";
  u.value = normalize_value(u.value);
  if (starts_with(sym, "zuf")) u.treatment = "unbacked";
  else if (u.pinned_by_guard) u.treatment = "specialized";
  else if (u.dynamic_input || (!sym.empty() && spec.empty())) u.treatment = "dynamic";
  else u.treatment = "unknown";
  return u;
}

// A float local that crosses into `fr`, and what produced it: a graph break's `.item()` or
// `tolist` (the break at the resume line), a value on the stack, or a float argument.
ScalarCrossing scalar_crossing(const DynamoModel& dm, const Frame& fr, const std::string& local,
                               const std::string& source, const std::string& root) {
  ScalarCrossing sc;
  sc.local_name = local;
  sc.source = source;
  sc.session = fr.session;
  sc.capture = root;
  sc.into_frame = fr.frame_id;
  sc.into_function = fr.function;
  sc.into_loc = fr.code_loc;
  if (fr.is_resume && starts_with(local, "___stack")) {
    // The value on the stack when the frame broke: the break at the resume line.
    const GraphBreak* best = nullptr;
    for (const auto& b : dm.graph_breaks) {
      if (b.session != fr.session || b.user_loc.line != fr.resume_line) continue;
      if (fr.code_loc.valid() && !b.user_loc.file.empty() && b.user_loc.file != fr.code_loc.file) continue;
      if (!best || (b.function == fr.resumed_function && best->function != fr.resumed_function) ||
          (best->frame_skipped && !b.frame_skipped))
        best = &b;
    }
    if (best) {
      sc.produced_by = best->kind == "tolist" ? "tolist" : best->kind == "item" ? ".item()" : "graph break";
      sc.origin = best->user_loc;
      sc.origin_code = best->user_code;
      sc.from_function = fr.resumed_function;
      auto cid = parse_compile_id(best->compile_id);
      sc.from_frame = cid ? cid->frame_id : -1;
    } else {
      sc.produced_by = "stack value";
      sc.from_function = fr.resumed_function;
    }
  } else {
    sc.produced_by = "float argument";
  }
  return sc;
}

// The scalars that cross into each frame of a capture, with their use in each compile.
void add_scalar_crossings(DynamoModel& dm, size_t first_frame, const std::string& root,
                          const std::vector<std::string>& user_files) {
  for (size_t i = first_frame; i < dm.frames.size(); ++i) {
    const Frame& fr = dm.frames[i];
    // Candidate locals: float-typed guard sources, float-valued equality guards, float symbols.
    std::vector<std::string> locals;
    std::map<std::string, std::string> source_text;
    for (const auto& c : fr.compiles) {
      for (const auto& g : c.guards) {
        std::string local = local_name_of(g.source);
        if (local.empty()) continue;
        bool floaty = (g.kind == "GuardManager" && g.value == "float") ||
                      ((g.kind == "EQUALS_MATCH" || g.kind == "LAMBDA_GUARD" || g.kind == "CONSTANT_MATCH") &&
                       is_float_text(g.value));
        if (!floaty) continue;
        add_unique(locals, local);
        if (!source_text.count(local)) source_text[local] = "L['" + local + "']";
      }
      for (const auto& [sym, src] : c.symbol_sources)
        if (starts_with(sym, "zf")) {
          std::string local = local_name_of(src);
          if (!local.empty()) {
            add_unique(locals, local);
            source_text.emplace(local, src);
          }
        }
    }
    for (const auto& local : locals) {
      ScalarCrossing sc = scalar_crossing(dm, fr, local, source_text[local], root);
      for (const auto& c : fr.compiles)
        if (!c.superseded) sc.uses.push_back(scalar_use(fr, c, local, user_files));
      dm.scalars.push_back(std::move(sc));
    }
  }
}

// Literals that derive from each scalar: align the compiles of the frame and keep the literals
// whose value changes with the scalar's value. Returns the literal sites of each scalar's uses.
std::vector<std::vector<std::map<std::string, LiteralSite>>> derive_literals(DynamoModel& dm, const Program& program) {
  std::vector<std::vector<std::map<std::string, LiteralSite>>> all_sites(dm.scalars.size());
  for (size_t sci = 0; sci < dm.scalars.size(); ++sci) {
    ScalarCrossing& sc = dm.scalars[sci];
    auto& sites = all_sites[sci];
    sites.resize(sc.uses.size());
    size_t with_code = 0;
    for (size_t i = 0; i < sc.uses.size(); ++i) {
      for (const auto& origin : sc.uses[i].compile_dirs) {
        const Compile* comp = nullptr;
        for (const auto& c : program.compiles)
          if (compile_origin(c.files) == origin) comp = &c;
        if (!comp) continue;
        for (auto& s : fx_literals(*comp, comp->graph_kind)) {
          s.compile_id = comp->id;
          sites[i].emplace(s.key, s);
        }
        for (auto& s : kernel_literals(*comp, comp->graph_kind)) {
          s.compile_id = comp->id;
          sites[i].emplace(s.key, s);
        }
      }
      if (!sites[i].empty()) ++with_code;
    }
    if (with_code < 2) continue;
    std::set<std::string> keys;
    for (const auto& m : sites)
      for (const auto& [k, s] : m) keys.insert(k);
    // Another scalar of the same frame whose value also differs between two compiles makes that
    // pair useless for attribution: a literal that changes could come from either.
    auto ambiguous = [&](const std::string& ca, const std::string& cb) {
      for (const auto& other : dm.scalars) {
        if (&other == &sc || other.session != sc.session || other.into_frame != sc.into_frame) continue;
        std::string oa, ob;
        for (const auto& u : other.uses) {
          if (u.compile_id == ca) oa = u.value;
          if (u.compile_id == cb) ob = u.value;
        }
        if (!oa.empty() && !ob.empty() && oa != ob) return true;
      }
      return false;
    };
    for (const auto& key : keys) {
      bool differs = false;
      for (size_t a = 0; a < sc.uses.size() && !differs; ++a)
        for (size_t b = a + 1; b < sc.uses.size() && !differs; ++b) {
          auto ia = sites[a].find(key), ib = sites[b].find(key);
          if (ia == sites[a].end() || ib == sites[b].end()) continue;
          double va, vb;
          if (!parse_float_literal(sc.uses[a].value, va) || !parse_float_literal(sc.uses[b].value, vb) || va == vb)
            continue;
          if (ambiguous(sc.uses[a].compile_id, sc.uses[b].compile_id)) continue;
          if (ia->second.value != ib->second.value) differs = true;
        }
      if (!differs) continue;
      for (size_t a = 0; a < sc.uses.size(); ++a) {
        auto ia = sites[a].find(key);
        if (ia == sites[a].end()) continue;
        const LiteralSite& s = ia->second;
        DerivedLiteral d = derived_literal(s, key);
        for (size_t b = 0; b < sc.uses.size(); ++b) {
          if (b == a) continue;
          auto ib = sites[b].find(key);
          if (ib != sites[b].end()) d.other_values.push_back(sc.uses[b].compile_id + "=" + ib->second.text);
        }
        sc.uses[a].literals.push_back(std::move(d));
      }
    }
  }
  return all_sites;
}

// One artifact serving several values: identical output code for compiles with different values.
void mark_shared_artifacts(DynamoModel& dm) {
  for (auto& sc : dm.scalars)
    for (size_t b = 0; b < sc.uses.size(); ++b)
      for (size_t a = 0; a < b; ++a) {
        const auto& ua = sc.uses[a];
        auto& ub = sc.uses[b];
        const Frame* fr = dm.frame(sc.session, sc.into_frame);
        if (!fr) continue;
        std::string ha, hb;
        for (const auto& c : fr->compiles) {
          if (c.compile_id == ua.compile_id) ha = c.output_code_hash;
          if (c.compile_id == ub.compile_id) hb = c.output_code_hash;
        }
        if (!ha.empty() && ha == hb && !ua.value.empty() && !ub.value.empty() && ua.value != ub.value &&
            ub.same_artifact_as.empty())
          ub.same_artifact_as = ua.compile_id;
      }
}

}  // namespace

size_t build_dynamo_model(const IngestResult& in, Program& program, DiagSink& diags) {
  return build_dynamo_model(in, *read_dynamo_logs(in, diags), program, diags);
}

size_t build_dynamo_model(const IngestResult& in, DynamoLogs& logs, Program& program, DiagSink& diags) {
  DynamoModel& dm = program.dynamo;
  size_t files_read = logs.files_read;
  int session_base = 0;
  for (auto& read : logs.captures) {
    const std::string& root = read.root;
    const DynamoLogs::Capture& cap = read.cap;
    LogFacts &tl = read.tl, &tr = read.tr, &dl = read.dl;
    dm.sources.insert(dm.sources.end(), read.sources.begin(), read.sources.end());
    if (tl.sessions && tr.sessions && tl.sessions != tr.sessions)
      diags.note("dynamo-session-mismatch",
                 "TORCH_LOGS shows " + std::to_string(tl.sessions) + " torch.compile sessions, TORCH_TRACE " +
                     std::to_string(tr.sessions) + "; compiles are joined by session order",
                 {cap.traces.empty() ? root : cap.traces[0], 0, 0});
    std::vector<CompileFacts> merged = merge_compile_facts(tl, tr);
    std::vector<std::string> user_files = tl.user_files;
    for (const auto& f : tr.user_files) add_unique(user_files, f);
    if (tl.recompile_limit > 0) dm.recompile_limit = tl.recompile_limit, dm.recompile_limit_from_config = true;
    if (tr.recompile_limit > 0) dm.recompile_limit = tr.recompile_limit, dm.recompile_limit_from_config = true;
    std::vector<std::string> limit_fns = tl.limit_hit_functions;
    for (const auto& f : tr.limit_hit_functions) limit_fns.push_back(f);
    for (const auto& h : tl.recompile_limit_hits) dm.recompile_limit_hits.push_back(h);
    for (const auto& h : tr.recompile_limit_hits) add_unique(dm.recompile_limit_hits, h);
    int sessions = std::max({tl.sessions, tr.sessions, 1});

    std::vector<GraphBreak> breaks = merge_graph_breaks(tl, tr, dl);
    std::vector<FolderInfo> folders = folders_of_capture(cap, program, root);
    size_t first_frame = add_frames(dm, merged, session_base, user_files, folders, limit_fns);
    for (auto& b : breaks) {
      b.session = session_base + std::max(b.session, 0);
      dm.graph_breaks.push_back(b);
    }
    warn_unread_trace_code(dm, first_frame, cap, root, diags);
    add_scalar_crossings(dm, first_frame, root, user_files);
    session_base += sessions;
    // What was read of this capture is in the model now: freed, so the facts of the captures
    // already built are not held beside the model while the rest are built.
    read.tl = LogFacts{};
    read.tr = LogFacts{};
    read.dl = LogFacts{};
  }
  dm.sessions = session_base;

  auto all_sites = derive_literals(dm, program);
  // Then, for dynamic unpinned compiles, literals equal to a symbolic value at the hint (after the
  // alignment, which gives the better evidence: the same literal in the other compiles).
  for (size_t sci = 0; sci < dm.scalars.size(); ++sci) add_sym_derived(dm.scalars[sci], all_sites[sci], dm);
  mark_shared_artifacts(dm);
  return files_read;
}

}  // namespace ilint
