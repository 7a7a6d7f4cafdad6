#include "analyzer/report/rule_docs.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/util/install_layout.h"

namespace ilint {

namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// "- **Severity**: warning", "id: foo", "| a | b |": metadata, not prose.
bool is_metadata_line(const std::string& line) {
  std::string t = trim(line);
  if (t.empty()) return false;
  if (t[0] == '|' || t[0] == '-' || t[0] == '*' || t[0] == '>' || t[0] == '`') return true;
  auto colon = t.find(':');
  if (colon != std::string::npos && colon < 24 && t.find(' ') > colon) return true;  // "key: value"
  return false;
}

}  // namespace

std::string first_paragraph(const std::string& markdown) {
  std::istringstream in(markdown);
  std::string line, para;
  bool in_front_matter = false, first = true, in_fence = false;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    if (first && t == "---") {
      in_front_matter = true;
      first = false;
      continue;
    }
    first = false;
    if (in_front_matter) {
      if (t == "---") in_front_matter = false;
      continue;
    }
    if (t.rfind("```", 0) == 0) {
      in_fence = !in_fence;
      if (!para.empty()) break;
      continue;
    }
    if (in_fence) continue;
    if (t.empty()) {
      if (!para.empty()) break;
      continue;
    }
    if (t[0] == '#' || (para.empty() && is_metadata_line(t))) {
      if (!para.empty()) break;
      continue;
    }
    if (!para.empty()) para += ' ';
    para += t;
  }
  return para;
}

std::string detects_section(const std::string& markdown) {
  std::istringstream in(markdown);
  std::string line, out, item;
  bool inside = false, in_fence = false;
  auto flush_item = [&] {
    if (item.empty()) return;
    out += (out.empty() ? "" : out.back() == ':' || item.rfind("- ", 0) == 0 ? "\n" : "\n\n") + item;
    item.clear();
  };
  while (std::getline(in, line)) {
    std::string t = trim(line);
    if (t.rfind("#", 0) == 0) {
      if (inside) break;
      inside = t.rfind("## What it detects", 0) == 0;
      continue;
    }
    if (!inside) continue;
    if (t.rfind("```", 0) == 0) {
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) continue;
    if (t.empty()) {
      flush_item();
      continue;
    }
    // A list item starts its own line ("- text"); its indented continuation lines join it.
    if (t.rfind("- ", 0) == 0 || t.rfind("* ", 0) == 0) {
      flush_item();
      item = "- " + t.substr(2);
    } else if (std::isdigit(static_cast<unsigned char>(t[0])) && t.find(". ") != std::string::npos &&
               t.find(". ") < 4) {
      flush_item();
      item = "- " + t.substr(t.find(". ") + 2);
    } else {
      item += (item.empty() ? "" : " ") + t;
    }
  }
  flush_item();
  return out;
}

RuleDoc load_rule_doc(const RuleInfo& info) {
  RuleDoc d;
  d.info = info;
  std::string rel = info.doc_file.empty() ? "rules/" + info.id + ".md" : info.doc_file;
  if (std::string path = companion_file(rel); !path.empty()) {
    d.markdown = read_text(path);
    d.doc_path = path;
  }
  d.full_description = detects_section(d.markdown);
  if (d.full_description.empty()) d.full_description = first_paragraph(d.markdown);
  if (d.full_description.empty()) d.full_description = info.short_description;
#ifdef ILINT_DOCS_URL
  d.help_uri = std::string(ILINT_DOCS_URL) + info.id + ".md";
#else
  if (!d.doc_path.empty()) {
    std::error_code ec;
    d.help_uri = "file://" + std::filesystem::absolute(d.doc_path, ec).lexically_normal().generic_string();
  }
#endif
  if (d.info.short_description.empty()) d.info.short_description = d.info.name.empty() ? d.info.id : d.info.name;
  return d;
}

std::vector<RuleDoc> rule_catalog() {
  register_all_rules();
  auto& reg = RuleRegistry::instance();
  std::vector<RuleDoc> out;
  for (const auto& id : reg.ids()) {
    auto rule = reg.create(id);
    if (!rule) continue;
    RuleInfo info = rule->info();
    if (info.id.empty()) info.id = id;
    out.push_back(load_rule_doc(info));
  }
  return out;
}

}  // namespace ilint
