// Fixed vocabularies looked up by a text: keywords, the prelude's names, operator spellings.
// The hand readers ask one of these for most names they meet (each `tmp7`, `x0`, `+=`); a
// std::set<std::string_view> took ~5 string compares per question, an unordered_set hashed with
// std::hash (a byte at a time). Here: one hash of 8 bytes a step, one probe in a table sized
// for no more than half full, and a compare only where length and hash agree.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/util/hash.h"

namespace ilint {

// A map from fixed words to values. The words must outlive it (string literals: these tables
// are function-local statics). A word given twice keeps its first value.
template <class V>
class WordMap {
 public:
  WordMap(std::initializer_list<std::pair<std::string_view, V>> entries) {
    size_for(entries.size());
    for (const auto& [word, value] : entries) add(word, value);
  }

  // The value of `word`, or nullptr when it is not one of the words.
  const V* find(std::string_view word) const {
    uint64_t h = text_hash(word);
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.hash == h && s.word == word) return &s.value;
    }
  }
  bool contains(std::string_view word) const { return find(word) != nullptr; }

 protected:
  WordMap() = default;
  // At most half full: a probe that misses ends at the first or second slot.
  void size_for(size_t words) {
    size_t n = 8;
    while (n < 2 * words) n *= 2;
    slots_.assign(n, Slot{});
    mask_ = n - 1;
  }
  void add(std::string_view word, const V& value) {
    uint64_t h = text_hash(word);
    size_t i = h & mask_;
    for (; slots_[i].used; i = (i + 1) & mask_)
      if (slots_[i].hash == h && slots_[i].word == word) return;
    slots_[i] = Slot{h, word, value, true};
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    std::string_view word;
    V value{};
    bool used = false;
  };
  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

// A set of fixed words.
class WordSet : private WordMap<bool> {
 public:
  WordSet(std::initializer_list<std::string_view> words) {
    size_for(words.size());
    for (std::string_view w : words) add(w, true);
  }
  using WordMap<bool>::contains;
};

}  // namespace ilint
