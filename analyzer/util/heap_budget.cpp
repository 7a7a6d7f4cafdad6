#include "analyzer/util/heap_budget.h"

#include <algorithm>

// jemalloc's control interface, when the binary links jemalloc (the CLI does, CMakeLists.txt);
// weak, so that a binary without it (the test runner, the sanitizer builds) links and finds it
// null.
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));

namespace ilint {

namespace {

// This thread's running totals of bytes allocated and freed; null where the allocator has none.
struct ThreadCounters {
  const uint64_t* allocated = nullptr;
  const uint64_t* deallocated = nullptr;
};

const ThreadCounters& thread_counters() {
  thread_local const ThreadCounters counters = [] {
    ThreadCounters c;
    if (!mallctl) return c;
    uint64_t* a = nullptr;
    uint64_t* d = nullptr;
    size_t size = sizeof(a);
    if (mallctl("thread.allocatedp", &a, &size, nullptr, 0) != 0) return c;
    size = sizeof(d);
    if (mallctl("thread.deallocatedp", &d, &size, nullptr, 0) != 0) return c;
    c.allocated = a;
    c.deallocated = d;
    return c;
  }();
  return counters;
}

// Bytes to take off what this thread's counters say: growth left uncounted, less the charges.
thread_local int64_t adjustment = 0;

uint64_t thread_net() {
  const ThreadCounters& c = thread_counters();
  return c.allocated ? *c.allocated - *c.deallocated : 0;
}

}  // namespace

HeapBudget::HeapBudget(size_t ratio) : ratio_(ratio), adjustment0_(adjustment) {
  const ThreadCounters& c = thread_counters();
  if (!c.allocated) return;
  allocated0_ = *c.allocated;
  deallocated0_ = *c.deallocated;
}

HeapUncounted::HeapUncounted() : net0_(thread_net()) {}
HeapUncounted::~HeapUncounted() { adjustment += static_cast<int64_t>(thread_net() - net0_); }
void heap_charge(size_t bytes) { adjustment -= static_cast<int64_t>(bytes); }

bool HeapBudget::counted() { return thread_counters().allocated != nullptr; }

std::string HeapBudget::reason() const {
  auto mib = [](size_t bytes) { return std::to_string((bytes + (size_t{1} << 19)) >> 20) + " MiB"; };
  return "the compile's model took " + mib(used()) + ", over its budget of " + mib(allowed()) + " (" +
         std::to_string(ratio_) + " times its files' " + mib(input_) + ", at least " + mib(kMemoryBudgetFloor) +
         "; --max-memory-ratio)";
}

size_t HeapBudget::used() const {
  const ThreadCounters& c = thread_counters();
  if (!c.allocated) return 0;
  int64_t grown = static_cast<int64_t>((*c.allocated - allocated0_) - (*c.deallocated - deallocated0_)) -
                 (adjustment - adjustment0_);
  return held_ + static_cast<size_t>(std::max<int64_t>(grown, 0));
}

}  // namespace ilint
