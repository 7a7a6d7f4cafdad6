#include "analyzer/parse/line_scan.h"

#include <cstdint>
#include <cstring>

namespace ilint::scan {

const char* const kFragmentLinePattern =
    R"re(^%([A-Za-z_][A-Za-z0-9_]*) : ([A-Za-z_]+)(?: "([^"]*)")?(?:\[num_users=\d+\])? = ([a-z_]+)\[target=(.*?)\](?:\(args = \((.*)\), kwargs = \{(.*)\}\))?\s*$)re";
const char* const kSymPattern = R"(^Sym\((.*)\)$)";
const char* const kTensorPattern = R"(^([a-z]+[0-9]*[a-z0-9]*)\[([^\]]*)\](?:\[([^\]]*)\])?(.*)$)";
// torch 2.14 heads a backward node's comment "# Backward of forward node: File: ...".
const char* const kFileCommentPattern = R"(^#\s*(?:Backward of forward node: )?File: (.*?):(\d+) in ([^,]*), code: (.*)$)";
const char* const kSourceNodesPattern =
    R"(^#\s*Topologically Sorted Source Nodes: \[(.*?)\](?:, Original ATen: \[(.*)\])?\s*$)";
const char* const kProvenanceHandlePattern = R"(^#\s*\[Provenance debug handles\]\s*(.*?)\s*$)";
const char* const kFragmentRefPattern = R"(%([A-Za-z_][A-Za-z0-9_]*))";
const char* const kRunnableConfigPattern =
    R"((?m)^torch\.(_inductor|_dynamo|_functorch)\.config\.([A-Za-z0-9_.]+) = (.*)$)";
const char* const kTorchVersionPattern = R"((?m)^# torch version: (\S+))";

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_alpha_(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_alnum_(char c) { return is_alpha_(c) || is_digit(c); }

// The position after the last byte that is not \s, at least `from`.
size_t end_of_text(std::string_view s, size_t from) {
  size_t e = s.size();
  while (e > from && re2_space(s[e - 1])) --e;
  return e;
}

// s[i..] starts with `lit`: then i moves past it.
bool eat(std::string_view s, size_t& i, std::string_view lit) {
  if (s.size() - i < lit.size() || s.compare(i, lit.size(), lit) != 0) return false;
  i += lit.size();
  return true;
}

// ^#\s*  then `lit`: i moves past both.
bool comment_head(std::string_view s, size_t& i, std::string_view lit) {
  if (s.empty() || s[0] != '#') return false;
  i = 1;
  while (i < s.size() && re2_space(s[i])) ++i;
  return eat(s, i, lit);
}

}  // namespace

bool plain_line(std::string_view s) {
  // Eight bytes at a time: no byte >= 0x80, no byte equal to '\n'.
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull, kNl = kOnes * '\n';
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t x;
    std::memcpy(&x, s.data() + i, 8);
    uint64_t y = x ^ kNl;  // a zero byte where x has '\n'
    if ((x | ((y - kOnes) & ~y)) & kHighs) return false;
  }
  for (; i < s.size(); ++i)
    if (s[i] == '\n' || static_cast<unsigned char>(s[i]) >= 0x80) return false;
  return true;
}

Match fragment_line(std::string_view s, FragmentLine& out) {
  if (!plain_line(s)) return Match::Unsure;
  // Up to the target, every part is forced: each class stops at the byte the next literal
  // starts with, and each optional group, when its first byte is there, must be taken (skipping
  // it leaves a literal that cannot match that byte). A failure there fails the whole pattern.
  out = FragmentLine{};
  size_t i = 0, n = s.size(), b;
  if (!eat(s, i, "%") || i >= n || !is_alpha_(s[i])) return Match::No;
  for (b = i++; i < n && is_alnum_(s[i]);) ++i;
  out.name = s.substr(b, i - b);
  if (!eat(s, i, " : ")) return Match::No;
  for (b = i; i < n && is_alpha_(s[i]);) ++i;
  if (i == b) return Match::No;
  out.type = s.substr(b, i - b);
  if (eat(s, i, " \"")) {
    size_t q = s.find('"', i);
    if (q == std::string_view::npos) return Match::No;
    out.annotation = s.substr(i, q - i);
    i = q + 1;
  }
  if (eat(s, i, "[num_users=")) {
    for (b = i; i < n && is_digit(s[i]);) ++i;
    if (i == b || !eat(s, i, "]")) return Match::No;
  }
  if (!eat(s, i, " = ")) return Match::No;
  for (b = i; i < n && (is_lower(s[i]) || s[i] == '_');) ++i;
  if (i == b) return Match::No;
  out.op = s.substr(b, i - b);
  if (!eat(s, i, "[target=")) return Match::No;
  // The lazy target tries the first ']' first; with it, the optional args group first, then
  // the bare end. Only that first candidate is decided here.
  size_t close = s.find(']', i);
  if (close == std::string_view::npos) return Match::No;
  out.target = s.substr(i, close - i);
  size_t r = close + 1;
  size_t e = end_of_text(s, r);
  size_t a = r;
  if (eat(s, a, "(args = (") && e >= a + 2 && s[e - 2] == '}' && s[e - 1] == ')') {
    // Greedy args then greedy kwargs, before `})` and trailing space: kwargs ends at the last
    // `})` (e - 2), args at the last "), kwargs = {" that leaves room for it.
    size_t q = e - 2;
    constexpr std::string_view kSep = "), kwargs = {";
    if (q >= a + kSep.size()) {
      size_t p = s.rfind(kSep, q - kSep.size());
      if (p != std::string_view::npos && p >= a) {
        out.args = s.substr(a, p - a);
        out.kwargs = s.substr(p + kSep.size(), q - p - kSep.size());
        return Match::Yes;
      }
    }
  }
  if (e == r) return Match::Yes;  // the args group fails on space; the bare `\s*$` matches
  return Match::Unsure;           // a longer target (another ']') might still match
}

