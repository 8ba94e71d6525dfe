// The profiler conclusion a packet quotes (spec packets.md §2.2): the first
// REPORT.md of a segment's capture directories that yields a usable anchor
// (root cause, key finding, diagnosis, evidence) or, failing that, a head.
// otm tries the captures that measured the kernel under test first (a
// usable ncu capture before an nsys timeline of the same version), and
// names the capture's real tool and its evidence paragraph.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_files.hpp"

namespace otm::packet {

// The conclusion of one report's text, or nullopt when it yields none.
std::optional<std::string> conclusion_of(std::string_view report);
// The report's `**Evidence**:` paragraph (at least 30 code points, cut to
// 1200), or nullopt.
std::optional<std::string> evidence_of(std::string_view report);

struct Conclusion {
  std::string text;                    // unscrubbed, at most 1200 code points
  std::string dir;                     // the capture directory it came from
  std::string tool;                    // trace::capture_tool of that capture ("" when unknown)
  std::optional<std::string> evidence; // its evidence paragraph, when not already the conclusion
  bool from_preferred = false;         // the capture is one of `preferred`
};
// Tries profiles/<dir>/REPORT.md for each dir of `preferred` that is in
// `dirs` (in `preferred`'s order), then for the other dirs in order.
// The reports are read under the trace reading policy.
std::optional<Conclusion> report_conclusion(const trace::TraceFiles &files, const std::vector<std::string> &dirs,
                                            const std::vector<std::string> &preferred = {});

} // namespace otm::packet
