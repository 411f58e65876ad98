#include "profiler/trace/event_name.h"

#include <ostream>
#include <utility>

namespace rblnsim::trace {

EventName::EventName(EventName&& other) noexcept {
  std::memcpy(bytes_, other.bytes_, sizeof(bytes_));
  // The block, if any, is ours now.
  other.SetInlineSize(0);
}

EventName& EventName::operator=(const EventName& other) {
  if (this != &other)
    *this = other.view();
  return *this;
}

EventName& EventName::operator=(EventName&& other) noexcept {
  if (this != &other) {
    Release();
    std::memcpy(bytes_, other.bytes_, sizeof(bytes_));
    other.SetInlineSize(0);
  }
  return *this;
}

EventName& EventName::operator=(std::string_view text) {
  // |text| may view this very name (or part of it): assign through a copy in that case.
  const std::string_view current = view();
  if (!text.empty() && text.data() >= current.data() &&
      text.data() < current.data() + current.size() + 1) {
    EventName copy(text);
    return *this = std::move(copy);
  }
  Release();
  Assign(text);
  return *this;
}

void EventName::Assign(std::string_view text) {
  if (text.size() <= kInlineCapacity) {
    if (!text.empty())
      std::memcpy(bytes_, text.data(), text.size());
    SetInlineSize(text.size());
    return;
  }
  char* data = new char[text.size() + 1];
  std::memcpy(data, text.data(), text.size());
  data[text.size()] = '\0';
  const size_t size = text.size();
  std::memcpy(bytes_, &data, sizeof(data));
  std::memcpy(bytes_ + sizeof(data), &size, sizeof(size));
  bytes_[kTagByte] = static_cast<char>(kHeapTag);
}

void EventName::Release() {
  if (on_heap()) {
    delete[] HeapData();
    SetInlineSize(0);
  }
}

std::ostream& operator<<(std::ostream& out, const EventName& name) {
  return out << name.view();
}

}  // namespace rblnsim::trace
