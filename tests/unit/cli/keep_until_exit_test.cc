// A value handed to KeepUntilExit is never destroyed: its destructor does not run when the call
// returns (nor later in the process), and the value stays usable through what it owned.
#include "tools/rblnsim/keep_until_exit.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

namespace rblnsim::cli {
namespace {

struct Counted {
  explicit Counted(int* destroyed) : destroyed_(destroyed) {}
  Counted(Counted&& other) noexcept : destroyed_(std::exchange(other.destroyed_, nullptr)) {}
  Counted& operator=(Counted&&) = delete;
  ~Counted() {
    if (destroyed_ != nullptr)
      ++*destroyed_;
  }
  int* destroyed_;
};

TEST(KeepUntilExitTest, TheValueIsNeverDestroyed) {
  int destroyed = 0;
  {
    Counted value(&destroyed);
    KeepUntilExit(std::move(value));
  }
  EXPECT_EQ(destroyed, 0);
  KeepUntilExit(Counted(&destroyed));
  EXPECT_EQ(destroyed, 0);
}

TEST(KeepUntilExitTest, WhatTheValueOwnedStaysWhereItWas) {
  auto owned = std::make_unique<std::vector<int>>(1000, 7);
  const std::vector<int>* where = owned.get();
  KeepUntilExit(std::move(owned));
  EXPECT_EQ(where->size(), 1000u);
  EXPECT_EQ((*where)[999], 7);
}

}  // namespace
}  // namespace rblnsim::cli
