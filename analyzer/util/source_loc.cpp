#include "analyzer/util/source_loc.h"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>

#include "analyzer/util/hash.h"
#include "analyzer/util/intern_pool.h"

namespace ilint {

namespace {

using intern_detail::Pool;

const std::string kEmpty;

const std::string* intern(std::string_view s) {
  if (s.empty()) return &kEmpty;
  // Locations of one file are made one after another: the last value of this thread is very
  // often the one asked for.
  thread_local const std::string* last = nullptr;
  // A view of the pooled text itself (an IString passed on as a std::string&): no compare.
  if (last && last->data() == s.data() && last->size() == s.size()) return last;
  if (last && *last == s) return last;
  return last = Pool<std::string>::get(s, text_hash(s));
}

}  // namespace

IString::IString() : s_(&kEmpty) {}
IString::IString(const std::string& s) : s_(intern(s)) {}
IString::IString(std::string_view s) : s_(intern(s)) {}
IString::IString(const char* s) : s_(intern(s ? std::string_view(s) : std::string_view())) {}

std::ostream& operator<<(std::ostream& os, const IString& p) { return os << p.str(); }
void to_json(nlohmann::json& j, const IString& p) { j = p.str(); }

namespace {

// Interned elements: the pointers identify the texts.
uint64_t list_hash(const std::vector<IString>& v) {
  uint64_t h = v.size();
  for (const auto& e : v) h = hash_step(h, reinterpret_cast<uintptr_t>(e.c_str()));
  return hash_finish(h);
}

const std::vector<IString> kEmptyList;

const std::vector<IString>* intern_list(const std::vector<IString>& v) {
  if (v.empty()) return &kEmptyList;
  thread_local const std::vector<IString>* last = nullptr;
  if (last && *last == v) return last;
  return last = Pool<std::vector<IString>>::get(v, list_hash(v));
}

}  // namespace

IStringList::IStringList() : v_(&kEmptyList) {}
IStringList::IStringList(const std::vector<IString>& v) : v_(intern_list(v)) {}

void to_json(nlohmann::json& j, const IStringList& p) {
  j = nlohmann::json::array();
  for (const auto& e : p) j.push_back(e.str());
}

}  // namespace ilint
