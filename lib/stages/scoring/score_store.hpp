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
};

struct ScoreSummary {
  std::size_t records = 0, rescored = 0;
  std::string console; // the report printed on stdout
};

// Throws a NegativeVerdict Error when the staging store has no records, io::IoError
// naming every file that does not parse (nothing is written then).
ScoreSummary score_staging(const ScoreOptions &opts);

} // namespace otm::scoring
