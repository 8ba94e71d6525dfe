#include "packet/report_conclusion.hpp"

#include <algorithm>

#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/captures.hpp"

namespace otm::packet {

namespace {
constexpr std::size_t kMinConclusion = 30;
constexpr std::size_t kMaxConclusion = 1200;
} // namespace

namespace {

const text::Regex &evidence_anchor() {
  static const text::Regex r(R"((?s)\*\*Evidence\*\*:\s*(.+?)(?:\n\n|\z))");
  return r;
}

std::optional<std::string> anchored(const text::Regex &anchor, std::string_view report) {
  auto m = anchor.search(report);
  if (!m) return std::nullopt;
  auto body = text::strip((*m)[1]);
  if (text::code_points(body) < kMinConclusion) return std::nullopt;
  return std::string(text::prefix_code_points(body, kMaxConclusion));
}

} // namespace

std::optional<std::string> conclusion_of(std::string_view report) {
  static const text::Regex anchors[] = {
      text::Regex(R"((?s)\*\*Root cause\*\*:\s*(.+?)(?:\n\n|\z))"),
      text::Regex(R"((?s)##\s*Key Finding[:\s]*(.+?)(?:\n##|\z))"),
      text::Regex(R"((?s)##\s*(?:Diagnosis|Bottleneck Analysis)\s*(.+?)(?:\n##|\z))"),
  };
  for (const auto &a : anchors)
    if (auto c = anchored(a, report)) return c;
  if (auto c = anchored(evidence_anchor(), report)) return c;
  // The first 20 lines (Python splitlines on \n-separated text).
  std::string head;
  std::size_t pos = 0;
  for (int i = 0; i < 20 && pos < report.size(); ++i) {
    auto nl = report.find('\n', pos);
    if (i) head += '\n';
    head += report.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? report.size() : nl + 1;
  }
  auto t = text::strip(head);
  if (text::code_points(t) >= kMinConclusion) return std::string(text::prefix_code_points(t, kMaxConclusion));
  return std::nullopt;
}

std::optional<std::string> evidence_of(std::string_view report) { return anchored(evidence_anchor(), report); }

std::optional<Conclusion> report_conclusion(const trace::TraceFiles &files, const std::vector<std::string> &dirs,
                                            const std::vector<std::string> &preferred) {
  std::vector<std::pair<std::string, bool>> order;
  for (const auto &p : preferred)
    if (std::find(dirs.begin(), dirs.end(), p) != dirs.end()) order.emplace_back(p, true);
  for (const auto &d : dirs)
    if (std::find(preferred.begin(), preferred.end(), d) == preferred.end()) order.emplace_back(d, false);
  for (const auto &[dir, is_preferred] : order) {
    auto text = files.text("profiles/" + dir + "/REPORT.md");
    if (!text) continue;
    const std::string &report = *text;
    auto c = conclusion_of(report);
    if (!c) continue;
    Conclusion out{*c, dir, trace::capture_tool(dir, report), evidence_of(report), is_preferred};
    if (out.evidence == out.text) out.evidence.reset();
    return out;
  }
  return std::nullopt;
}

} // namespace otm::packet
