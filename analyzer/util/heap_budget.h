// The memory one compile's model may take while it is read: a bound on any input, whatever
// shape the structural limits (a kernel's size, the diagnostics' caps) leave. A reader asks it
// before each kernel; past it the kernel is not read, and says so (the coverage account lists it
// as not read). Semgrep's --max-memory and CodeQL's --ram are the same kind of bound.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ilint {

constexpr size_t kDefaultMaxMemoryRatio = 3;
// What a compile may always take: the fixed part of a model (its maps, the tables of a first
// kernel), so that a small compile is never cut.
constexpr size_t kMemoryBudgetFloor = size_t{16} << 20;

// Counts the heap the calling thread allocated and has not freed since the budget was made,
// from the allocator's per-thread counters (jemalloc's thread.allocated and thread.deallocated:
// reading one is a load). A compile is built on one thread, so what it counts is that compile's
// model and the texts read for it. Where the allocator keeps no such counters (a build without
// jemalloc: the sanitizer builds), nothing is counted and the budget is never exceeded.
class HeapBudget {
 public:
  // `ratio` bytes of heap per byte of input, and at least kMemoryBudgetFloor. 0: no budget.
  explicit HeapBudget(size_t ratio);
  // Input read for this compile: its allowance grows by ratio times `bytes`. `held`: a text read
  // before the budget began (the caller reads output_code.py ahead), counted as used.
  void add_input(size_t bytes, bool held = false) {
    input_ += bytes;
    if (held) held_ += bytes;
  }
  bool exceeded() const { return ratio_ && counted() && used() > allowed(); }
  // Whether `bytes` more stay within it (always, without a budget or counters).
  bool has_room(size_t bytes) const { return !ratio_ || !counted() || used() + bytes <= allowed(); }
  size_t used() const;
  size_t allowed() const { return std::max(kMemoryBudgetFloor, ratio_ * input_); }
  // "the compile's model took 85 MiB, over its budget of 84 MiB (3 times its files' 28 MiB, at
  // least 16 MiB; --max-memory-ratio)": for the warning of what was not read.
  std::string reason() const;
  // Whether this build's allocator counts per thread.
  static bool counted();

 private:
  size_t ratio_;
  size_t input_ = 0;
  size_t held_ = 0;
  uint64_t allocated0_ = 0, deallocated0_ = 0;
  int64_t adjustment0_ = 0;
};

// Memory a thread keeps for the whole run, not for the compile it is reading, is left out of what
// it counts while one of these lives: the intern pool's shared table, which doubles at once (a
// compile that happens to make it double did not take that memory for itself; each entry a compile
// adds is charged its share of the table instead, heap_charge), and the tokenizer's token vector,
// the thread's scratch.
class HeapUncounted {
 public:
  HeapUncounted();
  ~HeapUncounted();
  HeapUncounted(const HeapUncounted&) = delete;
  HeapUncounted& operator=(const HeapUncounted&) = delete;

 private:
  uint64_t net0_ = 0;
};
// Counts `bytes` as taken by the calling thread (an entry's share of a shared table).
void heap_charge(size_t bytes);

}  // namespace ilint