Match sym_annotation(std::string_view s, std::string_view& inner) {
  if (!plain_line(s)) return Match::Unsure;
  if (s.size() < 5 || s.compare(0, 4, "Sym(") != 0 || s.back() != ')') return Match::No;
  inner = s.substr(4, s.size() - 5);
  return Match::Yes;
}

Match tensor_annotation(std::string_view s, TensorAnnotation& out) {
  if (!plain_line(s)) return Match::Unsure;
  out = TensorAnnotation{};
  // [a-z]+[0-9]*[a-z0-9]* is any run of [a-z0-9] that starts with a letter; it stops at '['.
  size_t i = 0, n = s.size();
  if (i >= n || !is_lower(s[i])) return Match::No;
  while (i < n && (is_lower(s[i]) || is_digit(s[i]))) ++i;
  if (i >= n || s[i] != '[') return Match::No;
  out.dtype = s.substr(0, i);
  size_t close = s.find(']', i + 1);
  if (close == std::string_view::npos) return Match::No;
  out.shape = s.substr(i + 1, close - i - 1);
  size_t r = close + 1;
  if (r < n && s[r] == '[') {
    size_t close2 = s.find(']', r + 1);
    if (close2 != std::string_view::npos) {
      out.stride = s.substr(r + 1, close2 - r - 1);
      out.device = s.substr(close2 + 1);
      return Match::Yes;
    }
  }
  out.device = s.substr(r);  // the stride group is skipped; `(.*)$` takes the rest
  return Match::Yes;
}

Match file_comment(std::string_view s, FileComment& out) {
  if (!plain_line(s)) return Match::Unsure;
  size_t i = 0;
  if (!comment_head(s, i, "File: ")) {
    if (!comment_head(s, i, "Backward of forward node: ") || !eat(s, i, "File: ")) return Match::No;
  }
  // The lazy file name tries each ':' from the left; what follows it is forced.
  for (size_t colon = s.find(':', i); colon != std::string_view::npos; colon = s.find(':', colon + 1)) {
    size_t d = colon + 1, e = d;
    while (e < s.size() && is_digit(s[e])) ++e;
    if (e == d) continue;
    size_t f = e;
    if (!eat(s, f, " in ")) continue;
    size_t comma = s.find(',', f);
    if (comma == std::string_view::npos) continue;
    size_t c = comma;
    if (!eat(s, c, ", code: ")) continue;
    // RE2 reads the number with strtol and refuses values that do not fit an int (the whole
    // match then fails): leave long numbers to it.
    if (e - d > 9) return Match::Unsure;
    int line = 0;
    for (size_t k = d; k < e; ++k) line = line * 10 + (s[k] - '0');
    out.file = s.substr(i, colon - i);
    out.line = line;
    out.function = s.substr(f, comma - f);
    out.code = s.substr(c);
    return Match::Yes;
  }
  return Match::No;
}

Match source_nodes(std::string_view s, std::string_view& nodes, std::string_view& aten) {
  if (!plain_line(s)) return Match::Unsure;
  size_t i = 0;
  if (!comment_head(s, i, "Topologically Sorted Source Nodes: [")) return Match::No;
  size_t e = end_of_text(s, 0);
  // The lazy node list tries each ']' from the left: with the ATen group first (greedy: up to
  // the last ']' before trailing space), then with nothing but space after it.
  for (size_t close = s.find(']', i); close != std::string_view::npos; close = s.find(']', close + 1)) {
    size_t a = close + 1;
    if (eat(s, a, ", Original ATen: [") && e >= 1 && s[e - 1] == ']' && e - 1 >= a) {
      nodes = s.substr(i, close - i);
      aten = s.substr(a, e - 1 - a);
      return Match::Yes;
    }
    if (close + 1 >= e) {
      nodes = s.substr(i, close - i);
      aten = {};
      return Match::Yes;
    }
  }
  return Match::No;
}

Match provenance_handle(std::string_view s, std::string_view& handle) {
  if (!plain_line(s)) return Match::Unsure;
  size_t i = 0;
  if (!comment_head(s, i, "[Provenance debug handles]")) return Match::No;
  while (i < s.size() && re2_space(s[i])) ++i;
  handle = s.substr(i, end_of_text(s, i) - i);
  return Match::Yes;
}

