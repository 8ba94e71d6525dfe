#include "packet/dram_traffic.hpp"

#include <cmath>

#include "text/pyformat.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "json/parse.hpp"

namespace otm::packet {

namespace {

std::optional<double> number_in(std::string_view text) {
  try {
    std::size_t used = 0;
    double x = std::stod(std::string(text), &used);
    return used > 0 && std::isfinite(x) ? std::optional<double>(x) : std::nullopt;
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

std::optional<CaptureFigures> from_summary(std::string_view summary) {
  static const text::Regex kernel(R"((?m)^Kernel:\s*(.+?)\s*$)"), shape(R"((?m)^Shape:\s*(.+?)\s*$)"),
      duration(R"((?mi)^Duration:\s*([0-9.eE+-]+)\s*(ns|us|usecond|µs|ms|msecond|s)?\s*$)"),
      dram(R"((?mi)^DRAM Throughput:\s*([0-9.eE+-]+)\s*%)");
  auto k = kernel.search(summary), s = shape.search(summary), d = duration.search(summary), r = dram.search(summary);
  if (!k || !s || !d || !r) return std::nullopt;
  auto us = number_in((*d)[1]);
  auto pct = number_in((*r)[1]);
  if (!us || !pct) return std::nullopt;
  const std::string unit = text::to_lower(d->has(2) ? std::string((*d)[2]) : std::string("us"));
  if (unit == "ns") *us /= 1000.0;
  if (unit == "ms" || unit == "msecond") *us *= 1000.0;
  if (unit == "s") *us *= 1e6;
  return CaptureFigures{"", std::string((*k)[1]), std::string((*s)[1]), *pct, *us};
}

std::optional<CaptureFigures> from_metrics(std::string_view text) {
  try {
    auto m = json::parse(text, "metrics_key_run.json");
    auto ns = m.get("gpu__time_duration.sum").as_number();
    auto pct = m.get("dram__throughput.avg.pct_of_peak_sustained_elapsed").as_number();
    if (!ns || !pct || !m.get("kernel").is_string() || !m.get("shape").is_string()) return std::nullopt;
    return CaptureFigures{"", m.string_or("kernel"), m.string_or("shape"), *pct, *ns / 1000.0};
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

// The capture directories of `version` ("v0-full", "v2_after"), in name order.
std::vector<std::string> capture_dirs_of(const trace::TraceFiles &files, const std::string &version) {
  static const text::Regex dir_name("(?i)^(v\\d+)(?:[_-].+)?$");
  std::vector<std::string> out;
  for (const auto &name : files.names("profiles"))
    if (auto m = dir_name.match(name); m && text::to_lower((*m)[1]) == text::to_lower(version)) out.push_back(name);
  return out;
}

} // namespace

std::optional<CaptureFigures> capture_figures(const trace::TraceFiles &files, const std::string &dir) {
  std::optional<CaptureFigures> f;
  if (auto s = files.text("profiles/" + dir + "/summary.txt")) f = from_summary(*s);
  if (!f)
    if (auto m = files.text("profiles/" + dir + "/analysis/metrics_key_run.json")) f = from_metrics(*m);
  if (!f || f->duration_us <= 0 || f->dram_pct <= 0 || f->kernel.empty() || f->shape.empty()) return std::nullopt;
  f->dir = dir;
  return f;
}

std::optional<DramTraffic> dram_traffic(const workspace::Segment &segment, const Context &ctx) {
  if (!ctx.files || segment.record_type != "strategy") return std::nullopt;
  const std::string base = segment.measured_from().version.value_or("");
  if (base.empty()) return std::nullopt;
  std::vector<CaptureFigures> before;
  for (const auto &dir : capture_dirs_of(*ctx.files, base))
    if (auto f = capture_figures(*ctx.files, dir)) before.push_back(std::move(*f));
  for (const auto &dir : segment.ncu_dirs) {
    auto after = capture_figures(*ctx.files, dir);
    if (!after) continue;
    for (const auto &b : before)
      if (b.kernel == after->kernel && b.shape == after->shape)
        return DramTraffic{b, *after, (after->dram_pct * after->duration_us) / (b.dram_pct * b.duration_us)};
  }
  return std::nullopt;
}

} // namespace otm::packet
