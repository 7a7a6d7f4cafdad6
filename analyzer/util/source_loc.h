// A position in an input file. Lines and columns are 1-based, as compilers print them.
#pragma once
#include <compare>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ilint {

// An interned string: every equal value shares one copy. For the model's most repeated texts:
// file paths (every location in one file has the same one; locations are the most numerous
// objects of the model: each load, store, statement, literal and FX node has one) and the FX
// node fields that repeat across nodes and compiles (op, target, device, the user's source
// line). A full string in each was most of the model's memory. Copies are a pointer copy;
// equality is pointer equality. Values are never freed (a run reads a bounded set of texts).
class IString {
 public:
  IString();
  IString(const std::string& s);  // NOLINT: written wherever a string was
  IString(std::string_view s);    // NOLINT
  IString(const char* s);         // NOLINT

  const std::string& str() const { return *s_; }
  operator const std::string&() const { return *s_; }  // NOLINT
  operator std::string_view() const { return *s_; }    // NOLINT
  const char* c_str() const { return s_->c_str(); }
  bool empty() const { return s_->empty(); }
  size_t size() const { return s_->size(); }
  size_t find(std::string_view what, size_t pos = 0) const { return s_->find(what, pos); }
  size_t find(char c, size_t pos = 0) const { return s_->find(c, pos); }
  size_t rfind(std::string_view what, size_t pos = std::string::npos) const { return s_->rfind(what, pos); }
  std::string substr(size_t pos, size_t n = std::string::npos) const { return s_->substr(pos, n); }
  char operator[](size_t i) const { return (*s_)[i]; }
  size_t find_first_not_of(std::string_view what, size_t pos = 0) const { return s_->find_first_not_of(what, pos); }
  size_t find_first_of(std::string_view what, size_t pos = 0) const { return s_->find_first_of(what, pos); }
  int compare(size_t pos, size_t n, std::string_view what) const { return s_->compare(pos, n, what); }
  std::string::const_iterator begin() const { return s_->begin(); }
  std::string::const_iterator end() const { return s_->end(); }

  friend bool operator==(const IString& a, const IString& b) { return a.s_ == b.s_; }
  friend bool operator==(const IString& a, const std::string& b) { return *a.s_ == b; }
  friend bool operator==(const IString& a, std::string_view b) { return *a.s_ == b; }
  friend bool operator==(const IString& a, const char* b) { return *a.s_ == b; }
  friend std::strong_ordering operator<=>(const IString& a, const IString& b) {
    if (a.s_ == b.s_) return std::strong_ordering::equal;
    int c = a.s_->compare(*b.s_);
    return c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
  }
  friend std::string operator+(const IString& a, const std::string& b) { return *a.s_ + b; }
  friend std::string operator+(const IString& a, const char* b) { return *a.s_ + b; }
  friend std::string operator+(const std::string& a, const IString& b) { return a + *b.s_; }
  friend std::string operator+(const char* a, const IString& b) { return a + *b.s_; }

 private:
  const std::string* s_;
};

std::ostream& operator<<(std::ostream& os, const IString& p);
void to_json(nlohmann::json& j, const IString& p);

using FilePath = IString;

inline std::vector<IString> to_istrings(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

// An interned list of interned strings: a tensor's sizes or strides ("8", "s0", "1"), the variables
// a kernel statement reads ("tmp0", "tmp1"). The same lists recur on most FX nodes, buffers and
// kernels of a model; a vector in each cost 24 bytes plus a heap block, this is one pointer.
// Read-only once made; assign a new list to change it.
class IStringList {
 public:
  IStringList();
  IStringList(const std::vector<IString>& v);  // NOLINT: written wherever a vector was
  IStringList(std::initializer_list<IString> v) : IStringList(std::vector<IString>(v)) {}

  const std::vector<IString>& vec() const { return *v_; }
  operator const std::vector<IString>&() const { return *v_; }  // NOLINT
  size_t size() const { return v_->size(); }
  bool empty() const { return v_->empty(); }
  const IString& operator[](size_t i) const { return (*v_)[i]; }
  std::vector<IString>::const_iterator begin() const { return v_->begin(); }
  std::vector<IString>::const_iterator end() const { return v_->end(); }

  friend bool operator==(const IStringList& a, const IStringList& b) { return a.v_ == b.v_; }
  friend bool operator==(const IStringList& a, const std::vector<IString>& b) { return *a.v_ == b; }

 private:
  const std::vector<IString>* v_;
};

void to_json(nlohmann::json& j, const IStringList& p);

// `first` followed by `rest`.
inline IStringList with_first(const IString& first, const IStringList& rest) {
  std::vector<IString> v{first};
  v.insert(v.end(), rest.begin(), rest.end());
  return v;
}

struct SourceLoc {
  FilePath file;  // path as found during ingest (or the user's path, for user source lines)
  int line = 0;
  int column = 0;

  bool valid() const { return !file.empty() && line > 0; }
  bool operator==(const SourceLoc&) const = default;
};

}  // namespace ilint
