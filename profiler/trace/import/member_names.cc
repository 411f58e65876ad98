#include "profiler/trace/import/member_names.h"

namespace rblnsim::trace::import {

std::optional<uint64_t> MemberNames::AddSlow(std::string_view name, uint64_t offset, uint64_t bit) {
  if (listed_count_ < kMaxListed) {
    for (size_t i = 0; i < listed_count_; ++i) {
      if (listed_[i].first == name)
        return listed_[i].second;
    }
    mask_ |= bit;
    listed_[listed_count_++] = {name, offset};
    return std::nullopt;
  }
  if (many_.empty()) {
    many_.reserve(4 * kMaxListed);
    for (const auto& [seen, at] : listed_)
      many_.emplace(seen, at);
  }
  auto [it, inserted] = many_.try_emplace(name, offset);
  if (!inserted)
    return it->second;
  return std::nullopt;
}

}  // namespace rblnsim::trace::import
