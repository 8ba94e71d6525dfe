// A compiler option through which a lever may be set (`num_stages` for
// pipeline-stages), with where a DSL's compiler leaves it unused, as data
// (a lever's "compiler_option" in the `levers` section of
// data/otm-config.json):
//   "compiler_option": {
//     "name": "num_stages",
//     "acts_only_when": {"triton": ["tl\\.dot\\w*\\s*\\(", ...],  // device code that lets it act
//                        "gluon": []},                            // never acts
//     "unused_because": {"triton": "...", "gluon": "..."},       // the reason a record states
//     "said_unused": "\\b(?:ignor\\w*|not used|...)"              // prose that already says so
//   }
// A DSL the option does not list uses it wherever the lever's code is. Round
// 12: a Triton `num_stages` 2 -> 4 on a kernel with no `tl.dot` was filed as
// "more stages cost registers" when Triton's pipeliner never stages such a
// loop; a Gluon kernel's ignored `num_stages` was credited as a milestone.
//
//   if (auto why = option->unused_because("triton", device_code)) refuse(...*why);
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::levers {

class CompilerOption {
public:
  // Throws otm::Error (Usage) naming `where` when malformed.
  static CompilerOption from_json(const json::Value &option, const std::string &where);

  const std::string &name() const { return name_; }
  // Why `dsl`'s compiler leaves the option unused on a kernel whose device
  // code (code::device_code) is `device_code`: the DSL is listed and none
  // of its patterns occurs there. nullopt when the option may act.
  std::optional<std::string> unused_because(std::string_view dsl, std::string_view device_code) const;
  // Whether `text` already says the option goes unused ("Gluon ignores
  // num_stages"): a record that says so states the lever's true lesson.
  bool said_unused(std::string_view text) const;

private:
  std::string name_;
  std::map<std::string, std::vector<std::shared_ptr<const text::Regex>>, std::less<>> acts_only_when_;
  std::map<std::string, std::string, std::less<>> unused_because_;
  std::shared_ptr<const text::Regex> said_unused_;
};

} // namespace otm::levers
