#include "analyzer/report/html.h"

#include "analyzer/model/user_source_lines.h"
#include "analyzer/report/review_location.h"
#include "analyzer/report/json.h"

#include "analyzer/model/names.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "analyzer/report/html_assets.h"
#include "analyzer/util/read_file.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace ilint {

namespace {

json loc_json(const SourceLoc& l) {
  if (l.file.empty()) return nullptr;
  json j{{"file", l.file}, {"line", l.line}};
  if (l.column > 0) j["column"] = l.column;
  return j;
}

json meta_json(const TensorMeta& m) {
  json j = json::object();
  if (m.dtype != DType::Unknown) j["dtype"] = dtype_name(m.dtype);
  if (!m.shape.empty()) j["shape"] = m.shape;
  if (!m.stride.empty()) j["stride"] = m.stride;
  if (!m.device.empty()) j["device"] = m.device;
  return j;
}

json fx_node_json(const FxNode& n) {
  json j{{"name", n.name}, {"op", n.op}, {"target", n.target}};
  json m = meta_json(n.meta);
  if (!m.empty()) j["meta"] = m;
  if (!n.annotation.empty()) j["annotation"] = n.annotation;
  if (n.user_loc()) j["user_loc"] = loc_json(*n.user_loc());
  if (!n.user_code().empty()) j["user_code"] = n.user_code();
  if (!n.input_nodes.empty()) j["inputs"] = n.input_nodes;
  return j;
}

int count_lines(std::string_view s) {
  if (s.empty()) return 0;
  int n = static_cast<int>(std::count(s.begin(), s.end(), '\n'));
  return s.back() == '\n' ? n : n + 1;
}

json kernel_json(const Compile& c, const Kernel& k) {
  const std::string_view source = c.source_of(k);
  json j;
  j["name"] = k.name;
  j["backend"] = backend_name(k.backend);
  j["kind"] = kind_name(k.kind);
  j["def_loc"] = loc_json(k.def_loc);
  j["body_loc"] = loc_json(k.body_loc);
  j["source"] = source;
  j["source_first_line"] = k.source_first_line;
  j["source_lines"] = count_lines(source);
  j["source_bytes"] = source.size();
  json params = json::array();
  for (const auto& p : k.params)
    params.push_back({{"name", p.name}, {"type", p.type_text}, {"dtype", dtype_name(p.dtype)}, {"pointer", p.is_pointer}});
  j["params"] = params;
  j["numels"] = k.numels;
  j["loads"] = k.loads.size();
  j["stores"] = k.stores.size();
  // Lines worth marking in the source view: where the kernel reduces/scans and where it casts.
  json marks = json::array();
  for (const auto& r : k.reductions)
    if (r.loc.line > 0)
      marks.push_back({{"line", r.loc.line}, {"what", std::string(r.is_scan ? "scan " : "reduction ") + r.combine +
                                                            " in " + dtype_name(r.compute_dtype)}});
  for (const auto& c : k.casts)
    if (c.loc.line > 0) marks.push_back({{"line", c.loc.line}, {"what", "cast to " + dtype_name(c.to)}});
  j["marks"] = marks;
  json reds = json::array();
  for (const auto& r : k.reductions)
    reds.push_back({{"scan", r.is_scan}, {"combine", r.combine}, {"dtype", dtype_name(r.compute_dtype)},
                    {"length", r.length}, {"length_expr", r.length_expr}});
  j["reductions"] = reds;
  j["fx_nodes"] = k.fx_nodes;
  json frag = json::array();
  for (const auto& n : k.fragment.nodes) frag.push_back(fx_node_json(n));
  j["fragment"] = frag;
  j["source_nodes"] = k.source_nodes;
  j["aten_ops"] = k.aten_ops;
  j["parse_errors"] = k.parse_errors;
  return j;
}

json launch_json(const KernelLaunch& l) {
  return {{"order", l.order}, {"kernel", l.kernel}, {"fallback", l.is_fallback}, {"loc", loc_json(l.loc)}};
}

json input_json(const GraphInput& in) {
  json j{{"name", in.name}, {"cpu_scalar", in.is_cpu_scalar}};
  json m = meta_json(in.meta);
  if (!m.empty()) j["meta"] = m;
  return j;
}

json guard_json(const Guard& g) {
  json j{{"kind", g.kind}, {"source", g.source}, {"expr", g.expr}, {"value", g.value}, {"comment", g.comment}};
  if (g.user_loc) j["user_loc"] = loc_json(*g.user_loc);
  j["log_loc"] = loc_json(g.log_loc);
  return j;
}

json dynamo_json(const DynamoModel& d) {
  json j;
  json frames = json::array();
  for (const auto& f : d.frames) {
    json jf{{"frame_id", f.frame_id}, {"function", f.function}, {"code_loc", loc_json(f.code_loc)},
            {"is_resume", f.is_resume}, {"resumed_function", f.resumed_function}, {"resume_line", f.resume_line},
            {"fell_back_to_eager", f.fell_back_to_eager}};
    json cs = json::array();
    for (const auto& c : f.compiles) {
      json jc{{"compile_id", c.compile_id}, {"frame_id", c.frame_id}, {"attempt", c.attempt},
              {"recompile_reasons", c.recompile_reasons}, {"inductor_compiles", c.inductor_compiles},
              {"graph_inputs", c.graph_inputs}, {"cache_events", c.cache_events}, {"log_loc", loc_json(c.log_loc)}};
      json gs = json::array();
      for (const auto& g : c.guards) gs.push_back(guard_json(g));
      jc["guards"] = gs;
      cs.push_back(jc);
    }
    jf["compiles"] = cs;
    frames.push_back(jf);
  }
  j["frames"] = frames;
  json breaks = json::array();
  for (const auto& b : d.graph_breaks)
    breaks.push_back({{"compile_id", b.compile_id}, {"user_loc", loc_json(b.user_loc)}, {"user_code", b.user_code},
                      {"reason", b.reason}, {"log_loc", loc_json(b.log_loc)}});
  j["graph_breaks"] = breaks;
  json scalars = json::array();
  for (const auto& s : d.scalars) {
    json js{{"local_name", s.local_name}, {"produced_by", s.produced_by}, {"origin", loc_json(s.origin)},
            {"origin_code", s.origin_code}, {"from_frame", s.from_frame}, {"into_frame", s.into_frame}};
    json uses = json::array();
    for (const auto& u : s.uses)
      uses.push_back({{"compile_id", u.compile_id}, {"treatment", u.treatment}, {"value", u.value},
                      {"symbol", u.symbol}, {"pinned_by_guard", u.pinned_by_guard}, {"guards", u.guards}});
    js["uses"] = uses;
    scalars.push_back(js);
  }
  j["scalars"] = scalars;
  j["recompile_limit"] = d.recompile_limit;
  j["sources"] = d.sources;
  return j;
}

// Lines named by the rule's evidence: any object with an integer "line" (and maybe "file"), at
// any depth. These are the lines the rule looked at; the page highlights them.
void collect_evidence_lines(const json& j, const std::string& key, json& out, int depth = 0) {
  if (depth > 12) return;
  if (j.is_object()) {
    if (j.contains("line") && j["line"].is_number_integer()) {
      json e{{"line", j["line"]}, {"what", key}};
      if (j.contains("file") && j["file"].is_string()) e["file"] = j["file"];
      out.push_back(e);
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.value().is_number_integer() && it.key().size() > 5 &&
          it.key().compare(it.key().size() - 5, 5, "_line") == 0)
        out.push_back({{"line", it.value()}, {"what", it.key()}});
      else
        collect_evidence_lines(it.value(), it.key(), out, depth + 1);
    }
  } else if (j.is_array()) {
    for (const auto& e : j) collect_evidence_lines(e, key, out, depth + 1);
  }
}

