#include "thread_pool.h"

#include <algorithm>
#include <system_error>

#include <unistd.h>

namespace lngrad::core {

ThreadPool& ThreadPool::Global() {
  static ThreadPool pool;
  return pool;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

int ThreadPool::EnsureWorkers(int count) {
  // Only the job owner changes workers_, and workers never touch it.
  while (static_cast<int>(workers_.size()) < count) {
    try {
      const int index = static_cast<int>(workers_.size());
      workers_.emplace_back([this, index] { WorkerLoop(index); });
    } catch (const std::system_error&) {
      break;  // run with the workers we have
    }
  }
  return static_cast<int>(workers_.size());
}

void ThreadPool::RunTasks() {
  for (;;) {
    const int64_t t = next_task_.fetch_add(1, std::memory_order_relaxed);
    if (t >= num_tasks_) return;
    fn_(context_, t);
  }
}

void ThreadPool::WorkerLoop(int index) {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [&] { return stop_ || (generation_ != seen && index < job_workers_); });
    if (stop_) return;
    seen = generation_;
    lock.unlock();
    RunTasks();
    lock.lock();
    if (--busy_workers_ == 0) done_cv_.notify_one();
  }
}

int ThreadPool::Run(int threads, int64_t num_tasks, TaskFn fn, void* context) {
  threads = static_cast<int>(std::min<int64_t>({threads, num_tasks, kMaxThreads}));
  std::unique_lock<std::mutex> job(job_mutex_, std::defer_lock);
  if (threads <= 1 || !job.try_lock() || (!workers_.empty() && owner_pid_ != getpid())) {
    for (int64_t t = 0; t < num_tasks; ++t) fn(context, t);
    return 1;
  }
  if (workers_.empty()) owner_pid_ = getpid();
  const int workers = std::min(EnsureWorkers(threads - 1), threads - 1);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = fn;
    context_ = context;
    num_tasks_ = num_tasks;
    next_task_.store(0, std::memory_order_relaxed);
    job_workers_ = workers;
    busy_workers_ = workers;
    ++generation_;
  }
  work_cv_.notify_all();
  RunTasks();
  std::unique_lock<std::mutex> lock(mutex_);
  done_cv_.wait(lock, [&] { return busy_workers_ == 0; });
  job_workers_ = 0;
  return workers + 1;
}

}  // namespace lngrad::core
