#include "analyzer/util/source_loc.h"

#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>
#include <unordered_set>

namespace ilint {

namespace {

const std::string kEmpty;

const std::string* intern(std::string_view s) {
  if (s.empty()) return &kEmpty;
  // Locations of one file are made one after another: the last value of this thread is very
  // often the one asked for, and needs no lock; then this thread's own table, then the shared one.
  thread_local const std::string* last = nullptr;
  if (last && *last == s) return last;
  thread_local std::unordered_map<std::string_view, const std::string*> mine;
  auto it = mine.find(s);
  if (it != mine.end()) return last = it->second;
  static std::mutex mu;
  // Never destroyed: values in static objects may be used during static destruction.
  static auto* pool = new std::unordered_set<std::string>;
  {
    std::lock_guard<std::mutex> lock(mu);
    last = &*pool->emplace(s).first;  // node-based: the address is stable
  }
  mine.emplace(*last, last);  // keyed by a view of the pooled string itself
  return last;
}

}  // namespace

IString::IString() : s_(&kEmpty) {}
IString::IString(const std::string& s) : s_(intern(s)) {}
IString::IString(std::string_view s) : s_(intern(s)) {}
IString::IString(const char* s) : s_(intern(s ? std::string_view(s) : std::string_view())) {}

std::ostream& operator<<(std::ostream& os, const IString& p) { return os << p.str(); }
void to_json(nlohmann::json& j, const IString& p) { j = p.str(); }

namespace {

struct ListHash {
  size_t operator()(const std::vector<IString>& v) const {
    // Interned elements: the pointers identify the texts.
    size_t h = v.size();
    for (const auto& e : v) h = h * 1000003u ^ std::hash<const void*>()(e.c_str());
    return h;
  }
};

const std::vector<IString> kEmptyList;

const std::vector<IString>* intern_list(const std::vector<IString>& v) {
  if (v.empty()) return &kEmptyList;
  thread_local const std::vector<IString>* last = nullptr;
  if (last && *last == v) return last;
  static std::mutex mu;
  static auto* pool = new std::unordered_set<std::vector<IString>, ListHash>;  // never destroyed, as above
  std::lock_guard<std::mutex> lock(mu);
  return last = &*pool->emplace(v).first;  // node-based: the address is stable
}

}  // namespace

IStringList::IStringList() : v_(&kEmptyList) {}
IStringList::IStringList(const std::vector<IString>& v) : v_(intern_list(v)) {}

std::ostream& operator<<(std::ostream& os, const IStringList& p) {
  for (size_t i = 0; i < p.size(); ++i) os << (i ? ", " : "") << p[i];
  return os;
}
void to_json(nlohmann::json& j, const IStringList& p) {
  j = nlohmann::json::array();
  for (const auto& e : p) j.push_back(e.str());
}

}  // namespace ilint
