// A cursor over a fuzzer's input that hands out fixed-width values. Reading past the end yields
// zeros instead of failing, so every input, however short, decodes to exactly one structure and
// libFuzzer's mutations of a byte always change the same field. (clang's FuzzedDataProvider is not
// available to the gcc builds that replay the regression files.)
#ifndef RBLNSIM_TESTS_FUZZ_FUZZ_BYTES_H_
#define RBLNSIM_TESTS_FUZZ_FUZZ_BYTES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace rblnsim::fuzz {

class FuzzBytes {
 public:
  FuzzBytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool exhausted() const { return pos_ >= size_; }

  uint8_t U8() {
    uint8_t value = 0;
    Read(&value, sizeof(value));
    return value;
  }
  uint32_t U32() {
    uint32_t value = 0;
    Read(&value, sizeof(value));
    return value;
  }
  uint64_t U64() {
    uint64_t value = 0;
    Read(&value, sizeof(value));
    return value;
  }
  // Signed values are copied bit for bit; no conversion can overflow.
  int32_t I32() {
    int32_t value = 0;
    Read(&value, sizeof(value));
    return value;
  }
  int64_t I64() {
    int64_t value = 0;
    Read(&value, sizeof(value));
    return value;
  }

  // Up to |length| raw bytes (fewer at the end of the input).
  std::string Bytes(size_t length) {
    const size_t n = std::min(length, size_ - pos_);
    if (n == 0)
      return std::string();
    std::string out(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return out;
  }

 private:
  // Little-endian on every platform the project builds on; the committed seeds assume it.
  void Read(void* out, size_t n) {
    const size_t take = std::min(n, size_ - pos_);
    if (take > 0)
      std::memcpy(out, data_ + pos_, take);
    pos_ += take;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;  // never beyond size_
};

}  // namespace rblnsim::fuzz

#endif  // RBLNSIM_TESTS_FUZZ_FUZZ_BYTES_H_
