#include "packet/report_conclusion.hpp"

#include "io/file.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::packet {

namespace {
constexpr std::size_t kMinConclusion = 30;
constexpr std::size_t kMaxConclusion = 1200;
} // namespace

std::optional<std::string> conclusion_of(std::string_view report) {
  static const text::Regex anchors[] = {
      text::Regex(R"((?s)\*\*Root cause\*\*:\s*(.+?)(?:\n\n|\z))"),
      text::Regex(R"((?s)##\s*Key Finding[:\s]*(.+?)(?:\n##|\z))"),
      text::Regex(R"((?s)##\s*(?:Diagnosis|Bottleneck Analysis)\s*(.+?)(?:\n##|\z))"),
      text::Regex(R"((?s)\*\*Evidence\*\*:\s*(.+?)(?:\n\n|\z))"),
  };
  for (const auto &a : anchors) {
    auto m = a.search(report);
    if (!m) continue;
    auto body = text::strip((*m)[1]);
    if (text::code_points(body) >= kMinConclusion) return std::string(text::prefix_code_points(body, kMaxConclusion));
  }
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

std::optional<Conclusion> report_conclusion(const std::filesystem::path &trace, const std::vector<std::string> &dirs) {
  for (const auto &dir : dirs) {
    auto file = trace / "profiles" / dir / "REPORT.md";
    if (!io::is_regular_file(file)) continue;
    if (auto c = conclusion_of(text::replace_invalid_utf8(io::read_file(file)))) return Conclusion{*c, dir};
  }
  return std::nullopt;
}

} // namespace otm::packet
