// What a staging store's reports/ holds, read beneath the store's root with
// the policy every gate reads records with (io::Beneath): a refusal ledger
// or a ladder picture that is a symbolic link out of the store, not a
// regular file, or over limits.max_file_bytes is never read, only named
// (issue 27: a ledger linked to a file outside put that file's text into
// the review page). The one reader of reports/*/ for the review page, the
// staging README and the archive report.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "config/limits.hpp"
#include "json/value.hpp"

namespace otm::store {

struct StagedReports {
  // Every row of every reports/<slug>/refusals.jsonl, in slug order.
  std::vector<json::Value> refusals;
  // The slugs whose reports/<slug>/ladder.svg is a regular file beneath the
  // store (raw directory names: escape them to show them).
  std::vector<std::string> ladder_slugs;
  // What was not read, and why ("reports/x/refusals.jsonl: a symbolic link
  // or path leading out of the store"), names escaped.
  std::vector<std::string> problems;
};

// An absent reports/ is an empty answer, never an error.
StagedReports read_staged_reports(const std::filesystem::path &store_root, const config::Limits &limits);

} // namespace otm::store
