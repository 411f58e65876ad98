// An append-only sequence stored in fixed-size chunks. Appending never moves what is stored, so
// a buffer that fills to millions of elements is written once: a std::vector doubling its way
// there copies everything it holds at each step and touches up to twice the memory, which made
// the simulator's time per command grow with the length of a session.
#ifndef RBLNSIM_BASE_CHUNKED_VECTOR_H_
#define RBLNSIM_BASE_CHUNKED_VECTOR_H_

#include <cassert>
#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

namespace rblnsim {

template <typename T, size_t kChunkElements = 8192>
class ChunkedVector {
 public:
  template <bool kConst>
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<kConst, const T*, T*>;
    using reference = std::conditional_t<kConst, const T&, T&>;
    using Owner = std::conditional_t<kConst, const ChunkedVector, ChunkedVector>;

    Iterator() = default;
    Iterator(Owner* owner, size_t at) : owner_(owner), at_(at) {}
    reference operator*() const { return (*owner_)[at_]; }
    pointer operator->() const { return &(*owner_)[at_]; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++at_;
      return before;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    Owner* owner_ = nullptr;
    size_t at_ = 0;
  };
  using iterator = Iterator<false>;
  using const_iterator = Iterator<true>;

  ChunkedVector() = default;
  ChunkedVector(ChunkedVector&&) noexcept = default;
  ChunkedVector& operator=(ChunkedVector&&) noexcept = default;
  ChunkedVector(const ChunkedVector& other) { *this = other; }
  ChunkedVector& operator=(const ChunkedVector& other) {
    if (this != &other) {
      clear();
      for (const T& item : other)
        emplace_back() = item;
    }
    return *this;
  }

  // A default-constructed element at the end, for the caller to fill in place; it stays where it
  // is however many elements follow.
  T& emplace_back() {
    if (size_ == chunks_.size() * kChunkElements)
      chunks_.push_back(std::make_unique<T[]>(kChunkElements));
    T& item = chunks_[size_ / kChunkElements][size_ % kChunkElements];
    item = T();
    ++size_;
    return item;
  }
  void push_back(const T& item) { emplace_back() = item; }

  // Keeps one chunk, so a buffer reused session after session does not reallocate its start.
  void clear() {
    if (chunks_.size() > 1)
      chunks_.resize(1);
    size_ = 0;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) {
    assert(i < size_);
    return chunks_[i / kChunkElements][i % kChunkElements];
  }
  const T& operator[](size_t i) const {
    assert(i < size_);
    return chunks_[i / kChunkElements][i % kChunkElements];
  }
  iterator begin() { return {this, 0}; }
  iterator end() { return {this, size_}; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
};

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_CHUNKED_VECTOR_H_
