// Reader of the TORCH_LOGS text (graph_breaks, recompiles, guards, dynamic, output_code) and of
// torchdynamo/debug.log.
//
// Every TORCH_LOGS line carries the glog prefix; one log record spans consecutive lines with the
// same prefix (time, logger file:line, compile id, artifact). Records are handled by what their
// first line says; anything else is skipped, so unknown or new messages never stop the reader.
#include <fstream>
#include <set>

#include "analyzer/dynamo/readers.h"
#include "analyzer/util/text.h"

namespace ilint::dynamo {

CompileFacts& LogFacts::at(int session, const CompileId& id, const SourceLoc& loc, const char* kind) {
  for (auto& c : compiles)
    if (c.session == session && c.id == id) return c;
  CompileFacts c;
  c.session = session;
  c.id = id;
  c.first_loc = loc;
  c.source_kind = kind;
  compiles.push_back(std::move(c));
  return compiles.back();
}

namespace {

void add_unique(std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return;
  v.push_back(s);
}

// `  File "/work/x.py", line 10, in adam_step`
bool parse_traceback_file_line(std::string_view line, std::string& file, int& lineno, std::string& fn) {
  std::string t = trim(line);
  if (!starts_with(t, "File \"")) return false;
  auto q = t.find('"', 6);
  if (q == std::string::npos) return false;
  file = t.substr(6, q - 6);
  auto ln = t.find(", line ", q);
  if (ln == std::string::npos) return false;
  lineno = leading_int(std::string_view(t).substr(ln + 7));
  auto in = t.find(", in ", ln);
  fn = in == std::string::npos ? "" : t.substr(in + 5);
  return lineno > 0;
}

bool parse_file_colon_line(const std::string& s, SourceLoc& loc) {
  auto colon = s.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  int line = leading_int(std::string_view(s).substr(colon + 1));
  if (line <= 0) return false;
  loc.file = s.substr(0, colon);
  loc.line = line;
  return true;
}

}  // namespace

GraphBreak parse_graph_break(const std::vector<std::string_view>& lines, const SourceLoc& first_loc) {
  GraphBreak gb;
  if (lines.empty()) return gb;
  gb.log_loc = first_loc;
  std::string_view first = lines[0];
  auto at = first.find(" in user code at ");
  if (at != std::string::npos) parse_file_colon_line(trim(first.substr(at + 17)), gb.user_loc);
  bool in_reason = false, in_tb = false;
  std::string reason;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (starts_with(l, "Graph Break Reason: ")) {
      reason = l.substr(20);
      in_reason = true;
      continue;
    }
    if (trim(l) == "User code traceback:") {
      in_reason = false;
      in_tb = true;
      continue;
    }
    if (in_tb) {
      std::string file, fn;
      int ln = 0;
      if (parse_traceback_file_line(l, file, ln, fn)) {
        std::string code;
        if (i + 1 < lines.size() && !starts_with(trim(lines[i + 1]), "File \"") && !trim(lines[i + 1]).empty()) {
          code = trim(lines[i + 1]);
          ++i;
        }
        gb.traceback.push_back({SourceLoc{file, ln, 0}, code});
        gb.function = fn;
        continue;
      }
      // Python 3.11+ marks the expression under its code line: "    ^^^^^^^" (also `~`).
      if (trim(l).find_first_not_of("^~ ") == std::string::npos) continue;  // an empty line too
      in_tb = false;  // "Traceback (most recent call last):" and the like end the user traceback
      break;
    }
    if (in_reason) (reason += '\n') += l;
  }
  gb.reason = trim(reason);
  if (!gb.traceback.empty()) gb.user_code = gb.traceback.back().second;
  const std::string& r = gb.reason;
  if (r.find("Tensor.item()") != std::string::npos || r.find("item()") != std::string::npos) gb.kind = "item";
  else if (r.find("tolist") != std::string::npos) gb.kind = "tolist";
  else if (r.find("graph break in loop") != std::string::npos || r.find("for/while loop") != std::string::npos)
    gb.kind = "loop";
  else if (r.find("torch._dynamo.graph_break()") != std::string::npos) gb.kind = "user";
  else gb.kind = r.empty() ? "unknown" : "other";
  gb.frame_skipped = r.find("Skipping the function and falling back to eager") != std::string::npos ||
                     r.find("frame skipped:") != std::string::npos;
  return gb;
}