const Kernel* kernel_for(const Program& p, const Finding& f, const Compile** compile_out) {
  for (const auto& c : p.compiles) {
    if (!f.compile_id.empty() && c.id != f.compile_id) continue;
    if (!f.kernel.empty()) {
      if (const Kernel* k = c.kernel(f.kernel)) {
        *compile_out = &c;
        return k;
      }
      continue;
    }
    // No kernel named: the kernel whose source contains the finding's line.
    for (const auto& k : c.kernels) {
      int first = k.source_first_line, n = count_lines(c.source_of(k));
      if (first > 0 && f.location.line >= first && f.location.line < first + n &&
          (f.location.file.empty() || f.location.file == k.def_loc.file || f.location.file == c.files.output_code)) {
        *compile_out = &c;
        return &k;
      }
    }
  }
  return nullptr;
}

json finding_json(const Finding& f, const Program& p) {
  json j;
  j["rule"] = f.rule;
  j["severity"] = severity_name(f.severity);
  j["message"] = f.message;
  j["notes"] = f.notes;
  j["location"] = loc_json(f.location);
  json rel = json::array();
  for (const auto& r : f.related) rel.push_back({{"loc", loc_json(r.loc)}, {"message", r.message}});
  j["related"] = rel;
  j["compile_id"] = f.compile_id;
  j["kernel"] = f.kernel;
  j["evidence"] = f.evidence;
  j["fix"] = f.fix;
  j["fingerprint"] = f.fingerprint;
  j["confirmation"] = f.confirmation;
  const Compile* c = nullptr;
  if (const Kernel* k = kernel_for(p, f, &c)) {
    j["kernel_ref"] = {{"compile", c->id}, {"kernel", k->name}};
  }
  json lines = json::array();
  collect_evidence_lines(f.evidence, "evidence", lines);
  j["evidence_lines"] = lines;

  // Guards of the Dynamo compile(s) that produced this Inductor compile, and the scalars that
  // enter them: the guard that pins (or fails to pin) a scalar the finding is about.
  json guards = json::array();
  json scalars = json::array();
  std::set<std::string> frame_compiles;
  for (const auto& fr : p.dynamo.frames)
    for (const auto& fc : fr.compiles) {
      bool match = !f.compile_id.empty() &&
                   std::find(fc.inductor_compiles.begin(), fc.inductor_compiles.end(), f.compile_id) !=
                       fc.inductor_compiles.end();
      if (f.evidence.is_object() && f.evidence.contains("frame_compile") && f.evidence["frame_compile"].is_string())
        match = match || f.evidence["frame_compile"].get<std::string>() == fc.compile_id;
      if (!match) continue;
      frame_compiles.insert(fc.compile_id);
      for (size_t i = 0; i < fc.guards.size() && i < 300; ++i) {
        json g = guard_json(fc.guards[i]);
        g["frame_compile"] = fc.compile_id;
        guards.push_back(g);
      }
    }
  for (const auto& s : p.dynamo.scalars) {
    bool relevant = false;
    for (const auto& u : s.uses) relevant |= frame_compiles.count(u.compile_id) > 0;
    for (const auto& r : f.related)
      relevant |= s.origin.valid() && r.loc.line == s.origin.line &&
                  fs::path(r.loc.file.str()).filename() == fs::path(s.origin.file.str()).filename();
    if (!relevant) continue;
    json js{{"local_name", s.local_name}, {"produced_by", s.produced_by}, {"origin", loc_json(s.origin)},
            {"origin_code", s.origin_code}};
    json uses = json::array();
    for (const auto& u : s.uses)
      uses.push_back({{"compile_id", u.compile_id}, {"treatment", u.treatment}, {"value", u.value},
                      {"pinned_by_guard", u.pinned_by_guard}, {"guards", u.guards}});
    js["uses"] = uses;
    scalars.push_back(js);
  }
  j["guards"] = guards;
  j["frame_compiles"] = frame_compiles;
  j["scalars"] = scalars;
  return j;
}

}  // namespace

