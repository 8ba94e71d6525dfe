#include "distill/every_shape_claim.hpp"

#include <cmath>
#include <vector>

#include "levers/term_vocabulary.hpp"
#include "workspace/shape_finding.hpp"

namespace otm::distill {

namespace {

struct MeasuredShape {
  std::string label;
  double change_pct = 0; // positive: slower than before
};

std::string figure(double x) { return json::hundredths(x).python_str(); }

// "shape-3 (+12.8 %), shape-5 (+18.55 %)": at most three.
std::string listed(const std::vector<const MeasuredShape *> &shapes) {
  std::string out;
  for (std::size_t i = 0; i < shapes.size() && i < 3; ++i)
    out += (i ? ", " : "") + shapes[i]->label + " (" + (shapes[i]->change_pct > 0 ? "+" : "") +
           figure(shapes[i]->change_pct) + " %)";
  if (shapes.size() > 3) out += " and " + std::to_string(shapes.size() - 3) + " more";
  return out;
}

} // namespace

EveryShapeRule EveryShapeRule::from_json(const json::Value &section, std::string_view where) {
  EveryShapeRule r;
  const auto section_name = levers::rule_section(section, where, "shape_claims");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.every_shape_ = levers::whole_token_regex_at(section, "every_shape", true, here);
  return r;
}

std::optional<std::string> EveryShapeRule::contradiction(const std::string &mechanism,
                                                         const json::Value &measurements) const {
  auto said = every_shape_ ? every_shape_->search(mechanism) : std::nullopt;
  if (!said) return std::nullopt;
  auto band = measurements.get("same_code_shape_spread_pct").as_number();
  const auto *changes = measurements.get("per_shape_vs_measured_against").as_array();
  if (!band || !changes) return std::nullopt;
  std::vector<MeasuredShape> shapes;
  for (const auto &e : *changes)
    if (auto x = e.get("change_pct").as_number(); x && e.get("shape").is_string())
      shapes.push_back({workspace::ShapeFinding::from_json(e).shape, *x});
  if (shapes.size() < 2) return std::nullopt;
  std::vector<const MeasuredShape *> slower, gained, flat;
  for (const auto &s : shapes) (s.change_pct > *band ? slower : s.change_pct < -*band ? gained : flat).push_back(&s);
  const std::string quoted = "\"" + std::string((*said)[0]) + "\"";
  const std::string spread =
      " the run's per-shape spread of re-measurements of unchanged code (" + figure(*band) + " %)";
  if (!slower.empty())
    return "the mechanism claims " + quoted + ", but " + listed(slower) + " measured slower by more than" + spread +
           ": the cause does not hold on every shape";
  if (!gained.empty() && !flat.empty())
    return "the mechanism claims " + quoted + ", but " + listed(flat) + " moved by no more than" + spread + " while " +
           listed(gained) + " gained: the cause does not hold on every shape";
  return std::nullopt;
}

} // namespace otm::distill