namespace {

// One log record: consecutive lines with the same prefix. Its lines view the read buffer until
// pin() copies them out.
struct Record {
  std::string key;  // time|file:line|cid|artifact
  std::string cid_text;
  std::string artifact;
  KeptLines lines;
  int first_line = 0;  // its i-th line is line first_line + i of the file
};

class TorchLogsReader : public LineSink {
 public:
  TorchLogsReader(const std::string& path, LogFacts& out, DiagSink& diags)
      : path_(path), out_(out), utf8_(path_, diags) {}

  void line(std::string_view raw, int lineno, bool, bool known_utf8) override {
    ++out_.lines;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::string_view text = utf8_.text(raw, lineno, known_utf8);
    auto g = parse_glog_view(text);
    if (!g) {
      flush();
      ++out_.unparsed_lines;
      return;
    }
    std::string_view rest = g->rest, cid, artifact;
    if (starts_with(rest, "[")) {
      auto close = rest.find(']');
      if (close != std::string::npos && parse_compile_id(rest.substr(1, close - 1))) {
        cid = rest.substr(1, close - 1);
        rest.remove_prefix(close + 1);
        if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
      }
    }
    if (starts_with(rest, "[__")) {
      auto close = rest.find(']');
      if (close != std::string::npos) {
        artifact = rest.substr(3, close - 3);
        rest.remove_prefix(close + 1);
        if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
      }
    }
    // The key is built in a reused buffer: one per line, nearly always equal to the record's.
    key_.assign(g->stamp) += '|';
    (key_ += g->src_file) += ':';
    key_ += std::to_string(leading_int(g->src_line));
    ((key_ += '|') += cid) += '|';
    key_ += artifact;
    if (key_ != cur_.key) {
      flush();
      cur_.key = key_;
      cur_.cid_text = cid;
      cur_.artifact = artifact;
      cur_.first_line = lineno;
    }
    if (utf8_.copied()) cur_.lines.push_copy(rest);
    else cur_.lines.push(rest);
  }

  // The open record's lines that still view the read buffer are copied out.
  void pin() override { cur_.lines.pin(); }

  void end() override {
    flush();
    out_.sessions = std::max(out_.sessions, session_ + 1);
  }

 private:
  // Compile ids restart at 0/0 after torch._dynamo.reset(): a compile that already finished in
  // this session (guards printed, or the frame skipped) starting again means a new session.
  int session_for(const CompileId& id, bool starts_compile) {
    if (starts_compile && closed_.count(id)) {
      ++session_;
      closed_.clear();
    }
    return session_;
  }

  void flush() {
    if (!cur_.lines.empty()) handle(cur_);
    cur_.key.clear();
    cur_.lines.clear();
  }

  SourceLoc loc(const Record& r, size_t i) const { return {path_, r.first_line + static_cast<int>(i), 0}; }

  // One record of the log, by its artifact (graph breaks, recompiles, guard trees, output code); a
  // component log (no artifact) by the text it starts with.
  void handle(const Record& r) {
    const std::vector<std::string_view>& lines = r.lines.views();
    std::optional<CompileId> id = r.cid_text.empty() ? std::nullopt : parse_compile_id(r.cid_text);
    std::string_view first = lines[0];
    if (r.artifact == "graph_breaks" && starts_with(first, "Graph break") && first.find(" in user code at ") != std::string::npos)
      on_graph_break(r, id);
    else if (r.artifact == "recompiles" && starts_with(first, "Recompiling function ") && id)
      on_recompile(r, *id);
    else if (r.artifact == "guards" && id)
      on_guards(r, *id);
    else if (r.artifact == "output_code" && id)
      on_output_code(r, *id);
    else if (r.artifact.empty())
      on_component_log(r, id);
  }

  // "Graph break in user code at file:line": the break, joined to its compile.
  void on_graph_break(const Record& r, const std::optional<CompileId>& id) {
    const std::vector<std::string_view>& lines = r.lines.views();
    GraphBreak gb = parse_graph_break(lines, loc(r, 0));
    if (id) {
      gb.session = session_for(*id, true);
      gb.compile_id = id->str();
      auto& c = out_.at(gb.session, *id, loc(r, 0), "torch_logs");
      if (gb.frame_skipped) {
        c.frame_skipped = true;
        closed_.insert(*id);
      }
    }
    note_user_file(gb.user_loc.file);
    for (auto& [loc, code] : gb.traceback) note_user_file(loc.file);
    out_.breaks.push_back(std::move(gb));
  }

