// otm-score (spec scoring.md §2): ranks every staged record with the store's
// worth model and writes the staging index. A distiller never scores its own
// record: worth.rank is always recomputed here from worth.track.
#pragma once

#include <filesystem>
#include <string>

#include "record/format_tags.hpp"

namespace otm::scoring {

struct ScoreOptions {
  std::filesystem::path staging_root;
  bool dry_run = false;
  std::string builder_version = record::kBuilderVersion;
  // --allow-empty: no staged records is a result (every packet was refused,
  // e.g. already live), not an error: an empty index is written. The spec's
  // default (exit 1, "distil first") stays for a store never distilled into.
  bool allow_empty = false;
};

struct ScoreSummary {
  std::size_t records = 0, rescored = 0;
  std::string console; // the report printed on stdout
};

// Throws a NegativeVerdict Error when the staging store has no records (unless
// allow_empty), io::IoError
// naming every file that does not parse (nothing is written then).
ScoreSummary score_staging(const ScoreOptions &opts);

} // namespace otm::scoring
