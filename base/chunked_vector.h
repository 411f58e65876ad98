// A sequence stored in fixed-size chunks, appended at the back and released from the front.
// Neither moves what is stored, so a buffer that fills to millions of elements is written once:
// a std::vector doubling its way there copies everything it holds at each step and touches up to
// twice the memory, which made the simulator's time per command grow with the length of a
// session; a std::deque holds its elements in half-kilobyte nodes, each a small allocation whose
// pages are faulted 4 KiB at a time.
//
// A chunk is megabytes of raw storage, and an element is constructed only when it is appended:
// memory is written for the first time where elements land, a short buffer touches few pages,
// and a large one is allocated in blocks that the allocator may back with huge pages.
#ifndef RBLNSIM_BASE_CHUNKED_VECTOR_H_
#define RBLNSIM_BASE_CHUNKED_VECTOR_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace rblnsim {

// Elements in a chunk of at most |bytes| (at least one): a chunk a few bytes over 8 MiB would
// start a huge page of its own for those bytes.
template <typename T>
constexpr size_t ChunkElementsFor(size_t bytes) {
  return std::max<size_t>(1, bytes / sizeof(T));
}
inline constexpr size_t kDefaultChunkBytes = size_t{8} << 20;

template <typename T, size_t kChunkElements = ChunkElementsFor<T>(kDefaultChunkBytes)>
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
  ChunkedVector(ChunkedVector&& other) noexcept
      : chunks_(std::exchange(other.chunks_, {})),
        front_(std::exchange(other.front_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  ChunkedVector& operator=(ChunkedVector&& other) noexcept {
    if (this != &other) {
      Release();
      chunks_ = std::exchange(other.chunks_, {});
      front_ = std::exchange(other.front_, 0);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ChunkedVector(const ChunkedVector& other) { *this = other; }
  ChunkedVector& operator=(const ChunkedVector& other) {
    if (this != &other) {
      clear();
      for (const T& item : other)
        emplace_back() = item;
    }
    return *this;
  }
  ~ChunkedVector() { Release(); }

  // A default-constructed element at the end, for the caller to fill in place; it stays where it
  // is however many elements follow.
  T& emplace_back() {
    const size_t slot = front_ + size_;
    if (slot == chunks_.size() * kChunkElements)
      chunks_.push_back(std::allocator<T>().allocate(kChunkElements));
    T* item = std::construct_at(chunks_[slot / kChunkElements] + slot % kChunkElements);
    ++size_;
    return *item;
  }
  void push_back(const T& item) { emplace_back() = item; }

  // Destroys the first element; the others keep their addresses, and a chunk is released once
  // every element it held has gone (a queue of millions stays a few chunks long).
  void pop_front() {
    assert(size_ > 0);
    std::destroy_at(&front());
    --size_;
    if (++front_ == kChunkElements) {
      std::allocator<T>().deallocate(chunks_.front(), kChunkElements);
      chunks_.erase(chunks_.begin());
      front_ = 0;
    }
  }
  T& front() { return (*this)[0]; }
  const T& front() const { return (*this)[0]; }

  // Keeps one chunk, so a buffer reused session after session does not reallocate its start.
  void clear() {
    DestroyAll();
    while (chunks_.size() > 1) {
      std::allocator<T>().deallocate(chunks_.back(), kChunkElements);
      chunks_.pop_back();
    }
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) {
    assert(i < size_);
    const size_t slot = front_ + i;
    return chunks_[slot / kChunkElements][slot % kChunkElements];
  }
  const T& operator[](size_t i) const {
    assert(i < size_);
    const size_t slot = front_ + i;
    return chunks_[slot / kChunkElements][slot % kChunkElements];
  }
  iterator begin() { return {this, 0}; }
  iterator end() { return {this, size_}; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  void DestroyAll() {
    for (size_t i = 0; i < size_; ++i)
      std::destroy_at(&(*this)[i]);
    size_ = 0;
    front_ = 0;
  }
  void Release() {
    DestroyAll();
    for (T* chunk : chunks_)
      std::allocator<T>().deallocate(chunk, kChunkElements);
    chunks_.clear();
  }

  std::vector<T*> chunks_;  // each of kChunkElements, constructed from front_ for size_
  size_t front_ = 0;        // slots of the first chunk already released by pop_front
  size_t size_ = 0;
};

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_CHUNKED_VECTOR_H_
