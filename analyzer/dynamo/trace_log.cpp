// Reader of the TORCH_TRACE structured log: `V... path:line] {json envelope}` lines, each followed
// by its payload as lines that start with a TAB. The envelope's one key outside the context keys
// (frame_id, frame_compile_id, attempt, has_payload, rank, stack, compiled_autograd_id) names the
// event. The md5 of a payload is checked against `has_payload` when the payload is read, and for
// the file's last event: a mismatch means the file was truncated or edited there, and is reported.
// Payloads of events the model does not read (chromium_event, describe_*, cache artifacts: three
// fifths of a trace's bytes) are not hashed; an edit there changes nothing the analyzer says,
// and a cut file ends in its last event.
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzer/dynamo/readers.h"

namespace ilint::dynamo {

namespace {

void add_unique(std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return;
  v.push_back(s);
}

std::string json_str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

class TraceReader {
 public:
  TraceReader(const std::string& path, LogFacts& out, DiagSink& diags) : path_(path), out_(out), diags_(diags) {}

  void feed(std::string& raw, int lineno, bool last_line_unterminated) {
    ++out_.lines;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (sanitize_utf8(raw) && !warned_utf8_) {
      warned_utf8_ = true;
      diags_.warning("dynamo-log-encoding", "invalid UTF-8 bytes replaced (first at this line)", {path_, lineno, 0});
    }
    if (!raw.empty() && raw[0] == '\t') {
      if (have_event_) {
        payload_.push_back(raw.substr(1));
        payload_locs_.push_back({path_, lineno, 0});
      } else {
        ++out_.unparsed_lines;
      }
      return;
    }
    finish_event();
    if (raw.empty()) return;  // tlparse skips blank lines as log stutter
    auto g = parse_glog_line(raw);
    if (!g || g->rest.empty() || g->rest[0] != '{') {
      ++out_.unparsed_lines;
      if (!warned_foreign_) {
        warned_foreign_ = true;
        diags_.note("trace-foreign-line", "line is not a TORCH_TRACE envelope; skipped (first such line)",
                    {path_, lineno, 0});
      }
      return;
    }
    try {
      envelope_ = nlohmann::json::parse(g->rest);
    } catch (const std::exception& e) {
      diags_.warning("trace-bad-envelope",
                     std::string(last_line_unterminated ? "file ends inside an envelope (truncated?): "
                                                        : "envelope is not valid JSON: ") +
                         e.what(),
                     {path_, lineno, 0});
      return;
    }
    if (!envelope_.is_object()) {
      diags_.warning("trace-bad-envelope", "envelope is not a JSON object", {path_, lineno, 0});
      return;
    }
    have_event_ = true;
    event_loc_ = {path_, lineno, 0};
  }

  void finish() {
    finish_event(/*last=*/true);
    out_.sessions = std::max(out_.sessions, session_ + 1);
  }

 private:
  void finish_event(bool last = false) {
    if (!have_event_) return;
    try {
      handle();
      if (last) check_payload();  // a file cut inside its last payload
    } catch (const std::exception& e) {
      // A field of an unexpected type: report and go on with the next event.
      diags_.warning("trace-bad-event", std::string("unexpected event content: ") + e.what(), event_loc_);
    }
    have_event_ = false;
    has_payload_ = payload_checked_ = false;
    payload_text_.reset();
    payload_md5_.reset();
    payload_.clear();
    payload_locs_.clear();
    envelope_ = nlohmann::json();
  }

  // The payload, its lines joined ("" when the envelope announces none). Not checked.
  const std::string& raw_payload_text() {
    if (!payload_text_) {
      payload_text_.emplace();
      if (has_payload_)
        for (size_t i = 0; i < payload_.size(); ++i) {
          if (i) *payload_text_ += '\n';
          *payload_text_ += payload_[i];
        }
    }
    return *payload_text_;
  }

  const std::string& payload_md5() {
    if (!payload_md5_) payload_md5_ = md5_hex(raw_payload_text());
    return *payload_md5_;
  }

  // Once per event: the payload against the md5 its envelope recorded.
  void check_payload() {
    if (payload_checked_ || !has_payload_) return;
    payload_checked_ = true;
    std::string want = json_str(envelope_, "has_payload");
    if (!want.empty() && payload_md5() != want)
      diags_.warning("trace-payload-mismatch",
                     "payload of '" + kind_ + "' does not match its recorded md5 (truncated or edited)", event_loc_);
  }

  // What handle() reads the payload through, so that whatever it reads is checked.
  const std::vector<std::string>& payload_lines() {
    check_payload();
    return payload_;
  }
  const std::string& payload_text() {
    check_payload();
    return raw_payload_text();
  }

