#include "scenario/suggest.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace rblnsim::scenario {
namespace {

constexpr size_t kMaxCompareLength = 256;
constexpr size_t kMaxPrintable = 64;

bool EqualIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

int EditDistance(std::string_view a, std::string_view b) {
  if (a.size() > kMaxCompareLength || b.size() > kMaxCompareLength) {
    return static_cast<int>(std::max(a.size(), b.size()));
  }
  // One rolling row: O(|a|·|b|) time, O(|b|) memory.
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) {
    row[j] = static_cast<int>(j);
  }
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      const int substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string NearestName(std::string_view word, const std::vector<std::string_view>& candidates) {
  const int limit = std::max(2, static_cast<int>(word.size()) / 3);
  std::string_view best;
  int best_distance = limit + 1;
  size_t best_gap = 0;
  for (std::string_view candidate : candidates) {
    if (EqualIgnoringCase(word, candidate) && word != candidate) {
      return std::string(candidate);
    }
    int distance = EditDistance(word, candidate);
    // A key that repeats its section's name ("queue_dept" in device.queue) is compared without
    // that prefix too.
    for (size_t i = 0; i + 1 < word.size() && i < kMaxCompareLength; ++i) {
      if (word[i] == '_' || word[i] == '.' || word[i] == ':') {
        distance = std::min(distance, EditDistance(word.substr(i + 1), candidate));
      }
    }
    // Equal distances go to the candidate of the closest length: "mn" is nearer "mm" than "min".
    const size_t gap = word.size() > candidate.size() ? word.size() - candidate.size()
                                                      : candidate.size() - word.size();
    if (distance < best_distance ||
        (distance == best_distance && !best.empty() && gap < best_gap)) {
      best_distance = distance;
      best_gap = gap;
      best = candidate;
    }
  }
  return std::string(best);
}

std::string DidYouMean(std::string_view word, const std::vector<std::string_view>& candidates) {
  const std::string nearest = NearestName(word, candidates);
  return nearest.empty() ? std::string() : "; did you mean '" + nearest + "'?";
}

std::string Printable(std::string_view text) {
  std::string out;
  size_t i = 0;
  for (; i < text.size() && out.size() < kMaxPrintable; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\x%02x", c);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (i < text.size()) {
    out += "...";
  }
  return out;
}

}  // namespace rblnsim::scenario
