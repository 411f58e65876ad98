// An event's name, stored in the event itself when it is short. A trace holds millions of events
// and most of their names are 8 to 22 bytes: ATen ops ("aten::mm"), the launch markers, and the
// compiler's command names ("i1_0_W0_args_0_0"), one per device slice. std::string keeps 15
// bytes in place, so every device slice cost a heap block of its own besides the event's 32
// bytes of string; here a name of up to 22 bytes lives in 24 bytes of the event, and only a
// longer one takes a heap block.
//
// Read it as a std::string_view (it converts implicitly); c_str() is NUL-terminated like a
// std::string's. It is not a general string: no appending or editing in place, only assignment.
#ifndef RBLNSIM_PROFILER_TRACE_EVENT_NAME_H_
#define RBLNSIM_PROFILER_TRACE_EVENT_NAME_H_

#include <fmt/format.h>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace rblnsim::trace {

class EventName {
 public:
  // The longest name kept in place; one byte more holds the NUL, the last one the size.
  static constexpr size_t kInlineCapacity = 22;

  EventName() { SetInlineSize(0); }
  EventName(std::string_view text) { Assign(text); }                         // NOLINT
  EventName(const char* text) : EventName(std::string_view(text)) {}         // NOLINT
  EventName(const std::string& text) : EventName(std::string_view(text)) {}  // NOLINT
  EventName(const EventName& other) : EventName(other.view()) {}
  EventName(EventName&& other) noexcept;
  EventName& operator=(const EventName& other);
  EventName& operator=(EventName&& other) noexcept;
  EventName& operator=(std::string_view text);
  EventName& operator=(const char* text) { return *this = std::string_view(text); }
  EventName& operator=(const std::string& text) { return *this = std::string_view(text); }
  ~EventName() { Release(); }

  std::string_view view() const {
    return on_heap() ? std::string_view(HeapData(), HeapSize())
                     : std::string_view(bytes_, InlineSize());
  }
  operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)
  std::string str() const { return std::string(view()); }
  const char* c_str() const { return on_heap() ? HeapData() : bytes_; }
  const char* data() const { return c_str(); }
  size_t size() const { return on_heap() ? HeapSize() : InlineSize(); }
  size_t length() const { return size(); }
  bool empty() const { return size() == 0; }
  // Whether the text lives in a heap block of its own (longer than kInlineCapacity).
  bool on_heap() const { return static_cast<uint8_t>(bytes_[kTagByte]) == kHeapTag; }

  bool starts_with(std::string_view prefix) const { return view().starts_with(prefix); }
  bool ends_with(std::string_view suffix) const { return view().ends_with(suffix); }
  size_t find(std::string_view text, size_t pos = 0) const { return view().find(text, pos); }
  size_t find(char c, size_t pos = 0) const { return view().find(c, pos); }
  size_t rfind(std::string_view text, size_t pos = std::string_view::npos) const {
    return view().rfind(text, pos);
  }
  std::string_view substr(size_t pos, size_t count = std::string_view::npos) const {
    return view().substr(pos, count);
  }
  char operator[](size_t i) const { return c_str()[i]; }
  const char* begin() const { return c_str(); }
  const char* end() const { return c_str() + size(); }

  friend bool operator==(const EventName& a, const EventName& b) { return a.view() == b.view(); }
  friend bool operator==(const EventName& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const EventName& a, const char* b) { return a.view() == b; }
  friend bool operator==(const EventName& a, const std::string& b) { return a.view() == b; }
  friend std::strong_ordering operator<=>(const EventName& a, const EventName& b) {
    return a.view() <=> b.view();
  }
  friend std::strong_ordering operator<=>(const EventName& a, std::string_view b) {
    return a.view() <=> b;
  }

 private:
  static constexpr size_t kTagByte = kInlineCapacity + 1;
  static constexpr uint8_t kHeapTag = 0xFF;

  // On the heap, the first eight bytes hold the block's address (the text, NUL-terminated) and
  // the next eight its size; the tag byte says which form is in use.
  size_t InlineSize() const { return static_cast<uint8_t>(bytes_[kTagByte]); }
  void SetInlineSize(size_t size) {
    bytes_[size] = '\0';
    bytes_[kTagByte] = static_cast<char>(size);
  }
  char* HeapData() const {
    char* data;
    std::memcpy(&data, bytes_, sizeof(data));
    return data;
  }
  size_t HeapSize() const {
    size_t size;
    std::memcpy(&size, bytes_ + sizeof(char*), sizeof(size));
    return size;
  }
  // Sets the text; the current heap block, if any, must have been released.
  void Assign(std::string_view text);
  void Release();

  alignas(char*) char bytes_[kInlineCapacity + 2];
};

static_assert(sizeof(EventName) == 24);

// For test assertions and logs.
std::ostream& operator<<(std::ostream& out, const EventName& name);

}  // namespace rblnsim::trace

template <>
struct std::hash<rblnsim::trace::EventName> {
  size_t operator()(const rblnsim::trace::EventName& name) const noexcept {
    return std::hash<std::string_view>()(name.view());
  }
};

template <>
struct fmt::formatter<rblnsim::trace::EventName> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(const rblnsim::trace::EventName& name, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(name.view(), ctx);
  }
};

#endif  // RBLNSIM_PROFILER_TRACE_EVENT_NAME_H_
