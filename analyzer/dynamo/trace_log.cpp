// Reader of the TORCH_TRACE structured log: `V... path:line] {json envelope}` lines, each followed
// by its payload as lines that start with a TAB. The envelope's one key outside the context keys
// (frame_id, frame_compile_id, attempt, has_payload, rank, stack, compiled_autograd_id) names the
// event. The md5 of a payload is checked against `has_payload` when the payload is read, and for
// the file's last event: a mismatch means the file was truncated or edited there, and is reported.
// Payloads of events the model does not read (chromium_event, describe_*, cache artifacts: three
// fifths of a trace's bytes) are not hashed; an edit there changes nothing the analyzer says,
// and a cut file ends in its last event.
//
// The file is cut into lines in place (read_lines): a payload line stays a view into the read
// buffer until the buffer is refilled, when the lines of the event still open are copied out. An
// envelope is skimmed for the keys the reader reads (trace_envelope.h); nlohmann parses it whole
// only where the skimmer is unsure, and reports what is wrong with one that is not JSON.
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzer/dynamo/readers.h"
#include "analyzer/dynamo/trace_envelope.h"
#include "analyzer/parse/fx_text.h"
#include "analyzer/util/json_fields.h"
#include "analyzer/util/text.h"

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

class TraceReader : public LineSink {
 public:
  TraceReader(const std::string& path, LogFacts& out, DiagSink& diags, bool skim)
      : path_(path), out_(out), diags_(diags), skim_(skim), utf8_(path_, diags) {}

  void line(std::string_view raw, int lineno, bool last_line_unterminated, bool known_utf8) override {
    ++out_.lines;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::string_view line = utf8_.text(raw, lineno, known_utf8);
    if (!line.empty() && line[0] == '\t') {
      if (!have_event_) {
        ++out_.unparsed_lines;
        return;
      }
      if (payload_.empty()) payload_first_line_ = lineno;
      if (utf8_.copied()) payload_.push_copy(line.substr(1));
      else payload_.push(line.substr(1));
      return;
    }
    finish_event();
    if (line.empty()) return;  // tlparse skips blank lines as log stutter
    auto rest = glog_rest(line);
    if (!rest || rest->empty() || (*rest)[0] != '{') {
      ++out_.unparsed_lines;
      if (!warned_foreign_) {
        warned_foreign_ = true;
        diags_.note("trace-foreign-line", "line is not a TORCH_TRACE envelope; skipped (first such line)",
                    {path_, lineno, 0});
      }
      return;
    }
    if (!skim_ || !skim_trace_envelope(*rest, envelope_)) {
      try {
        parse_trace_envelope(*rest, envelope_);
      } catch (const std::exception& e) {
        diags_.warning("trace-bad-envelope",
                       std::string(last_line_unterminated ? "file ends inside an envelope (truncated?): "
                                                          : "envelope is not valid JSON: ") +
                           e.what(),
                       {path_, lineno, 0});
        return;
      }
      if (!envelope_.fields.is_object()) {
        diags_.warning("trace-bad-envelope", "envelope is not a JSON object", {path_, lineno, 0});
        return;
      }
    }
    have_event_ = true;
    event_loc_ = {path_, lineno, 0};
  }

  // The open event's payload lines that still view the read buffer are copied out.
  void pin() override { payload_.pin(); }

  void end() override {
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
    envelope_.fields = nlohmann::json();
  }

