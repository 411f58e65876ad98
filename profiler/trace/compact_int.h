// An int64 held in four bytes: Event::pid and Event::tid. Every event of a trace carries both,
// and a trace of 10^6 launches holds 9M events; real pids and tids (OS ids, NPU indices, lane
// numbers) fit easily in 32 bits. A value outside the inline range still round-trips exactly: it
// is kept once in a process-wide table, and the four bytes hold its place there. Only crafted or
// unusual traces take that path; entering a value there takes a lock, reading one does not.
#ifndef RBLNSIM_PROFILER_TRACE_COMPACT_INT_H_
#define RBLNSIM_PROFILER_TRACE_COMPACT_INT_H_

#include <concepts>
#include <cstdint>
#include <utility>

namespace rblnsim::trace {

class CompactInt {
 public:
  // Inline values: [kInlineMin, INT32_MAX]. Below kInlineMin the encoding counts table entries
  // downwards, so about a billion distinct out-of-range values fit.
  static constexpr int32_t kInlineMin = -(int32_t{1} << 30);

  constexpr CompactInt() = default;
  CompactInt(int64_t value) : raw_(Encode(value)) {}  // NOLINT(google-explicit-constructor)
  CompactInt& operator=(int64_t value) {
    raw_ = Encode(value);
    return *this;
  }
  operator int64_t() const {  // NOLINT(google-explicit-constructor)
    return raw_ >= kInlineMin ? raw_ : Wide(raw_);
  }
  int64_t value() const { return *this; }
  CompactInt& operator+=(int64_t delta) { return *this = value() + delta; }
  CompactInt& operator-=(int64_t delta) { return *this = value() - delta; }

  // Equality as exact matches, so it never looks for another type the value converts to (an
  // ArgValueView would do); orderings compare the int64s.
  friend bool operator==(CompactInt a, CompactInt b) { return a.value() == b.value(); }
  template <std::integral T>
  friend bool operator==(CompactInt a, T b) {
    return std::cmp_equal(a.value(), b);
  }

 private:
  static int32_t Encode(int64_t value) {
    return value >= kInlineMin && value <= INT32_MAX ? static_cast<int32_t>(value)
                                                     : EncodeWide(value);
  }
  // The table's side (compact_int.cc).
  static int32_t EncodeWide(int64_t value);
  static int64_t Wide(int32_t raw);

  int32_t raw_ = 0;
};

static_assert(sizeof(CompactInt) == 4);

// A uint64 in four bytes: Event::flow_id. Held as the CompactInt of a reordering of the uint64
// values that keeps [0, 2^31) and [2^32 - 2^30, 2^32) inline: small ids as a trace file gives
// them, and the flow-id block the bridges hand out (trace/dialect.h, just below 2^32). Every
// other value is kept in CompactInt's table and still reads back exactly.
class CompactFlowId {
 public:
  constexpr CompactFlowId() = default;
  CompactFlowId(uint64_t value) : stored_(Reorder(value)) {}  // NOLINT(google-explicit-constructor)
  CompactFlowId& operator=(uint64_t value) {
    stored_ = Reorder(value);
    return *this;
  }
  operator uint64_t() const {  // NOLINT(google-explicit-constructor)
    return static_cast<uint64_t>(Reorder(static_cast<uint64_t>(stored_.value())));
  }
  uint64_t value() const { return *this; }

  friend bool operator==(CompactFlowId a, CompactFlowId b) { return a.stored_ == b.stored_; }
  template <std::integral T>
  friend bool operator==(CompactFlowId a, T b) {
    return std::cmp_equal(a.value(), b);
  }

 private:
  // Swaps [2^31, 2^32) with [2^64 - 2^31, 2^64) and keeps every other value, as an int64 of the
  // same bits: [2^32 - 2^30, 2^32) lands on [-2^30, 0), CompactInt's inline negatives. It is
  // its own inverse.
  static constexpr int64_t Reorder(uint64_t value) {
    constexpr uint64_t kLow = uint64_t{1} << 31;
    constexpr uint64_t kHigh = uint64_t{1} << 32;
    constexpr uint64_t kShift = ~uint64_t{0} - kHigh + 1;  // 2^64 - 2^32
    if (value >= kLow && value < kHigh)
      value += kShift;
    else if (value >= ~uint64_t{0} - kLow + 1)
      value -= kShift;
    return static_cast<int64_t>(value);
  }

  CompactInt stored_;
};

static_assert(sizeof(CompactFlowId) == 4);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_COMPACT_INT_H_
