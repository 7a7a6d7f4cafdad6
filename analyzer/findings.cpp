#include "analyzer/findings.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "analyzer/util/hash.h"

namespace ilint {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "note";
}

std::optional<Severity> parse_severity(const std::string& s) {
  if (s == "error") return Severity::Error;
  if (s == "warning") return Severity::Warning;
  if (s == "note" || s == "info") return Severity::Note;
  return std::nullopt;
}

namespace {
std::string basename_of(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}

bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// `s` in at most `n` bytes (n > 3): its head and tail around "...", cut between UTF-8 characters.
std::string elide_middle(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  size_t keep = n - 3;
  size_t head = (keep + 1) / 2;
  size_t tail_from = s.size() - (keep - head);
  while (head > 0 && utf8_continuation(s[head])) --head;
  while (tail_from < s.size() && utf8_continuation(s[tail_from])) ++tail_from;
  return s.substr(0, head) + "..." + s.substr(tail_from);
}
}  // namespace

std::string fit_headline(const std::vector<HeadlinePiece>& pieces) {
  // A name shortened below this says nothing any more; a headline that still does not fit then has
  // too many words of its own, which the fixture test (finding_message_test.cpp) catches.
  constexpr size_t kShortestName = 12;
  std::vector<std::string> texts;
  size_t total = 0;
  for (const auto& p : pieces) {
    texts.push_back(p.text);
    total += p.text.size();
  }
  while (total > kHeadlineMaxBytes) {
    size_t longest = texts.size();
    for (size_t i = 0; i < texts.size(); ++i)
      if (pieces[i].from_input && texts[i].size() > kShortestName &&
          (longest == texts.size() || texts[i].size() > texts[longest].size()))
        longest = i;
    if (longest == texts.size()) break;
    size_t over = total - kHeadlineMaxBytes;
    size_t target = texts[longest].size() > over + kShortestName ? texts[longest].size() - over : kShortestName;
    total -= texts[longest].size();
    texts[longest] = elide_middle(texts[longest], target);
    total += texts[longest].size();
  }
  std::string out;
  for (const auto& t : texts) out += t;
  return out;
}

void finalize_findings(std::vector<Finding>& findings) {
  for (auto& f : findings) {
    // The user-source anchor: file name (not the directory, which names the machine) and line.
    std::string anchor;
    if (!f.related.empty() && f.related.front().loc.valid())
      anchor = basename_of(f.related.front().loc.file) + ":" + std::to_string(f.related.front().loc.line);
    std::string material = f.rule + "\x1f" + anchor + "\x1f" + f.fingerprint_key;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(material)));
    f.fingerprint = buf;
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.location.file, a.location.line, a.location.column, a.rule, a.message) <
           std::tie(b.location.file, b.location.line, b.location.column, b.rule, b.message);
  });
}

}  // namespace ilint
