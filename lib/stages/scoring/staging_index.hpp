// The staging index (spec scoring.md §3): records/index.json of the staging
// store, written by otm-score. Its entry shape differs from the live index
// entry of the admission gate (admission/index_entry.hpp); the store's index
// gate compares only retrieval, worth_score, tier and gain_pct, which both
// shapes carry.
#pragma once

#include <string>
#include <vector>

#include "scoring/worth_model.hpp"
#include "json/value.hpp"

namespace otm::scoring {

// §3.1: the first sentence of payload.goal, at most 160 code points, or the
// id (empty when neither exists).
std::string staging_title(const json::Value &record);
// §3.2: the lower-cased, whitespace-collapsed recall text (≤ 2000 code points).
std::string staging_search_text(const json::Value &record, const std::string &title);

json::Value staging_index_entry(const json::Value &record, const std::string &relpath, const Rank &rank);

// The whole document: entries sorted by id (null id as ""), count, header.
json::Value staging_index(std::vector<json::Value> entries, const std::string &builder_version);

} // namespace otm::scoring
