#include "profiler/trace/import/member_names.h"

namespace rblnsim::trace::import {

void MemberNames::Clear() {
  mask_ = 0;
  listed_.clear();
  if (!many_.empty())
    many_.clear();
}

std::optional<uint64_t> MemberNames::Add(std::string_view name, uint64_t offset) {
  if (!many_.empty()) {
    auto [it, inserted] = many_.try_emplace(name, offset);
    if (!inserted)
      return it->second;
    return std::nullopt;
  }
  const uint64_t bit = Bit(name);
  if ((mask_ & bit) != 0) {
    for (const auto& [seen, at] : listed_) {
      if (seen == name)
        return at;
    }
  }
  mask_ |= bit;
  if (listed_.size() < kMaxListed) {
    listed_.emplace_back(name, offset);
    return std::nullopt;
  }
  many_.reserve(2 * kMaxListed);
  for (const auto& [seen, at] : listed_)
    many_.emplace(seen, at);
  many_.emplace(name, offset);
  return std::nullopt;
}

}  // namespace rblnsim::trace::import
