#include "analyzer/config/inline_suppressions.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "analyzer/parse/python.h"
#include "analyzer/rule.h"

namespace ilint {

namespace {

using py::trim_space;

bool consume(std::string_view& s, std::string_view word) {
  s = trim_space(s);
  if (s.substr(0, word.size()) != word) return false;
  s.remove_prefix(word.size());
  return true;
}

}  // namespace

std::optional<InlineSuppression> parse_inline_suppression(std::string_view line) {
  for (size_t hash = line.find('#'); hash != std::string_view::npos; hash = line.find('#', hash + 1)) {
    std::string_view s = line.substr(hash + 1);
    if (!consume(s, "inductor-lint") || !consume(s, ":") || !consume(s, "ignore")) continue;
    if (s.empty() || s.front() != '[') continue;
    size_t close = s.find(']');
    if (close == std::string_view::npos) continue;
    InlineSuppression out;
    std::string_view ids = s.substr(1, close - 1);
    while (!ids.empty()) {
      size_t comma = ids.find(',');
      std::string_view id = trim_space(ids.substr(0, comma));
      if (!id.empty()) out.rules.emplace_back(id);
      if (comma == std::string_view::npos) break;
      ids.remove_prefix(comma + 1);
    }
    if (out.rules.empty()) continue;
    std::string_view reason = trim_space(s.substr(close + 1));
    // `ignore[x]: reason` and `ignore[x] - reason` read as `ignore[x] reason`.
    if (!reason.empty() && (reason.front() == ':' || reason.front() == '-')) reason = trim_space(reason.substr(1));
    out.reason = std::string(reason);
    return out;
  }
  return std::nullopt;
}

std::vector<SuppressedFinding> apply_inline_suppressions(std::vector<Finding>& findings, UserSourceLines& lines,
                                                         const GeneratedFiles& generated, DiagSink* diags) {
  std::vector<SuppressedFinding> suppressed;
  std::vector<Finding> kept;
  // A comment naming no rule suppresses nothing, silently, as a typo would: said once per line and
  // id, with the nearest id (ruff warns on an unknown code in `# noqa` the same way).
  std::set<std::tuple<std::string, int, std::string>> unknown_said;
  const RuleRegistry& registry = RuleRegistry::instance();
  for (const auto& f : findings)
    for (const SourceLoc& at : user_locations(f, generated)) lines.want(at);
  for (auto& f : findings) {
    std::optional<SourceLoc> by;
    std::optional<InlineSuppression> hit;
    for (const SourceLoc& at : user_locations(f, generated)) {
      UserSourceLine line = lines.line(at);
      bool read = line.from == UserSourceLine::From::File || (line.from == UserSourceLine::From::FxComment && line.same_path);
      if (!read) continue;
      auto s = parse_inline_suppression(line.text);
      if (s && diags)
        for (const auto& id : s->rules)
          if (id != "*" && !registry.create(id) && unknown_said.insert({at.file.str(), at.line, id}).second)
            diags->warning("inline-suppression-unknown-rule",
                           "`# inductor-lint: ignore[...]` " + registry.unknown_rule_message(id) + "; it suppresses nothing",
                           SourceLoc{at.file, at.line, 0});
      if (s && std::any_of(s->rules.begin(), s->rules.end(), [&](const std::string& id) { return id == f.rule || id == "*"; })) {
        by = at;
        hit = std::move(s);
        break;
      }
    }
    if (!by) {
      kept.push_back(std::move(f));
      continue;
    }
    SuppressedFinding sf;
    sf.reason = hit->reason.empty() ? "inline suppression (no reason given)" : hit->reason;
    sf.suppressed_by = *by;
    sf.in_source = true;
    sf.finding = std::move(f);
    suppressed.push_back(std::move(sf));
  }
  findings = std::move(kept);
  return suppressed;
}

}  // namespace ilint
