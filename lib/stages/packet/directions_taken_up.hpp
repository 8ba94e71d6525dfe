// The trace's own rationale for a step: an open direction an earlier step
// recorded ("fuse the max and sum passes" - "the row is read from HBM three
// times") that this step took up. A direction is taken up by the first later
// version whose subject (up to a "Next:" clause, which names that version's
// own next direction) or change description shares enough of its content
// words (case-insensitive; a word matches the same word, or one a prefix of
// the other when the shorter has at least 4 letters, after dropping a plural
// "s": "loads"~"loader", "buffer"~"buffering"; stop words do not count).
// The thresholds are data: the `directions_taken_up` section of
// data/otm-config.json ("min_shared_words", "min_share" of the direction's
// content words).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::packet {

struct DirectionRule {
  std::size_t min_shared_words = 0;
  double min_share = 1.1; // default: nothing is taken up
  // Throws an UnreadableInput Error naming `where` and the key when malformed.
  static DirectionRule from_json(const json::Value &section, std::string_view where);
};

// Whether `step_text` takes up `direction`.
bool takes_up(std::string_view direction, std::string_view step_text, const DirectionRule &rule);

// For each version (by key), the {direction, rationale} objects of earlier
// rows' open_directions it is the first to take up; rows in file order.
std::map<std::string, std::vector<json::Value>> directions_taken_up(const std::vector<workspace::VersionRow> &rows,
                                                                    const DirectionRule &rule);

} // namespace otm::packet