  void handle() {
    static const std::set<std::string> context = {"frame_id", "frame_compile_id", "attempt", "has_payload",
                                                  "rank", "stack", "compiled_autograd_id"};
    kind_.clear();
    for (auto it = envelope_.begin(); it != envelope_.end(); ++it)
      if (!context.count(it.key())) {
        kind_ = it.key();
        break;
      }
    if (kind_.empty()) return;
    const std::string& kind = kind_;
    const nlohmann::json& body = envelope_[kind];
    has_payload_ = envelope_.contains("has_payload");
    if (kind == "str") {
      if (body.is_array() && body.size() == 2 && body[0].is_string() && body[1].is_number_integer())
        strings_[body[1].get<int>()] = body[0].get<std::string>();
      return;
    }
    if (kind == "chromium_event" || kind == "describe_storage" || kind == "describe_tensor" ||
        kind == "describe_source")
      return;
    if (!envelope_.contains("frame_id") || !envelope_["frame_id"].is_number_integer()) return;
    CompileId id;
    id.frame_id = envelope_["frame_id"].get<int>();
    id.frame_compile_id = envelope_.value("frame_compile_id", 0);
    id.attempt = envelope_.value("attempt", 0);
    if (kind == "dynamo_start") {
      // The same compile id starting twice: torch._dynamo.reset() began a new session.
      if (started_.count(id)) {
        ++session_;
        started_.clear();
      }
      started_.insert(id);
    }
    CompileFacts& c = out_.at(session_, id, event_loc_, "trace");
    if (kind == "dynamo_start") {
      if (body.contains("stack") && body["stack"].is_array() && !body["stack"].empty()) {
        const auto& top = body["stack"].back();
        c.function = json_str(top, "name");
        int line = top.value("line", 0);
        std::string file;
        if (top.contains("filename") && top["filename"].is_number_integer()) {
          auto it = strings_.find(top["filename"].get<int>());
          if (it != strings_.end()) file = it->second;
        }
        c.code_loc = {file, line, 0};
        note_user_file(file);
      }
      return;
    }
    if (kind == "dynamo_output_graph") {
      c.has_graph = true;
      // Symbolic values the graph computes: `pow_1: "Sym(FloatPow(0.9, zf2))" = 0.9 ** item`.
      for (const auto& l : payload_lines()) {
        size_t i = 0;
        while ((i = l.find("\"Sym(", i)) != std::string::npos) {
          size_t e = l.find(")\"", i);
          if (e == std::string::npos) break;
          add_unique(c.sym_exprs, l.substr(i + 5, e - i - 5));
          i = e;
        }
      }
      for (const auto& l : payload_lines()) {
        std::string t = trim(l);
        if (!starts_with(t, "def forward(self")) continue;
        // def forward(self, L_stack0_: "f64[][]cpu", L_v_: "f32[128][1]cuda:0"):
        size_t i = 0;
        while ((i = t.find(": \"", i)) != std::string::npos) {
          size_t nb = t.rfind(", ", i);
          std::string name = nb == std::string::npos ? "" : t.substr(nb + 2, i - nb - 2);
          size_t q = t.find('"', i + 3);
          if (q == std::string::npos) break;
          c.graph_inputs.push_back(name + ": " + t.substr(i + 3, q - i - 3));
          i = q;
        }
        break;
      }
      return;
    }
    if (kind == "dynamo_cpp_guards_str") {
      if (!c.guards_seen) {
        const auto& lines = payload_lines();
        for (size_t i = 0; i < lines.size(); ++i)
          if (auto g = parse_guard_tree_line(lines[i], payload_locs_[i])) c.guards.push_back(std::move(*g));
        c.guards_seen = true;
      }
      c.has_graph = true;
      return;
    }
    if (kind == "compilation_metrics") {
      std::string co = json_str(body, "co_name");
      if (!co.empty()) c.function = co;
      std::string file = json_str(body, "co_filename");
      int line = body.contains("co_firstlineno") && body["co_firstlineno"].is_number_integer()
                     ? body["co_firstlineno"].get<int>()
                     : 0;
      if (!file.empty()) c.code_loc = {file, line, 0};
      note_user_file(file);
      if (body.contains("restart_reasons") && body["restart_reasons"].is_array())
        for (const auto& r : body["restart_reasons"])
          if (r.is_string()) add_unique(c.restart_reasons, r.get<std::string>());
      std::string cfg = json_str(body, "dynamo_config");
      auto p = cfg.find("\"recompile_limit\": ");
      if (p != std::string::npos) out_.recompile_limit = std::atoi(cfg.c_str() + p + 19);
      std::string fail = json_str(body, "fail_reason");
      if (fail.find("recompile_limit") != std::string::npos || fail.find("cache_size_limit") != std::string::npos) {
        out_.recompile_limit_hits.push_back(fail);
        out_.limit_hit_functions.push_back(co);
      }
      return;
    }
    if (kind == "artifact") {
      std::string name = json_str(body, "name");
      if (name == "recompile_reasons") {
        std::vector<std::string> texts;
        std::string p = trim(payload_text());
        if (!p.empty() && (p[0] == '[' || p[0] == '"')) {
          try {
            auto j = nlohmann::json::parse(p);
            if (j.is_string()) texts.push_back(j.get<std::string>());
            else if (j.is_array())
              for (const auto& e : j)
                if (e.is_string()) texts.push_back(e.get<std::string>());
          } catch (...) {
            texts.push_back(p);
          }
        } else {
          texts.push_back(p);
        }
        c.recompile_log_loc = event_loc_;
        for (const auto& t : texts) {
          size_t b = 0;
          while (b <= t.size()) {
            size_t e = t.find('\n', b);
            std::string l = t.substr(b, e == std::string::npos ? std::string::npos : e - b);
            if (auto f = parse_guard_failure(l)) {
              add_unique(c.recompile_reasons, trim(l));
              c.failures.push_back(*f);
            }
            if (e == std::string::npos) break;
            b = e + 1;
          }
        }
        return;
      }
      if (name.find("_cache_hit") != std::string::npos || name.find("_cache_miss") != std::string::npos ||
          name.find("_cache_bypass") != std::string::npos) {
        if (starts_with(name, "aotautograd_cache") || starts_with(name, "fx_graph_cache"))
          c.cache_events.push_back(name);
        return;
      }
      if (name == "dynamo_graph_break_reason") {
        GraphBreak gb = parse_graph_break(payload_lines(), payload_locs_);
        gb.session = session_;
        gb.compile_id = id.str();
        if (gb.log_loc.line == 0) gb.log_loc = event_loc_;
        if (gb.frame_skipped) c.frame_skipped = true;
        note_user_file(gb.user_loc.file);
        out_.breaks.push_back(std::move(gb));
        return;
      }
      return;
    }
    if (kind == "inductor_output_code") {
      const auto& lines = payload_lines();
      if (!lines.empty() && starts_with(lines[0], "# AOT ID: ")) {
        const std::string& l = lines[0];
        auto q1 = l.find('\''), q2 = l.rfind('\'');
        if (q1 != std::string::npos && q2 > q1) add_unique(c.aot_ids, l.substr(q1 + 1, q2 - q1 - 1));
      }
      c.output_code_hash = payload_md5();  // computed once, for the check and for this
      return;
    }
    if (kind == "create_symbol" || kind == "create_unbacked_symbol") {
      std::string sym = json_str(body, "symbol");
      if (sym.empty()) return;
      c.symbols.push_back({sym, json_str(body, "val")});
      std::string src = json_str(body, "source");
      if (!src.empty()) c.symbol_sources.push_back({sym, src});
      return;
    }
    if (kind == "symbolic_shape_specialization") {
      std::string sym = json_str(body, "symbol"), val = json_str(body, "value");
      if (!sym.empty()) add_unique(c.specializations, sym + "=" + val);
      return;
    }
    if (kind == "guard_added_fast" || kind == "guard_added") {
      std::string e = json_str(body, "expr");
      if (!e.empty()) add_unique(c.shape_env_guards, e);
      return;
    }
  }

  void note_user_file(const std::string& f) {
    if (f.empty() || f.find("/torch/") != std::string::npos) return;
    add_unique(out_.user_files, f);
  }

  std::string path_;
  LogFacts& out_;
  DiagSink& diags_;
  bool have_event_ = false;
  nlohmann::json envelope_;
  SourceLoc event_loc_;
  std::string kind_;  // the event's name
  bool has_payload_ = false, payload_checked_ = false;
  std::vector<std::string> payload_;
  std::vector<SourceLoc> payload_locs_;
  std::optional<std::string> payload_text_, payload_md5_;
  std::map<int, std::string> strings_;
  std::set<CompileId> started_;
  int session_ = 0;
  bool warned_utf8_ = false, warned_foreign_ = false;
};

}  // namespace

bool read_trace_log(const std::string& path, LogFacts& out, DiagSink& diags) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error("dynamo-log-unreadable", "cannot open TORCH_TRACE log", {path, 0, 0});
    return false;
  }
  TraceReader r(path, out, diags);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    bool unterminated = in.eof();  // getline hit EOF before a newline: the file was cut mid-line
    r.feed(line, ++n, unterminated);
  }
  r.finish();
  return true;
}

}  // namespace ilint::dynamo