bool next_fragment_ref(std::string_view& in, std::string_view& name) {
  for (size_t p = in.find('%'); p != std::string_view::npos; p = in.find('%', p + 1)) {
    if (p + 1 >= in.size() || !is_alpha_(in[p + 1])) continue;
    size_t e = p + 2;
    while (e < in.size() && is_alnum_(in[e])) ++e;
    name = in.substr(p + 1, e - p - 1);
    in.remove_prefix(e);
    return true;
  }
  return false;
}

namespace {

// Calls f(line) for each line of `text` (the bytes between line feeds; the last may be empty)
// until f returns false. Lines are where (?m)^ and $ match: after and before '\n'.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  size_t start = 0;
  while (true) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!f(line) || nl == std::string_view::npos) return;
    start = nl + 1;
  }
}

bool is_config_key_char(char c) { return is_alnum_(c) || c == '.'; }

}  // namespace

Match runnable_config(std::string_view text, std::vector<ConfigLine>& out) {
  // A match cannot cross a line (`.` stops at '\n'), and the next search starts where the last
  // match ended (at its line's end): so each line is matched on its own, in order.
  Match result = Match::Yes;
  for_each_line(text, [&](std::string_view line) {
    size_t i = 0;
    if (!eat(line, i, "torch.")) return true;
    std::string_view module;
    for (std::string_view m : {"_inductor", "_dynamo", "_functorch"})
      if (line.compare(i, m.size(), m) == 0) module = line.substr(i, m.size());
    if (module.empty()) return true;
    i += module.size();
    if (!eat(line, i, ".config.")) return true;
    if (!plain_line(line)) {
      result = Match::Unsure;  // `.` over non-ASCII bytes: RE2's business
      return false;
    }
    size_t key_start = i;
    while (i < line.size() && is_config_key_char(line[i])) ++i;
    // The key's class has no space, so the greedy key ends exactly where " = " must start.
    size_t key_end = i;
    if (key_end == key_start || !eat(line, i, " = ")) return true;
    out.push_back({module, line.substr(key_start, key_end - key_start), line.substr(i)});
    return true;
  });
  return result;
}

Match torch_version(std::string_view text, std::string_view& version) {
  Match result = Match::No;
  for_each_line(text, [&](std::string_view line) {
    size_t i = 0;
    if (!eat(line, i, "# torch version: ")) return true;
    if (!plain_line(line)) {
      result = Match::Unsure;  // \S over non-ASCII bytes
      return false;
    }
    size_t e = i;
    while (e < line.size() && !re2_space(line[e])) ++e;
    if (e == i) return true;  // \S+ needs one byte: try the next line
    version = line.substr(i, e - i);
    result = Match::Yes;
    return false;
  });
  return result;
}

namespace {

// One pass over the text, recursion bounded by kMaxJsonDepth.
class JsonStringsScanner {
 public:
  JsonStringsScanner(std::string_view t, JsonEvents& e) : t_(t), e_(e) {}
  bool document() {
    space();
    if (!value(0)) return false;
    space();
    return i_ == t_.size();  // strict: nothing but whitespace after the value
  }

 private:
  static constexpr int kMaxJsonDepth = 256;
  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  bool string(std::string_view& out) {
    size_t b = ++i_;  // past the opening quote
    while (i_ < t_.size()) {
      unsigned char c = static_cast<unsigned char>(t_[i_]);
      if (c == '"') {
        out = t_.substr(b, i_ - b);
        ++i_;
        return true;
      }
      if (c < 0x20 || c >= 0x7f || c == '\\') return false;  // control, non-ASCII or escape: not ours
      ++i_;
    }
    return false;
  }
  bool accept(char c) {
    if (i_ >= t_.size() || t_[i_] != c) return false;
    ++i_;
    return true;
  }
  bool value(int depth) {
    if (i_ >= t_.size() || depth > kMaxJsonDepth) return false;
    if (t_[i_] == '"') {
      std::string_view s;
      if (!string(s)) return false;
      e_.string(s);
      return true;
    }
    if (accept('{')) return members('}', [&] {
             std::string_view k;
             if (i_ >= t_.size() || t_[i_] != '"' || !string(k)) return false;
             e_.key(k);
             space();
             if (!accept(':')) return false;
             space();
             return value(depth + 1);
           });
    if (accept('[')) return members(']', [&] { return value(depth + 1); });
    return false;  // a number, true/false/null, or not JSON
  }
  // The members of an object or the elements of an array (its opener just read): `one` reads
  // each, separated by commas, up to `close`.
  template <class One>
  bool members(char close, One&& one) {
    close == '}' ? e_.start_object() : e_.start_array();
    space();
    if (!accept(close)) {
      do {
        space();
        if (!one()) return false;
        space();
      } while (accept(','));
      if (!accept(close)) return false;
    }
    close == '}' ? e_.end_object() : e_.end_array();
    return true;
  }

  std::string_view t_;
  JsonEvents& e_;
  size_t i_ = 0;
};

}  // namespace

Match json_strings(std::string_view text, JsonEvents& events) {
  return JsonStringsScanner(text, events).document() ? Match::Yes : Match::Unsure;
}

}  // namespace ilint::scan
