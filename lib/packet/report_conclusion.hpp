// The profiler conclusion a packet quotes (spec packets.md §2.2): the first
// REPORT.md of a segment's capture directories that yields a usable anchor
// (root cause, key finding, diagnosis, evidence) or, failing that, a head.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace otm::packet {

// The conclusion of one report's text, or nullopt when it yields none.
std::optional<std::string> conclusion_of(std::string_view report);

struct Conclusion {
  std::string text; // unscrubbed, at most 1200 code points
  std::string dir;  // the capture directory it came from
};
// Tries profiles/<dir>/REPORT.md for each dir in order.
std::optional<Conclusion> report_conclusion(const std::filesystem::path &trace, const std::vector<std::string> &dirs);

} // namespace otm::packet
