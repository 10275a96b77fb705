// A small persistent thread pool for row blocks. Workers are started on first need and kept;
// a job hands out task indices through an atomic counter, so which thread runs which task is
// free, and every result must depend on the task index only (see layer_norm.cpp).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace lngrad::core {

using TaskFn = void (*)(void* context, int64_t task);

class ThreadPool {
 public:
  // The process-wide pool.
  static ThreadPool& Global();

  ThreadPool() = default;
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Runs fn(context, t) for every t in [0, num_tasks) on at most `threads` threads, the caller
  // being one of them, and returns when all are done. Returns the number of threads used.
  // Runs everything on the caller when threads <= 1, when another job is in progress (a
  // concurrent caller or a nested call), when workers cannot be started, or in a child process
  // forked after the workers were started (they do not exist there).
  int Run(int threads, int64_t num_tasks, TaskFn fn, void* context);

  // Upper bound on the worker count, whatever is requested.
  static constexpr int kMaxThreads = 256;

 private:
  void WorkerLoop(int index);
  // Starts workers until there are `count` (fewer if the system refuses); returns the count.
  int EnsureWorkers(int count);
  void RunTasks();

  std::mutex job_mutex_;    // held by the thread that owns the current job
  int64_t owner_pid_ = -1;  // process that started the workers

  std::mutex mutex_;  // guards everything below except next_task_
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::vector<std::thread> workers_;
  uint64_t generation_ = 0;
  bool stop_ = false;
  int job_workers_ = 0;   // workers 0..job_workers_-1 take part in the current job
  int busy_workers_ = 0;  // of those, how many have not finished
  TaskFn fn_ = nullptr;
  void* context_ = nullptr;
  int64_t num_tasks_ = 0;
  std::atomic<int64_t> next_task_{0};
};

}  // namespace lngrad::core
