// The data that decides which records exist: the trace registry, the
// hardware target table, the non-target kernel list and the ladder
// thresholds. Defaults ship in data/otm-config.json (compiled in); a user
// overrides any part with an override file (--config FILE or OTM_CONFIG):
// objects merge key by key, anything else replaces. See
// docs/configuration.md.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/limits.hpp"
#include "config/settings.hpp"
#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::config {

const char *default_config_text();

struct TargetEntry {
  std::string key, vendor, arch, product;
};

struct RegistryEntry {
  std::string name, path, vendor, arch, product, dsl, harness, note;
};

struct LadderThresholds {
  double milestone_pct = 1.5;
  double mega_pct = 20.0;
  double rebaseline_factor = 5.0;
  double final_tolerance = 1.0001;
  std::size_t deadend_min_chars = 80;
  // `measurement_change_commits`: a commit naming no version made between
  // two versions whose subject matches one of these says the run changed
  // how it measures ("harness: flush L2 between iterations"): the first
  // kept version after it is a re-baseline, not a gain. Null: none does.
  std::shared_ptr<const text::Regex> measurement_change_commits;
};

// When a text is a run's template default rather than a step's own (the
// `boilerplate` section): an expected impact that at least
// template_min_steps steps of a run state, and a mechanism that more than
// max_mechanism_share of a run's strategies (and more than one) would carry.
struct Boilerplate {
  std::size_t template_min_steps = 3;
  double max_mechanism_share = 0.1;
  // How many of a run's `strategies` may carry one mechanism before it is
  // no one's: max_mechanism_share of them, at least one. The drafter drops
  // a mechanism carried by more; the quality report warns of one.
  std::size_t shared_limit(std::size_t strategies) const;
};

class Config {
public:
  // Defaults merged with the override file, if any. A missing or malformed
  // override file is an UnreadableInput Error naming it.
  static Config load(const std::optional<std::filesystem::path> &override_file);
  static Config defaults() { return load(std::nullopt); }
  // The override named by the settings (--config / OTM_CONFIG), if any.
  static Config load(const Settings &settings);

  const json::Value &data() const { return data_; }
  std::string builder_version() const;
  std::vector<TargetEntry> target_table() const;
  std::vector<std::string> non_target_kernels() const;
  // The files that may hold a trace's kernel, in order of preference
  // (workspace::kernel_file_of); kernel.py alone when the key is absent.
  std::vector<std::string> kernel_files() const;
  // The SMs (CUs on AMD) of a product (`launch_grid.sm_count`, by the
  // product of target_table): what a launch grid is read against. nullopt
  // for a product the table does not list.
  std::optional<long> sm_count(const std::string &product) const;
  // The most shared memory one block may use on a product, in bytes
  // (`device_limits.shared_memory_per_block_bytes`, the opt-in maximum):
  // what a kernel's allocations are read against. nullopt for a product the
  // table does not list.
  std::optional<long> shared_memory_per_block(const std::string &product) const;
  // The products with no FP8 matrix units (`device_limits.
  // products_without_fp8_matmul`): a Triton or Gluon dot on FP8 operands
  // does not compile there. A product not listed is not judged.
  std::set<std::string> products_without_fp8_matmul() const;
  // The names a launcher may give a definition's constant axis
  // (`shape_axes.aliases`: "head_dim" -> ["D", "HEAD_DIM", ...]): `B, Hq, D =
  // q.shape` binds D to head_dim. The axis's own name always counts.
  std::map<std::string, std::vector<std::string>> axis_aliases() const;
  LadderThresholds ladder() const;
  // A malformed section is a Usage Error naming it.
  Boilerplate boilerplate() const;
  Limits limits() const;
  std::optional<RegistryEntry> registry_entry(const std::string &name) const;
  std::vector<std::string> registry_names() const;
  // Where the override came from, for messages ("" when defaults only).
  const std::string &override_source() const { return override_source_; }
  // The override file, or "built-in configuration": what an error names.
  std::string source_name() const;

private:
  json::Value data_;
  std::string override_source_;
};

// Deep merge used for overrides (exposed for tests).
json::Value merge(const json::Value &base, const json::Value &over);

} // namespace otm::config
