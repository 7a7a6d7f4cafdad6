// Work split over threads: the indexes 0..n-1 handed out one at a time, so a slow item does not
// hold back the others' share. Callers write each result into its own slot, so the output does
// not depend on which thread ran what.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ilint {

// Calls f(i) for every i in [0, n) on up to `jobs` threads (the calling thread among them). An
// exception from any f(i) stops the handing out of further indexes and is rethrown here, on the
// calling thread, once every thread has stopped (as if the loop had run on one thread), instead
// of ending the process from a worker.
template <class F>
void parallel_for(size_t n, int jobs, F&& f) {
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mu;
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        f(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (!error) error = std::current_exception();
        next.store(n);
      }
    }
  };
  int threads = std::max(1, static_cast<int>(std::min<size_t>(static_cast<size_t>(std::max(jobs, 1)), n)));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace ilint
