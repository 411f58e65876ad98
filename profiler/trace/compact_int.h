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

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_COMPACT_INT_H_
