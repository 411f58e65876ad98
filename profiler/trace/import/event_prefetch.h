// Reads a stretch of traceEvents ahead of the importer on a second thread. Kineto writes one
// event per line, and a raw newline never sits inside a JSON string, so the first line starting
// with '{' past some offset very likely starts an event: from there the prefetcher reads events
// the way the importer's line guess does (one whole event per line, then ',' and whitespace),
// as one stream over its own copy of the text (line_stream.h), into RawEvents tagged with where
// they begin.
//
// It is only a guess, and the importer stays the judge: it takes a prefetched event only when its
// own walk of the array reaches that very byte as the start of an element, and it then has the
// event its own line guess would have read (same bytes, same reader settings). Anything else --
// a line that was not an event, a pretty-printed file, a damaged event -- is read by the importer
// as usual, so results and errors are those of the single-threaded read.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_EVENT_PREFETCH_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_EVENT_PREFETCH_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "profiler/trace/import/event_reader.h"

namespace rblnsim::trace::import {

class EventPrefetcher {
 public:
  // The reader settings of the importer's own reader, which the prefetched events must share.
  // |plain_scan|: ImportOptions::plain_scan, for the second thread's reader.
  EventPrefetcher(int ns_exponent, const std::vector<std::string>& keep_args, bool plain_scan);
  ~EventPrefetcher();  // waits for the stretch in flight and ends the thread

  // Where the args of the events it reads are placed (EventReader::arg_pool).
  std::shared_ptr<const ArgPool> arg_pool() const { return pool_; }
  EventPrefetcher(const EventPrefetcher&) = delete;
  EventPrefetcher& operator=(const EventPrefetcher&) = delete;

  void set_ns_exponent(int ns_exponent);

  // The first byte at or after |from| in |text| (which holds the input from |text_offset|) that
  // starts a line's first '{', or nullopt.
  static std::optional<uint64_t> LineStartAfter(std::string_view text,
                                                uint64_t text_offset,
                                                uint64_t from);

  // Starts reading the events of |text| (a copy is taken), which holds the input from
  // |text_offset|, from its first byte on. Only when !busy(), and past ahead_end(). False when
  // there is no memory for the copy: nothing is then read ahead.
  bool Start(std::string_view text, uint64_t text_offset);
  // A stretch is in flight.
  bool busy() const { return in_flight_; }
  // Once the stretch in flight is read, adds it to those Take hands out, so that the next can
  // start at once: the second thread then need not wait for the walk to reach its stretch. At
  // most kMaxReady stretches wait. True when nothing is in flight now.
  bool CollectIfDone();
  static constexpr size_t kMaxReady = 2;
  // Where the events read so far and not yet handed out end; 0 when there are none.
  uint64_t ahead_end() const;
  // Where the first event read ahead and not yet handed out begins, or the stretch in flight
  // does; nullopt when neither.
  std::optional<uint64_t> ahead_begin() const;

  // The prefetched event beginning at |pos|, pointed to by |*event|, and where it ends; kNoOffset
  // if none begins there. The event is the caller's to move from until the next Take. Waits for
  // the stretch in flight once |pos| has reached it. Events before |pos| are dropped: the
  // importer's walk has passed them.
  uint64_t Take(uint64_t pos, RawEvent** event);
  // How many stretches handed out no event at all: the file is not laid out one event per line.
  int misses() const { return misses_; }

 private:
  struct Read {
    uint64_t begin = 0;
    uint64_t end = 0;
    RawEvent event;
  };
  // A stretch's events and how far Take has got in them. The first |count| reads are the
  // stretch's; the rest are left over from an earlier stretch, kept for their buffers.
  struct Stretch {
    std::vector<Read> reads;
    size_t count = 0;
    size_t next = 0;   // the first not handed out
    size_t taken = 0;  // handed out
    bool Left() const { return next < count; }
  };
  // Reads into |reads| from its start, reusing its elements; returns how many were read.
  static size_t ReadStretch(EventReader* reader,
                            char* data,
                            size_t size,
                            size_t readable,
                            uint64_t offset,
                            std::vector<Read>* reads);
  void Collect();
  void Work();

  std::unique_ptr<EventReader> reader_;  // used by the worker only while a stretch is in flight
  std::shared_ptr<const ArgPool> pool_;  // reader_'s, read by the importer's thread
  std::unique_ptr<char[]> text_;         // the copy the worker reads, padded for simdjson
  size_t text_capacity_ = 0;
  size_t text_size_ = 0;
  uint64_t pending_begin_ = 0;
  bool in_flight_ = false;  // the caller's view: a stretch was started and not collected
  // Between the threads: a stretch to read (job_), its events (done_), or the end (stop_).
  std::mutex mutex_;
  std::condition_variable wake_;
  bool job_ = false;
  bool done_ = false;
  // done_, readable without the lock: a hint that Collect would not wait.
  std::atomic<bool> finished_{false};
  bool stop_ = false;
  Stretch result_;
  // A handed-out stretch's reads, for the worker to read the next stretch into: a stretch is
  // megabytes of events, and a fresh array for each was a fresh megabytes of page faults, each
  // event's strings allocated again in it.
  std::vector<Read> spare_;
  std::thread worker_;  // last: started once everything it reads is set up
  void Retire();

  std::deque<Stretch> ready_;  // collected, in file order
  // The last stretch Take passed, freed at the next: its last event may still be in use.
  Stretch retired_;
  int misses_ = 0;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_EVENT_PREFETCH_H_
