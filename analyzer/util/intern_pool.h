// The pool behind every interned value (IString, IStringList, the model's UserFrame): each value
// made once, shared by every thread, never freed, so a pointer identifies it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "analyzer/util/heap_budget.h"

namespace ilint::intern_detail {

// Open addressing, linear probing, power-of-two size: one probe is one cache line of (hash,
// pointer) pairs (texts, or lists of texts), where std::unordered_map walked a node list (a
// cache miss per node). Values live elsewhere (the pool) and are never removed, so there are
// no tombstones.
template <class T>
class PoolTable {
 public:
  template <class Key>
  const T* find(const Key& key, uint64_t h) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& e = slots_[i];
      if (!e.value) return nullptr;
      if (e.hash == h && *e.value == key) return e.value;
    }
  }
  void insert(const T* value, uint64_t h) {
    if ((used_ + 1) * 4 > slots_.size() * 3) {
      HeapUncounted shared_growth;
      grow();
    }
    place(value, h);
    ++used_;
  }
  size_t size() const { return used_; }
  // Empties the table, keeping its slots.
  void clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    used_ = 0;
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    const T* value = nullptr;
  };

 public:
  static constexpr size_t kSlotBytes = sizeof(Slot);

 private:
  void place(const T* value, uint64_t h) {
    size_t i = h & mask_;
    while (slots_[i].value) i = (i + 1) & mask_;
    slots_[i] = Slot{h, value};
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& e : old)
      if (e.value) place(e.value, e.hash);
  }
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t used_ = 0;
};

// Every value of type T made so far, each stored once: a table per thread (no lock: nearly every
// lookup ends there), behind it the shared table and the values themselves, under a lock.
// Never destroyed: values in static objects may be used during static destruction. A deque
// never moves what it holds: the addresses handed out stay valid.
// The thread's table is a cache of at most kThreadEntries values, emptied when full: a model's
// repeated texts number tens of thousands, while an input of a million distinct names (a 20 MB
// FX graph, a kernel of a million statements) would otherwise have each in two tables.
template <class T>
class Pool {
 public:
  static constexpr size_t kThreadEntries = size_t{1} << 16;  // 65,536: 2 MiB of slots at most
  template <class Key>
  static const T* get(const Key& key, uint64_t h) {
    thread_local PoolTable<T> mine;
    if (const T* hit = mine.find(key, h)) return hit;
    if (mine.size() >= kThreadEntries) mine.clear();
    static Pool* pool = new Pool;
    const T* v;
    {
      std::lock_guard<std::mutex> lock(pool->mu_);
      v = pool->shared_.find(key, h);
      if (!v) {
        v = &pool->values_.emplace_back(key);
        pool->shared_.insert(v, h);
        // The table's share of an entry: between 3/8 and 3/4 full, two slots on average.
        heap_charge(2 * PoolTable<T>::kSlotBytes);
      }
    }
    mine.insert(v, h);
    return v;
  }

 private:
  std::mutex mu_;
  std::deque<T> values_;
  PoolTable<T> shared_;
};

}  // namespace ilint::intern_detail
