// Reading what recon consumes: work/ladder.jsonl, work/profiles.jsonl,
// work/meta.json, and the live store when one is configured.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "recon/recon.hpp"

namespace otm::recon {

struct Sources {
  std::string ladder; // work/ladder.jsonl or "-"
  std::filesystem::path meta, profiles;
  std::optional<std::filesystem::path> live;  // live store root (holds records/)
  std::optional<std::filesystem::path> trace; // for snapshot existence
};

Inputs load_inputs(const Sources &src, const config::Config &config);

} // namespace otm::recon
