// A regular file mapped read-only, for the importer to read in place. Read through a window
// (text_window.h), every byte of a trace was copied twice before it was parsed: out of the page
// cache by read(), then again when the window slid down over what had been read, keeping the
// stretches the second thread reads ahead (about three quarters of the text moved once). Mapped,
// neither copy is made.
//
// The text is followed by at least simdjson's padding of zero bytes, so any piece of it can be
// handed to simdjson as it is. Memory stays proportional to what is being read, as with the
// window: the pages behind the reader are dropped from the process as it goes (the page cache
// keeps them, so a page read again is simply mapped again), and the pages ahead of it are mapped
// in bulk rather than one fault at a time.
//
// A file truncated by another process while it is mapped (a profiler writing the next trace over
// it) loses the pages past its new end, and reading one faults with SIGBUS. That must not end
// the process: a handler installed with the first mapping puts a zero page in place of a lost
// page of any live mapping and marks the mapping, so the reader sees NUL bytes (an error at that
// byte) and lost() tells the caller why. Faults anywhere else go to the handler that was there
// before.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_MAPPED_TEXT_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_MAPPED_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <memory>

namespace rblnsim::trace::import {

class MappedText {
 public:
  // Maps the |size| bytes of the regular file open as |fd| (which may be closed afterwards);
  // nullptr when it cannot be mapped (the caller then reads the file). |size| > 0.
  static std::unique_ptr<MappedText> Map(int fd, uint64_t size);
  ~MappedText();
  MappedText(const MappedText&) = delete;
  MappedText& operator=(const MappedText&) = delete;

  const char* data() const { return base_; }
  // Pages of the file were gone when read (it shrank while mapped): the text read has zeros there.
  bool lost() const;
  size_t size() const { return size_; }
  // Bytes readable from data(): size() and at least simdjson's padding, zero.
  size_t readable() const { return readable_; }

  // The reader has got to |pos| and needs nothing before |keep_from| (<= pos) any more: the
  // pages before it are dropped and those ahead of |pos| mapped. Cheap to call for every element:
  // it acts once per step of the reader.
  void Advance(uint64_t keep_from, uint64_t pos) {
    if (pos >= next_step_)
      Step(keep_from, pos);
  }

  // Bytes the mapping keeps ahead of the reader, and how far the reader goes between two steps.
  static constexpr size_t kAheadBytes = size_t{32} << 20;
  static constexpr size_t kStepBytes = size_t{4} << 20;

 private:
  MappedText(char* base, size_t size, size_t readable);
  void Step(uint64_t keep_from, uint64_t pos);

  int watch_ = -1;  // this mapping's entry in the SIGBUS handler's table, or -1 if none
  char* base_;
  size_t size_;
  size_t readable_;       // also the whole reservation, padding pages included
  uint64_t dropped_ = 0;  // pages before this were given back
  uint64_t ahead_ = 0;    // pages before this were mapped in bulk
  uint64_t next_step_ = 0;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_MAPPED_TEXT_H_