  // The payload, its lines joined ("" when the envelope announces none). Not checked.
  const std::string& raw_payload_text() {
    if (!payload_text_) {
      payload_text_.emplace();
      if (has_payload_)
        for (size_t i = 0; i < payload_.views().size(); ++i) {
          if (i) *payload_text_ += '\n';
          *payload_text_ += payload_.views()[i];
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
    std::string want = json_str(envelope_.fields, "has_payload");
    if (!want.empty() && payload_md5() != want)
      diags_.warning("trace-payload-mismatch",
                     "payload of '" + envelope_.kind + "' does not match its recorded md5 (truncated or edited)", event_loc_);
  }

  // What handle() reads the payload through, so that whatever it reads is checked.
  const std::vector<std::string_view>& payload_lines() {
    check_payload();
    return payload_.views();
  }
  SourceLoc payload_loc(size_t i) const { return {path_, payload_first_line_ + static_cast<int>(i), 0}; }
  const std::string& payload_text() {
    check_payload();
    return raw_payload_text();
  }

  // Reads the envelope's context keys and only the body fields trace_envelope.cpp lists for the
  // event (kTraceBodyFields): the envelope holds nothing else.
  void handle() {
    const std::string& kind = envelope_.kind;
    if (kind.empty()) return;
    nlohmann::json& fields = envelope_.fields;
    const nlohmann::json& body = fields[kind];
    has_payload_ = fields.contains("has_payload");
    if (kind == "str") {
      if (!body.is_array() || body.size() != 2 || !body[0].is_string()) return;
      if (std::optional<int> n = json_as_int(body[1])) strings_[*n] = body[0].get<std::string>();
      return;
    }
    if (kind == "chromium_event" || kind == "describe_storage" || kind == "describe_tensor" ||
        kind == "describe_source")
      return;
    // Ids are read by type and range (json_fields.h): `"attempt": 4.4e94` was a float cast to int,
    // undefined behaviour (fuzz_dynamo_logs). An id that is not an int is no id.
    const nlohmann::json* frame_id = json_member(fields, "frame_id");
    std::optional<int> frame = frame_id ? json_as_int(*frame_id) : std::nullopt;
    if (!frame) return;
    CompileId id;
    id.frame_id = *frame;
    id.frame_compile_id = json_int(fields, "frame_compile_id", 0);
    id.attempt = json_int(fields, "attempt", 0);
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
      on_dynamo_start(c, body);
      return;
    }
    if (kind == "dynamo_output_graph") {
      on_output_graph(c);
      return;
    }
    if (kind == "dynamo_cpp_guards_str") {
      if (!c.guards_seen) {
        const auto& lines = payload_lines();
        for (size_t i = 0; i < lines.size(); ++i)
          if (auto g = parse_guard_tree_line(lines[i], payload_loc(i))) c.guards.push_back(std::move(*g));
        c.guards_seen = true;
      }
      c.has_graph = true;
      return;
    }
    if (kind == "compilation_metrics") {
      on_compilation_metrics(c, body);
      return;
    }
    if (kind == "artifact") {
      on_artifact(c, id, body);
      return;
    }
    if (kind == "aot_forward_graph" || kind == "aot_backward_graph" || kind == "aot_inference_graph") {
      pending_[{session_, id}].graphs[kind] = take_payload();
      return;
    }
    if (kind == "inductor_output_code") {
      on_output_code(c, id);
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

  // The compiled function and its file and line, from the top frame of the stack.
  void on_dynamo_start(CompileFacts& c, const nlohmann::json& body) {
    if (body.contains("stack") && body["stack"].is_array() && !body["stack"].empty()) {
      const auto& top = body["stack"].back();
      c.function = json_str(top, "name");
      int line = json_int(top, "line", 0);
      std::string file;
      if (const nlohmann::json* f = json_member(top, "filename"))
        if (std::optional<int> n = json_as_int(*f))
          if (auto it = strings_.find(*n); it != strings_.end()) file = it->second;
      c.code_loc = {file, line, 0};
      note_user_file(file);
    }
  }

  // The graph Dynamo traced: its symbolic values and its inputs with their annotations.
  void on_output_graph(CompileFacts& c) {
    c.has_graph = true;
    // Symbolic values the graph computes: `pow_1: "Sym(FloatPow(0.9, zf2))" = 0.9 ** item`.
    for (const auto& l : payload_lines()) {
      size_t i = 0;
      while ((i = l.find("\"Sym(", i)) != std::string::npos) {
        size_t e = l.find(")\"", i);
        if (e == std::string::npos) break;
        add_unique(c.sym_exprs, std::string(l.substr(i + 5, e - i - 5)));
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
  }

  // The compile's function, restarts, the recompile limit and whether it was reached.
  void on_compilation_metrics(CompileFacts& c, const nlohmann::json& body) {
    std::string co = json_str(body, "co_name");
    if (!co.empty()) c.function = co;
    std::string file = json_str(body, "co_filename");
    int line = json_int(body, "co_firstlineno", 0);
    if (!file.empty()) c.code_loc = {file, line, 0};
    note_user_file(file);
    if (body.contains("restart_reasons") && body["restart_reasons"].is_array())
      for (const auto& r : body["restart_reasons"])
        if (r.is_string()) add_unique(c.restart_reasons, r.get<std::string>());
    std::string cfg = json_str(body, "dynamo_config");
    auto p = cfg.find("\"recompile_limit\": ");
    if (p != std::string::npos) out_.recompile_limit = leading_int(std::string_view(cfg).substr(p + 19));
    std::string fail = json_str(body, "fail_reason");
    if (fail.find("recompile_limit") != std::string::npos || fail.find("cache_size_limit") != std::string::npos) {
      out_.recompile_limit_hits.push_back(fail);
      out_.limit_hit_functions.push_back(co);
    }
  }

  // Recompile reasons, cache events, the payloads that stand for a compile folder's files (FX graph
  // runnable, joint graph, provenance) and graph breaks.
  void on_artifact(CompileFacts& c, const CompileId& id, const nlohmann::json& body) {
    std::string name = json_str(body, "name");
    if (name == "recompile_reasons") {
      read_recompile_reasons(c);
      return;
    }
    if (name.find("_cache_hit") != std::string::npos || name.find("_cache_miss") != std::string::npos ||
        name.find("_cache_bypass") != std::string::npos) {
      if (starts_with(name, "aotautograd_cache") || starts_with(name, "fx_graph_cache"))
        c.cache_events.push_back(name);
      return;
    }
    if (name == "fx_graph_runnable") {
      pending_[{session_, id}].runnable = take_payload();
      return;
    }
    if (name == "after_joint_graph") {
      Pending& p = pending_[{session_, id}];
      p.graphs[name] = take_payload();
      auto aot = p.graphs.find("aot_inference_graph");
      if (aot != p.graphs.end()) {
        c.aot_outputs = graph_outputs(aot->second);
        c.joint_pass_outputs = graph_outputs(p.graphs[name]);
      }
      return;
    }
    if (name == "inductor_provenance_tracking_node_mappings") {
      // Logged after the output code it maps.
      Pending& p = pending_[{session_, id}];
      if (p.last_source && !out_.compile_sources[*p.last_source].provenance.first_line) {
        out_.compile_sources[*p.last_source].provenance = take_payload();
        out_.compile_sources[*p.last_source].files.provenance_json = path_;
      }
      return;
    }
    if (name == "dynamo_graph_break_reason") {
      GraphBreak gb = parse_graph_break(payload_lines(), payload_loc(0));
      gb.session = session_;
      gb.compile_id = id.str();
      if (gb.log_loc.line == 0) gb.log_loc = event_loc_;
      if (gb.frame_skipped) c.frame_skipped = true;
      note_user_file(gb.user_loc.file);
      out_.breaks.push_back(std::move(gb));
      return;
    }
  }

  // The outputs of an FX graph payload, position by position (empty when it does not parse). Its
  // diagnostics are not kept: the same graph is read again as the compile's FX graph, which reports them.
  std::vector<GraphOutput> graph_outputs(const TracePayload& payload) {
    std::vector<GraphOutput> out;
    if (!payload.first_line) return out;
    FxGraph g;
    DiagSink ignored;
    if (!parse_fx_readable(path_, payload.text, g, ignored, FxReadableRead::Scan, payload.first_line)) return out;
    const FxNode* ret = nullptr;
    for (const auto& n : g.nodes)
      if (n.op == "output") ret = &n;
    if (!ret) return out;
    for (const auto& name : ret->input_nodes) {
      GraphOutput o;
      o.node = name.str();
      if (const FxNode* n = g.find(o.node)) {
        o.op = n->op.str();
        o.target = n->target.str();
        for (const auto& a : n->args) o.args.push_back(a.str());
        o.user_loc = n->user_loc();
        o.user_code = n->user_code().str();
        // a computed output is shown where it is computed; an input, where the graph returns it
        o.loc = n->op == "placeholder" ? ret->def_loc : n->def_loc;
      }
      out.push_back(std::move(o));
    }
    return out;
  }

  // The guard failures a `recompile_reasons` artifact lists (a JSON string or array, or plain text).
  void read_recompile_reasons(CompileFacts& c) {
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
  }

  // Inductor's output code: its AOT ID, its hash, and a compile source the parse stage reads.
  void on_output_code(CompileFacts& c, const CompileId& id) {
    const auto& lines = payload_lines();
    std::string aot_id;
    if (!lines.empty() && starts_with(lines[0], "# AOT ID: ")) {
      std::string_view l = lines[0];
      auto q1 = l.find('\''), q2 = l.rfind('\'');
      if (q1 != std::string::npos && q2 > q1) add_unique(c.aot_ids, aot_id = std::string(l.substr(q1 + 1, q2 - q1 - 1)));
    }
    c.output_code_hash = payload_md5();  // computed once, for the check and for this
    add_compile_source(id, aot_id);
  }

  // The open event's payload, checked, moved out of the reader.
  TracePayload take_payload() {
    if (!has_payload_) return {};
    payload_text();
    return {payload_first_line_, std::move(*payload_text_)};
  }

  // The compile whose output code the open event holds: its payloads, joined to the AOT graph
  // and the fx_graph_runnable logged before it under the same compile id. A module without an
  // AOT ID (cpp_wrapper=True) takes its kind from the graphs: inference, or forward then backward.
  void add_compile_source(const CompileId& id, const std::string& aot_id) {
    Pending& p = pending_[{session_, id}];
    TraceCompileSource src;
    if (size_t us = aot_id.find('_'); us != std::string::npos) {
      src.graph_kind = aot_id.substr(us + 1);
      src.model_index = leading_int(aot_id);
    } else if (p.graphs.count("aot_inference_graph")) {
      src.graph_kind = "inference";
    } else {
      src.graph_kind = p.output_codes == 0 ? "forward" : "backward";
    }
    ++p.output_codes;
    src.output_code = take_payload();
    src.files.output_code = path_;
    src.files.trace_compile_id = id.str();
    src.files.trace_session = session_;
    src.files.trace_output_code_line = src.output_code.first_line;
    // The graph Inductor was given (what fx_graph_readable.py prints): an inference graph after the
    // joint-graph passes (which may bake a scalar into the graph), logged as `after_joint_graph`
    // when AOTAutograd ran them; a training graph is partitioned after them.
    auto g = p.graphs.end();
    if (src.graph_kind == "inference") g = p.graphs.find("after_joint_graph");
    if (g == p.graphs.end()) g = p.graphs.find("aot_" + src.graph_kind + "_graph");
    if (g != p.graphs.end()) {
      src.fx_graph_event = g->first;
      src.fx_graph = std::move(g->second);
      src.files.fx_graph_readable = path_;
      p.graphs.erase(g);
    }
    if (p.runnable.first_line) {
      src.runnable = std::move(p.runnable);
      src.files.fx_graph_runnable = path_;
      p.runnable = {};
    }
    p.last_source = out_.compile_sources.size();
    out_.compile_sources.push_back(std::move(src));
  }

  void note_user_file(const std::string& f) {
    if (f.empty() || f.find("/torch/") != std::string::npos) return;
    add_unique(out_.user_files, f);
  }

  std::string path_;
  LogFacts& out_;
  DiagSink& diags_;
  const bool skim_;
  bool have_event_ = false;
  TraceEnvelope envelope_;
  SourceLoc event_loc_;
  bool has_payload_ = false, payload_checked_ = false;
  Utf8Lines utf8_;
  KeptLines payload_;           // the event's payload lines, without their tab
  int payload_first_line_ = 0;  // the line number of the first; the others follow it
  std::optional<std::string> payload_text_, payload_md5_;
  std::map<int, std::string> strings_;
  std::set<CompileId> started_;
  // Per (session, compile id): what was logged for its next Inductor compile.
  struct Pending {
    std::map<std::string, TracePayload> graphs;  // by event name, the last of each
    TracePayload runnable;
    int output_codes = 0;
    std::optional<size_t> last_source;  // in out_.compile_sources
  };
  std::map<std::pair<int, CompileId>, Pending> pending_;
  int session_ = 0;
  bool warned_foreign_ = false;
};

}  // namespace

bool read_trace_log(const std::string& path, LogFacts& out, DiagSink& diags, bool skim_envelopes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error("dynamo-log-unreadable", "cannot open TORCH_TRACE log", {path, 0, 0});
    return false;
  }
  TraceReader r(path, out, diags, skim_envelopes);
  read_lines(in, r);
  return true;
}

bool read_trace_log(const std::string& path, LogFacts& out, DiagSink& diags) {
  return read_trace_log(path, out, diags, /*skim_envelopes=*/true);
}

}  // namespace ilint::dynamo
