#include "analyzer/cpp/cpp_wrapper_vocab.h"

#include <re2/re2.h>

#include <sstream>

namespace ilint {

bool is_bookkeeping_shim(const std::string& name) {
  static const RE2 re(
      R"(aoti_torch_(empty_strided|item_\w+|get_\w+|dtype_\w+|device_type_\w+|layout_\w+|memory_format_\w+|delete_\w+|new_\w+|create_\w+|assign_\w+|check_\w+|_reinterpret_tensor|grad_mode_\w+|release_\w+|clone\w*|tensor_copy_\w*))");
  return RE2::FullMatch(name, re);
}

std::string fallback_kernel_of_shim(const std::string& name) {
  if (name == "aoti_torch_copy_") return "copy_";
  static const RE2 re(R"(aoti_torch_(?:cpu|cuda|xpu|mps)_(\w+))");
  std::string op;
  if (RE2::FullMatch(name, re, &op)) return "aten." + op;
  return name;
}

std::string item_shim_type(const std::string& name) {
  static const RE2 re(R"(aoti_torch_item_(\w+))");
  std::string type;
  if (RE2::FullMatch(name, re, &type)) return type;
  return "";
}

ValueKind item_value_kind(const std::string& t) {
  return t.rfind("int", 0) == 0 || t.rfind("uint", 0) == 0       ? ValueKind::SymInt
         : t.rfind("float", 0) == 0 || t.rfind("bfloat", 0) == 0 ? ValueKind::SymFloat
         : t == "bool"                                          ? ValueKind::SymBool
                                                                : ValueKind::Scalar;
}

std::string without_suffix(const std::string& s, const std::string& suffix) {
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    return s.substr(0, s.size() - suffix.size());
  return s;
}

std::vector<std::string> split_wrapper_lines(const std::string& source) {
  std::vector<std::string> out;
  std::stringstream ss(source);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

std::vector<WrapperCommentMark> wrapper_comment_marks(const std::vector<std::string>& lines) {
  static const RE2 nodes_re(R"(^\s*//\s*Topologically Sorted Source Nodes:\s*\[(.*?)\])");
  static const RE2 handle_re(R"(^\s*//\s*\[Provenance debug handles\]\s*(.*?)\s*$)");
  std::vector<WrapperCommentMark> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    // Nearly every line is code: a substring test first, the pattern only on comment lines.
    if (lines[i].find("//") == std::string::npos) continue;
    std::string m1;
    WrapperCommentMark cm;
    cm.line = static_cast<int>(i) + 1;
    if (lines[i].find("Topologically Sorted Source Nodes") != std::string::npos &&
        RE2::PartialMatch(lines[i], nodes_re, &m1)) {
      std::stringstream ss(m1);
      for (std::string n; std::getline(ss, n, ',');) {
        size_t b = n.find_first_not_of(' '), e = n.find_last_not_of(' ');
        if (b != std::string::npos) cm.source_nodes.push_back(n.substr(b, e - b + 1));
      }
      out.push_back(cm);
    } else if (lines[i].find("[Provenance debug handles]") != std::string::npos &&
               RE2::PartialMatch(lines[i], handle_re, &m1)) {
      cm.handle = m1;
      out.push_back(cm);
    }
  }
  return out;
}

}  // namespace ilint
