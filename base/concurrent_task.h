// One piece of work on a second thread while the caller does another: Start(fn) runs |fn| on a
// thread of its own, Wait() joins it and rethrows what |fn| threw (std::bad_alloc included), so
// the caller handles its failures exactly as if it had called |fn| itself. When no thread can be
// had (a process at its limits), Start runs |fn| on the caller's thread instead: the results
// are the same, only later. Wait() is idempotent; the destructor waits too.
#ifndef RBLNSIM_BASE_CONCURRENT_TASK_H_
#define RBLNSIM_BASE_CONCURRENT_TASK_H_

#include <exception>
#include <functional>
#include <system_error>
#include <thread>
#include <utility>

namespace rblnsim {

class ConcurrentTask {
 public:
  ConcurrentTask() = default;
  ConcurrentTask(const ConcurrentTask&) = delete;
  ConcurrentTask& operator=(const ConcurrentTask&) = delete;
  ~ConcurrentTask() {
    if (thread_.joinable())
      thread_.join();
  }

  void Start(std::function<void()> fn) {
    fn_ = std::move(fn);
    try {
      thread_ = std::thread([this] { Run(); });
    } catch (const std::system_error&) {
      Run();
    }
  }

  // Start(fn) when |on_second_thread|, else runs |fn| here: for work that only pays for a thread
  // above some size.
  void StartIf(bool on_second_thread, std::function<void()> fn) {
    if (on_second_thread) {
      Start(std::move(fn));
    } else {
      fn_ = std::move(fn);
      Run();
    }
  }

  void Wait() {
    if (thread_.joinable())
      thread_.join();
    if (error_)
      std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void Run() {
    try {
      fn_();
    } catch (...) {
      error_ = std::current_exception();
    }
  }

  std::function<void()> fn_;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_CONCURRENT_TASK_H_
