// Work split over threads: the indexes 0..n-1 handed out one at a time, so a slow item does not
// hold back the others' share. Callers write each result into its own slot, so the output does
// not depend on which thread ran what.
#pragma once
#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace ilint {

// The stack of the analyzer's worker threads. std::thread takes the platform's default, which on
// glibc follows `ulimit -s` (8 MB here) and is 2 MB under `ulimit -s unlimited`; Clang, reading
// code at the nesting limit of analyzer/cpp/cpp_limits.h, needs ~3 MB (more under ASan). Only
// the pages a thread touches are committed.
inline constexpr size_t kWorkerStackBytes = size_t{64} << 20;

// Lets the calling process's main thread grow its stack to kWorkerStackBytes, as GCC does at
// startup: its default follows `ulimit -s` (8 MB here), and Clang, reading C++ at the limits of
// analyzer/cpp/cpp_limits.h, needs a few MB of it (more under ASan). Linux checks the limit when
// the stack grows, so raising the soft limit is enough. False when a hard limit keeps it lower.
// Called first thing by the CLI and the C++ readers' fuzz targets.
inline bool raise_stack_limit() {
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0) return false;
  const rlim_t want = kWorkerStackBytes;
  if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want) return true;
  if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want) return false;
  rl.rlim_cur = want;
  return setrlimit(RLIMIT_STACK, &rl) == 0;
}

// A thread with a kWorkerStackBytes stack (the platform's default if that cannot be had), joined
// by join() or at destruction.
class WorkerThread {
 public:
  explicit WorkerThread(std::function<void()> f) {
    auto* task = new std::function<void()>(std::move(f));
    pthread_attr_t attr;
    bool sized = pthread_attr_init(&attr) == 0;
    if (sized) sized = pthread_attr_setstacksize(&attr, kWorkerStackBytes) == 0;
    int rc = pthread_create(&id_, sized ? &attr : nullptr, &WorkerThread::run, task);
    if (rc != 0 && sized) rc = pthread_create(&id_, nullptr, &WorkerThread::run, task);
    if (sized) pthread_attr_destroy(&attr);
    if (rc != 0) {  // no thread at all: run it here, as a pool of one would
      std::unique_ptr<std::function<void()>> own(task);
      (*own)();
      return;
    }
    running_ = true;
  }
  WorkerThread(WorkerThread&& o) noexcept : id_(o.id_), running_(std::exchange(o.running_, false)) {}
  WorkerThread& operator=(WorkerThread&&) = delete;
  WorkerThread(const WorkerThread&) = delete;
  ~WorkerThread() { join(); }
  void join() {
    if (running_) pthread_join(id_, nullptr);
    running_ = false;
  }

 private:
  static void* run(void* p) {
    std::unique_ptr<std::function<void()>> task(static_cast<std::function<void()>*>(p));
    (*task)();
    return nullptr;
  }
  pthread_t id_{};
  bool running_ = false;
};

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
  std::vector<WorkerThread> pool;
  pool.reserve(static_cast<size_t>(threads));
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace ilint
