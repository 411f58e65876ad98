#include "base/concurrent_task.h"

#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <stdexcept>
#include <thread>

namespace rblnsim {
namespace {

TEST(ConcurrentTaskTest, RunsBesideTheCallerAndIsDoneAfterWait) {
  std::atomic<bool> caller_done{false};
  bool saw_caller = false;
  std::thread::id worker;
  ConcurrentTask task;
  task.Start([&] {
    worker = std::this_thread::get_id();
    // Waits for the caller's own work: only possible if the two run at the same time.
    while (!caller_done.load())
      std::this_thread::yield();
    saw_caller = true;
  });
  caller_done = true;
  task.Wait();
  EXPECT_TRUE(saw_caller);
  EXPECT_NE(worker, std::this_thread::get_id());
  task.Wait();  // a second Wait is harmless
}

TEST(ConcurrentTaskTest, WaitRethrowsWhatTheTaskThrew) {
  ConcurrentTask task;
  task.Start([] { throw std::bad_alloc(); });
  EXPECT_THROW(task.Wait(), std::bad_alloc);
  EXPECT_NO_THROW(task.Wait());  // thrown once

  ConcurrentTask other;
  other.Start([] { throw std::runtime_error("no"); });
  EXPECT_THROW(other.Wait(), std::runtime_error);
}

TEST(ConcurrentTaskTest, TheDestructorWaitsForTheTask) {
  std::atomic<int> value{0};
  {
    ConcurrentTask task;
    task.Start([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      value = 7;
    });
  }
  EXPECT_EQ(value.load(), 7);
}

// StartIf(false, fn) runs fn at once on the caller's thread; what it throws still comes from
// Wait, as from a task on a thread of its own.
TEST(ConcurrentTaskTest, StartIfFalseRunsOnTheCallersThread) {
  std::thread::id ran_on;
  ConcurrentTask task;
  task.StartIf(false, [&] { ran_on = std::this_thread::get_id(); });
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  task.Wait();
  ConcurrentTask beside;
  beside.StartIf(true, [&] { ran_on = std::this_thread::get_id(); });
  beside.Wait();
  EXPECT_NE(ran_on, std::this_thread::get_id());
  ConcurrentTask failing;
  failing.StartIf(false, [] { throw std::runtime_error("late"); });
  EXPECT_THROW(failing.Wait(), std::runtime_error);
}

TEST(ConcurrentTaskTest, NothingStartedIsNothingToWaitFor) {
  ConcurrentTask task;
  EXPECT_NO_THROW(task.Wait());
}

}  // namespace
}  // namespace rblnsim
