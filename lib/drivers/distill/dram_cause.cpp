#include "distill/dram_cause.hpp"

#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::distill {

DramCauseRule DramCauseRule::from_json(const json::Value &section, std::string_view where) {
  DramCauseRule r;
  const auto section_name = levers::rule_section(section, where, "dram_claims");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.traffic_ = levers::whole_token_regex_at(section, "traffic", true, here);
  if (const auto &m = section.get("min_cut_pct"); !m.is_null()) {
    if (!m.is_number() || *m.as_number() < 0 || *m.as_number() >= 100)
      throw Error(ErrorKind::Usage, here + ".min_cut_pct must be a number in [0, 100)");
    r.min_cut_pct_ = *m.as_number();
  }
  return r;
}

std::optional<std::string> DramCauseRule::contradiction(const std::string &mechanism,
                                                        const json::Value &profiler) const {
  auto said = traffic_ ? traffic_->search(mechanism) : std::nullopt;
  if (!said) return std::nullopt;
  const auto &t = profiler.get("dram_traffic_vs_measured_against");
  auto ratio = t.get("bytes_after_over_before").as_number();
  if (!ratio || *ratio < 1.0 - min_cut_pct_ / 100.0) return std::nullopt;
  auto side = [&](const char *which) {
    const auto &s = t.get(which);
    return "DRAM throughput " + s.get("dram_throughput_pct").python_str() + " % over " +
           s.get("duration_us").python_str() + " us " + which;
  };
  return "the mechanism claims \"" + std::string((*said)[0]) +
         "\" fell, but the run's captures of the same kernel on the same shape before and after the change show "
         "its DRAM bytes at " +
         t.get("bytes_after_over_before").python_str() + " times (" + side("before") + ", " + side("after") +
         "): the gain did not come from DRAM traffic";
}

} // namespace otm::distill
