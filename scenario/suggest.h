// "Did you mean ...?" for typos in keys, ops, units and tensor names.
#ifndef RBLNSIM_SCENARIO_SUGGEST_H_
#define RBLNSIM_SCENARIO_SUGGEST_H_

#include <string>
#include <string_view>
#include <vector>

namespace rblnsim::scenario {

// Levenshtein distance, case-sensitive. Inputs longer than 256 bytes compare as far apart, so a
// hostile key cannot make suggestion quadratic in the file size.
int EditDistance(std::string_view a, std::string_view b);

// The candidate nearest to `word`, or "" when none is close enough to be a plausible typo
// (distance at most max(2, len/3), or equal ignoring case; a prefix ending in '_', '.' or ':'
// may be ignored). Ties go to the candidate closest in length, then the earliest.
std::string NearestName(std::string_view word, const std::vector<std::string_view>& candidates);

// "; did you mean 'x'?" or "" when there is no plausible suggestion.
std::string DidYouMean(std::string_view word, const std::vector<std::string_view>& candidates);

// `text` made safe for a one-line message: control characters escaped, cut at 64 bytes.
std::string Printable(std::string_view text);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_SUGGEST_H_