  // "Recompiling function f in file:line" and the guard failures that caused it.
  void on_recompile(const Record& r, const CompileId& id) {
    const std::vector<std::string_view>& lines = r.lines.views();
    std::string_view first = lines[0];
    int s = session_for(id, true);
    auto& c = out_.at(s, id, loc(r, 0), "torch_logs");
    std::string rest(first.substr(21));
    auto in = rest.rfind(" in ");
    if (in != std::string::npos) {
      c.function = rest.substr(0, in);
      parse_file_colon_line(rest.substr(in + 4), c.code_loc);
      note_user_file(c.code_loc.file);
    }
    c.recompile_log_loc = loc(r, 0);
    for (size_t i = 1; i < lines.size(); ++i) {
      std::string t = trim(lines[i]);
      if (!starts_with(t, "- ")) continue;
      std::string body = t.substr(2);
      if (auto f = parse_guard_failure(body)) {
        c.recompile_reasons.push_back(body);
        c.failures.push_back(*f);
      }
    }
  }

  // A guard tree (TREE_GUARD_MANAGER:); other guard records are not trees.
  void on_guards(const Record& r, const CompileId& id) {
    const std::vector<std::string_view>& lines = r.lines.views();
    bool tree = false;
    for (const auto& l : lines)
      if (trim(l) == "TREE_GUARD_MANAGER:") tree = true;
    if (!tree) return;  // "GUARDS:", the Python shape guard function, "Guard eval latency"
    int s = session_for(id, true);
    auto& c = out_.at(s, id, loc(r, 0), "torch_logs");
    // A second guard tree for the same compile (one from a later session) is handled by
    // session_for; within a session, keep the first.
    if (!c.guards_seen) {
      for (size_t i = 0; i < lines.size(); ++i)
        if (auto g = parse_guard_tree_line(lines[i], loc(r, i))) c.guards.push_back(std::move(*g));
      c.guards_seen = true;
    }
    c.has_graph = true;
    closed_.insert(id);
  }

  // The output code's "# AOT ID" line.
  void on_output_code(const Record& r, const CompileId& id) {
    const std::vector<std::string_view>& lines = r.lines.views();
    for (const auto& l : lines)
      if (starts_with(l, "# AOT ID: ")) {
        auto& c = out_.at(session_, id, loc(r, 0), "torch_logs");
        auto q1 = l.find('\''), q2 = l.rfind('\'');
        if (q1 != std::string::npos && q2 > q1) add_unique(c.aot_ids, std::string(l.substr(q1 + 1, q2 - q1 - 1)));
        break;
      }
  }

