#include "profiler/trace/shared_text.h"

#include "profiler/trace/interned_texts.h"

namespace rblnsim::trace {

namespace {

// Never destroyed: lists in static storage may be read during exit.
InternedTexts<kMaxSharedTexts>& SharedTexts() {
  static auto* const table = new InternedTexts<kMaxSharedTexts>();
  return *table;
}

}  // namespace

std::optional<SharedText> InternSharedText(std::string_view text, bool raw) {
  if (text.size() > kMaxSharedTextBytes)
    return std::nullopt;
  const std::optional<uint32_t> id = SharedTexts().Lookup(text, /*add=*/true);
  if (!id)
    return std::nullopt;
  return SharedText{*id, raw};
}

std::string_view SharedTextView(uint32_t id) {
  return SharedTexts().Text(id);
}

uint32_t SharedTextCount() {
  return SharedTexts().size();
}

}  // namespace rblnsim::trace
