#include "distill/grid_cause.hpp"

#include <cmath>
#include <vector>

#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"
#include "workspace/shape_finding.hpp"

namespace otm::distill {

namespace {

struct CountedShape {
  std::string label;
  double before = 0, after = 0, gain_pct = 0; // gain: percent faster than before
};

std::vector<CountedShape> counted_shapes(const json::Value &measurements) {
  std::vector<CountedShape> out;
  if (const auto *shapes = measurements.get("per_shape_vs_measured_against").as_array())
    for (const auto &s : *shapes) {
      auto before = s.get("programs_before").as_number(), after = s.get("programs_after").as_number();
      auto change = s.get("change_pct").as_number();
      if (before && after && change)
        out.push_back({workspace::ShapeFinding::from_json(s).shape, *before, *after, -*change});
    }
  return out;
}

double mean_gain(const std::vector<const CountedShape *> &shapes) {
  double sum = 0;
  for (const auto *s : shapes) sum += s->gain_pct;
  return shapes.empty() ? 0 : sum / static_cast<double>(shapes.size());
}

std::string figure(double x) { return json::hundredths(x).python_str(); }

// A program count: a whole number, as written.
std::string count(double x) {
  return x == std::floor(x) && std::fabs(x) < 1e15 ? std::to_string(static_cast<long long>(x)) : figure(x);
}

// "shape-1 (128 programs), shape-2 (256 programs)": at most three.
std::string listed(const std::vector<const CountedShape *> &shapes, bool after) {
  std::string out;
  for (std::size_t i = 0; i < shapes.size() && i < 3; ++i)
    out += (i ? ", " : "") + shapes[i]->label + " (" + count(after ? shapes[i]->after : shapes[i]->before) +
           ((after ? shapes[i]->after : shapes[i]->before) == 1 ? " program)" : " programs)");
  if (shapes.size() > 3) out += " and " + std::to_string(shapes.size() - 3) + " more";
  return out;
}

} // namespace

GridCauseRule GridCauseRule::from_json(const json::Value &section, std::string_view where) {
  GridCauseRule r;
  const auto section_name = levers::rule_section(section, where, "launch_grid");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.causes_ = levers::whole_token_regex_at(section, "causes", true, here);
  r.fill_causes_ = levers::whole_token_regex_at(section, "fill_causes", true, here);
  r.tail_removal_causes_ = levers::whole_token_regex_at(section, "tail_removal_causes", true, here);
  r.tail_seen_ = levers::whole_token_regex_at(section, "tail_seen", true, here);
  r.sm_count_claims_ = levers::whole_token_regex_at(section, "sm_count_claims", true, here);
  if (const auto names = levers::whole_token_regex_at(section, "sm_count_names", false, here)) {
    // The SM count times a whole number, either way round: group 1 or 2.
    const std::string name = names->pattern();
    r.sm_count_multiple_ = std::make_shared<const text::Regex>(name + R"(\s*\*\s*(\d+)\b|\b(\d+)\s*\*\s*)" + name);
  }
  if (const auto &m = section.get("tail_rounds_max"); !m.is_null()) {
    const auto x = m.as_number();
    if (!x || *x < 1 || m.is_bool())
      throw Error(ErrorKind::Usage, here + ".tail_rounds_max must be a number of rounds, at least 1");
    r.tail_rounds_max_ = *x;
  }
  return r;
}

std::optional<std::string> GridCauseRule::contradiction(const std::string &mechanism,
                                                        const json::Value &measurements) const {
  auto fill = fill_causes_ ? fill_causes_->search(mechanism) : std::nullopt;
  auto grid = causes_ ? causes_->search(mechanism) : std::nullopt;
  auto removal = tail_removal_causes_ ? tail_removal_causes_->search(mechanism) : std::nullopt;
  if (!fill && !grid && !removal) return std::nullopt;
  const auto shapes = counted_shapes(measurements);
  if (shapes.size() < 2) return std::nullopt;
  if (removal)
    for (const auto &s : shapes) {
      if (s.after < 1 || s.after >= s.before || s.before != std::floor(s.before) || s.after != std::floor(s.after))
        continue;
      const double rounds = std::ceil(s.before / s.after), busy = std::fmod(s.before, s.after);
      if (busy == 0 || rounds > tail_rounds_max_ || busy > s.after / 2) continue;
      return "the mechanism says the change leaves no tail (\"" + std::string((*removal)[0]) + "\"), but on " +
             s.label + " its " + count(s.after) + " programs loop over the " + count(s.before) +
             " the grid started before, in " + count(rounds) + " rounds, the last with " + count(busy) +
             " of them busy";
    }
  if (!fill && !grid) return std::nullopt;
  const std::string said = "\"" + std::string(fill ? (*fill)[0] : (*grid)[0]) + "\"";
  std::vector<const CountedShape *> same, changed;
  for (const auto &s : shapes) (s.before == s.after ? same : changed).push_back(&s);
  if (changed.empty())
    return "the mechanism credits the launch grid (" + said +
           "), but every shape starts as many programs after the "
           "change as before (" +
           listed(same, true) + "): the gain is not the grid's";
  if (!same.empty() && mean_gain(same) >= mean_gain(changed) && mean_gain(same) > 0)
    return "the mechanism credits the launch grid (" + said +
           "), but the shapes whose program count the change "
           "left as it was (" +
           listed(same, true) + ") gained " + figure(mean_gain(same)) +
           " % on average, as much as those whose count changed (" + figure(mean_gain(changed)) +
           " %): the gain is not the grid's";
  if (!fill) return std::nullopt;
  auto sms = measurements.get("sm_count").as_number();
  if (!sms || *sms < 1) return std::nullopt;
  std::vector<const CountedShape *> full, short_of;
  for (const auto &s : shapes) (s.before >= *sms ? full : short_of).push_back(&s);
  if (short_of.empty())
    return "the mechanism credits filling the SMs (" + said + "), but every shape already started at least " +
           count(*sms) + " programs, one per SM, before the change (" + listed(full, false) +
           "): the gain is not from filling them";
  if (!full.empty() && mean_gain(full) >= mean_gain(short_of) && mean_gain(full) > 0)
    return "the mechanism credits filling the SMs (" + said + "), but the shapes that already started at least " +
           count(*sms) + " programs before the change (" + listed(full, false) + ") gained " + figure(mean_gain(full)) +
           " % on average, as much as those that did not (" + figure(mean_gain(short_of)) +
           " %): the gain is not from filling them";
  return std::nullopt;
}

std::optional<std::string> GridCauseRule::tail_seen_contradiction(const std::string &mechanism,
                                                                  const json::Value &profiler) const {
  if (!tail_removal_causes_ || !tail_seen_) return std::nullopt;
  auto removal = tail_removal_causes_->search(mechanism);
  if (!removal || !profiler.get("conclusion_is_from_the_kernel_under_test").truthy()) return std::nullopt;
  const auto *conclusion = profiler.get("conclusion").as_string();
  if (!conclusion) return std::nullopt;
  auto seen = tail_seen_->search(*conclusion);
  if (!seen) return std::nullopt;
  return "the mechanism says the change leaves no tail (\"" + std::string((*removal)[0]) +
         "\"), but the profile of the kernel after it reads \"" + std::string((*seen)[0]) + "\"";
}

std::optional<std::string> GridCauseRule::sm_count_claim_contradiction(const std::string &change,
                                                                       const diff::DiffReading &diff) const {
  if (!sm_count_claims_ || !sm_count_multiple_) return std::nullopt;
  auto claim = sm_count_claims_->search(change);
  if (!claim) return std::nullopt;
  for (const auto &h : diff.hunks)
    for (const auto &line : h.running) {
      if (!line.added || line.dead) continue;
      auto m = sm_count_multiple_->search(line.code);
      if (!m) continue;
      const std::string k(m->has(1) ? (*m)[1] : (*m)[2]);
      if (k == "1") continue;
      return "the change text says the grid is the SM count (\"" + std::string((*claim)[0]) +
             "\"), but the diff launches `" + std::string((*m)[0]) + "`, " + k +
             " programs per SM: the claim is not what ran";
    }
  return std::nullopt;
}

} // namespace otm::distill
