#include "ladder/summary.hpp"

#include <sstream>

#include "ladder/noise.hpp"
#include "text/pyformat.hpp"

namespace otm::ladder {

namespace {
std::string us(std::optional<double> v) { return v ? text::fixed(*v, 2) + " us" : std::string("-"); }

std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}
} // namespace

std::string summary_text(const std::vector<json::Value> &rows, const Result &r) {
  std::ostringstream os;
  os << "ladder: " << rows.size() << " versions, " << r.milestones.size() << " milestones, " << r.deadends.size()
     << " dead-ends, " << r.rejections.size() << " rejected; best-so-far " << us(r.best) << "\n";
  os << "milestones:\n";
  if (r.milestones.empty()) os << "  (none)\n";
  for (const auto &m : r.milestones) {
    os << "  " << pad(m.version, 6) << pad(std::string(kind_name(m.kind)), 10) << us(usable_geomean(rows.at(m.row)));
    if (m.improve_pct) os << "  " << text::fixed(*m.improve_pct, 2) << "% better than best-so-far";
    os << "\n";
  }
  os << "dead-ends:";
  if (r.deadends.empty()) os << " (none)";
  for (const auto &d : r.deadends) os << " " << d.version;
  os << "\nrejections by reason:\n";
  if (r.rejections.empty()) os << "  (none)\n";
  for (const auto &[group, count] : group_reasons(r.rejections)) {
    os << "  " << pad(std::to_string(count), 4) << group << ":";
    for (const auto &x : r.rejections)
      if (reason_group(x.reason) == group) os << " " << x.version;
    os << "\n";
  }
  return os.str();
}

} // namespace otm::ladder