  // Component logs (no artifact): inductor debug-trace lines, dynamic-shape messages, limits.
  void on_component_log(const Record& r, const std::optional<CompileId>& id) {
    const std::vector<std::string_view>& lines = r.lines.views();
    std::string_view first = lines[0];
    auto dt = first.find(" debug trace: ");
    if (dt != std::string::npos && id) {
      auto& c = out_.at(session_, *id, loc(r, 0), "torch_logs");
      add_unique(c.compile_dirs, trim(first.substr(dt + 14)));
      return;
    }
    if (starts_with(first, "create_symbol ") && id) {
      // create_symbol zf2 = 2.0 for L['___stack0'] [-oo, oo] <user code>  # <file>:<line> in <fn> (...)
      int s = session_for(*id, false);
      auto& c = out_.at(s, *id, loc(r, 0), "torch_logs");
      std::string t(first.substr(14));
      auto eq = t.find(" = "), fo = t.find(" for ");
      if (eq != std::string::npos && fo != std::string::npos && fo > eq) {
        std::string sym = t.substr(0, eq), hint = t.substr(eq + 3, fo - eq - 3);
        std::string src = t.substr(fo + 5);
        auto br = src.find(" [");
        if (br != std::string::npos) src = src.substr(0, br);
        c.symbols.push_back({sym, hint});
        c.symbol_sources.push_back({sym, src});
      }
      return;
    }
    if (starts_with(first, "eval ") && first.find(" [guard added]") != std::string::npos && id) {
      auto& c = out_.at(session_, *id, loc(r, 0), "torch_logs");
      add_unique(c.shape_env_guards, std::string(first.substr(5, first.find(" [guard added]") - 5)));
      return;
    }
    if (starts_with(first, "set_replacement ") && id) {
      // set_replacement zf2 = 2.00000000000000 (trivial_lhs) VR[...]
      std::string t(first.substr(16));
      auto eq = t.find(" = ");
      if (eq != std::string::npos && starts_with(t, "zf")) {
        auto& c = out_.at(session_, *id, loc(r, 0), "torch_logs");
        std::string v = t.substr(eq + 3);
        auto sp = v.find(' ');
        add_unique(c.specializations, t.substr(0, eq) + "=" + v.substr(0, sp));
      }
      return;
    }
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string_view l = lines[i];
      if (l.find("hit config.recompile_limit") != std::string::npos ||
          l.find("hit config.cache_size_limit") != std::string::npos) {
        std::string text = trim(l);
        for (size_t k = i + 1; k < lines.size() && k <= i + 3; ++k) {
          std::string t = trim(lines[k]);
          text += "\n" + t;
          if (starts_with(t, "function: '")) {
            auto q = t.find('\'', 11);
            if (q != std::string::npos) out_.limit_hit_functions.push_back(t.substr(11, q - 11));
          }
        }
        auto lp = l.find("limit (");
        if (lp != std::string::npos) out_.recompile_limit = leading_int(l.substr(lp + 7));
        out_.recompile_limit_hits.push_back(text);
        return;
      }
    }
  }

  void note_user_file(const std::string& f) {
    if (f.empty() || f.find("/torch/") != std::string::npos) return;
    add_unique(out_.user_files, f);
  }

  std::string path_;
  LogFacts& out_;
  Utf8Lines utf8_;  // reports the file's invalid UTF-8 to the DiagSink
  Record cur_;
  std::string key_;  // the line being read's key (a buffer kept between lines)
  int session_ = 0;
  std::set<CompileId> closed_;
};

}  // namespace

bool read_torch_logs(const std::string& path, LogFacts& out, DiagSink& diags) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error("dynamo-log-unreadable", "cannot open TORCH_LOGS file", {path, 0, 0});
    return false;
  }
  TorchLogsReader r(path, out, diags);
  read_lines(in, r);
  return true;
}

namespace {

// torchdynamo/debug.log: each "Graph break in user code at F:L" message, up to the next line
// that starts "Graph break".
class DebugLogReader : public LineSink {
 public:
  DebugLogReader(const std::string& path, LogFacts& out, DiagSink& diags) : path_(path), out_(out), utf8_(path_, diags) {}

  void line(std::string_view raw, int lineno, bool, bool known_utf8) override {
    ++out_.lines;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::string_view text = utf8_.text(raw, lineno, known_utf8);
    if (starts_with(text, "Graph break")) {
      flush();
      if (text.find(" in user code at ") == std::string_view::npos) return;  // "Graph break from `Tensor.item()`"
      first_line_ = lineno;
    } else if (lines_.empty()) {
      return;
    }
    if (utf8_.copied()) lines_.push_copy(text);
    else lines_.push(text);
  }
  void pin() override { lines_.pin(); }
  void end() override { flush(); }

 private:
  void flush() {
    if (!lines_.empty()) {
      GraphBreak gb = parse_graph_break(lines_.views(), {path_, first_line_, 0});
      gb.session = -1;
      out_.breaks.push_back(std::move(gb));
    }
    lines_.clear();
  }

  std::string path_;
  LogFacts& out_;
  Utf8Lines utf8_;
  KeptLines lines_;  // the message being read
  int first_line_ = 0;
};

}  // namespace

bool read_dynamo_debug_log(const std::string& path, LogFacts& out, DiagSink& diags) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error("dynamo-log-unreadable", "cannot open torchdynamo/debug.log", {path, 0, 0});
    return false;
  }
  DebugLogReader r(path, out, diags);
  read_lines(in, r);
  return true;
}

}  // namespace ilint::dynamo