std::string escape_json_for_script(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
             (static_cast<unsigned char>(text[i + 2]) == 0xA8 || static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
      out += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

// The report's data but its "compiles" member: that one is nearly all of it (each compile's
// kernels with their sources, its FX graph), and write_report_data writes it a compile at a time.
json report_data_but_compiles(const Analysis& a, const HtmlOptions& opts) {
  json d;
  d["tool"] = {{"name", "inductor-lint"}, {"version", opts.tool_version}};
  d["title"] = opts.title;
  d["inputs"] = a.program.inputs;
  d["torch_version"] = a.program.torch_version;
  d["dynamo"] = dynamo_json(a.program.dynamo);
  json findings = json::array();
  // The user's line each finding is grouped under (review_location.h: SARIF's primary location).
  GeneratedFiles generated(a.ingest);
  for (const auto& f : a.findings) {
    json jf = finding_json(f, a.program);
    jf["user_line"] = loc_json(review_location(f, generated));
    findings.push_back(std::move(jf));
  }
  d["findings"] = findings;
  json suppressed = json::array();
  if (opts.suppressed)
    for (const auto& s : *opts.suppressed) {
      json jf = finding_json(s.finding, a.program);
      jf["suppressed_reason"] = s.reason;
      jf["suppressed_by"] = loc_json(s.suppressed_by);
      suppressed.push_back(jf);
    }
  d["suppressed"] = suppressed;
  json rules = json::array();
  std::vector<RuleDoc> docs = opts.rules.empty() ? rule_catalog() : opts.rules;
  for (const auto& r : docs)
    rules.push_back({{"id", r.info.id}, {"name", r.info.name}, {"severity", severity_name(r.info.default_severity)},
                     {"precision", r.info.precision}, {"tags", r.info.tags}, {"description", r.full_description},
                     {"doc", r.markdown}});
  d["rules"] = rules;
  json diags = json::array();
  for (const auto& g : a.diags.sorted())
    diags.push_back({{"level", diag_level_name(g.level)}, {"code", g.code}, {"message", g.message}, {"loc", loc_json(g.loc)}});
  d["diagnostics"] = diags;
  d["coverage"] = coverage_json(a.coverage);
  if (!a.localizations.empty()) {
    d["localizations"] = localizations_json(a);
  }

  // User source lines the findings point at (analyzer/model/user_source_lines.h).
  json user_lines = json::object();
  UserSourceLines sources(a.program, opts.quotable_roots, opts.read_user_sources);
  auto add_line = [&](const SourceLoc& l) {
    if (!l.valid()) return;
    std::string key = l.file + ":" + std::to_string(l.line);
    if (user_lines.contains(key)) return;
    UserSourceLine line = sources.line(l);
    json entry = json::object();
    if (line.outside_roots) entry["not_quoted"] = "the file is outside the inputs and --source-root";
    if (line.from != UserSourceLine::From::Nowhere) {
      entry["text"] = line.text;
      entry["from"] = line.from == UserSourceLine::From::File ? "file" : "fx comment";
    }
    if (!entry.empty()) user_lines[key] = entry;
  };
  auto each_related = [&](const auto& visit) {
    for (const auto& f : a.findings)
      for (const auto& r : f.related) visit(r.loc);
    if (opts.suppressed)
      for (const auto& s : *opts.suppressed)
        for (const auto& r : s.finding.related) visit(r.loc);
  };
  each_related([&](const SourceLoc& l) { sources.want(l); });
  each_related(add_line);
  d["user_lines"] = user_lines;
  return d;
}

std::string script_json(const json& j) {
  return escape_json_for_script(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

// A compile's block, written a member and an array element at a time: what is held at once is one
// kernel, launch or FX node as a document, never the compile's (a document's node takes ~100 bytes
// where the model takes a few: as one document, a call function of 110k launches would take 11
// times its file, a 20 MB FX graph 47 times).
// The text is the compile's document as nlohmann dumps it, whose objects list their members in
// sorted order: the members below are written in that order.
void write_compile_json(const Compile& c, std::ostream& out) {
  char separator = '{';
  auto key = [&](const char* name) {
    out << separator << '"' << name << "\":";
    separator = ',';
  };
  auto member = [&](const char* name, const json& value) {
    key(name);
    out << script_json(value);
  };
  auto array_member = [&](const char* name, const auto& items, const auto& item_json) {
    key(name);
    out << '[';
    bool first = true;
    for (const auto& item : items) {
      if (!first) out << ',';
      first = false;
      out << script_json(item_json(item));
    }
    out << ']';
  };
  member("buffers", c.buffers.size());
  member("cpp_wrapper", c.cpp_wrapper);
  member("device", c.device_type);
  member("dir", c.files.dir);
  array_member("fx", c.fx.nodes, fx_node_json);
  member("graph_kind", c.graph_kind);
  member("id", c.id);
  array_member("inputs", c.inputs, input_json);
  array_member("kernels", c.kernels, [&](const Kernel& k) { return kernel_json(c, k); });
  array_member("launch_list", c.launches, launch_json);
  member("launches", c.launches.size());
  member("output_code", c.files.output_code);
  out << '}';
}

// A compile's line in the page's index: what the compile list and the overview show without
// parsing the compile itself.
json compile_index_json(const Compile& c) {
  // The raw files the compile was read from, as absolute paths the page links with file:// (a
  // compile read from a TORCH_TRACE log links the log).
  json files = json::object();
  auto add = [&](const char* name, const std::string& path) {
    std::error_code ec;
    if (!path.empty()) files[name] = fs::absolute(path, ec).lexically_normal().string();
  };
  if (!c.files.trace_compile_id.empty()) {
    add("TORCH_TRACE log", c.files.output_code.str());
  } else {
    add("output_code.py", c.files.output_code.str());
    add("fx_graph_readable.py", c.files.fx_graph_readable.str());
    add("fx_graph_runnable.py", c.files.fx_graph_runnable.str());
  }
  return {{"id", c.id},
          {"graph_kind", c.graph_kind},
          {"device", c.device_type},
          {"kernels", c.kernels.size()},
          {"buffers", c.buffers.size()},
          {"launches", c.launches.size()},
          {"fx", c.fx.nodes.size()},
          {"files", files}};
}

// The page's data, as html_report_data's document but cut in pieces: the "report-data" block
// holds everything but "compiles" plus "compile_index" (a line per compile), and each compile is
// a block of its own ("report-compile"), in order, which the page parses only when it shows that
// compile. One block of the whole passes the longest string V8 makes (2^29 - 24 characters)
// past ~0.5 GB of data: on half of bench/'s 100k-kernel corpus (572 MB) Chromium got a cut text
// ("Unexpected end of JSON input") and rendered nothing. And a page that builds every compile's
// kernel table at once had not loaded after 30 s in Chromium on a quarter of that corpus (8,004
// captures, 289 MB); past 200 compiles each starts closed, its table built when it is opened.
// Written a piece at a time: the whole document, its dump and the escaped copy of those 8,004
// captures held 2.9 GB at once, against 0.4 GB for the JSON report (docs/performance.md, 'The
// HTML report in pieces').
void write_report_data(const Analysis& a, const HtmlOptions& opts, std::ostream& out) {
  json rest = report_data_but_compiles(a, opts);
  json index = json::array();
  for (const auto& c : a.program.compiles) index.push_back(compile_index_json(c));
  rest["compile_index"] = std::move(index);
  out << "<script type=\"application/json\" id=\"report-data\">" << script_json(rest) << "</script>\n";
  for (const auto& c : a.program.compiles) {
    out << "<script type=\"application/json\" class=\"report-compile\">";
    write_compile_json(c, out);
    out << "</script>\n";
  }
}

}  // namespace

json html_report_data(const Analysis& a, const HtmlOptions& opts) {
  json d = report_data_but_compiles(a, opts);
  json compiles = json::array();
  for (const auto& c : a.program.compiles) {
    std::ostringstream block;
    write_compile_json(c, block);
    compiles.push_back(json::parse(block.str()));
  }
  d["compiles"] = std::move(compiles);
  return d;
}

void write_html(const Analysis& a, std::ostream& out, const HtmlOptions& opts) {
  // The title goes through the same escaping as text content.
  std::string title;
  for (char c : opts.title) {
    if (c == '<') title += "&lt;";
    else if (c == '>') title += "&gt;";
    else if (c == '&') title += "&amp;";
    else if (c == '"') title += "&quot;";
    else title += c;
  }
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src data:\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << title << "</title>\n<style>\n"
      << kReportCss << "\n</style>\n</head>\n<body>\n"
      << "<noscript>This report needs JavaScript to render.</noscript>\n"
      << "<div id=\"app\"></div>\n";
  write_report_data(a, opts, out);
  out << "<script>\n" << kReportJs << "\n</script>\n</body>\n</html>\n";
}

}  // namespace ilint
