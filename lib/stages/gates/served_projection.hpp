// The served projection of a record (gates.md §2.4): what a store serves to
// an agent — id, type, level, retrieval without locator and links, payload,
// evidence.summary, worth.rank.{score, tier} and worth.gain when present.
// The raw-isolation gate searches it for the trace's raw identifiers and
// forbidden keys; this is the one statement of which members it holds.
#pragma once

#include <vector>

#include "json/value.hpp"

namespace otm::gates {

// One member of the projection, in the order the projection lists them,
// with the key path its findings are reported under; `skip_links` drops
// retrieval's locator and links. Points into the record: nothing is copied.
struct ServedPart {
  const char *key_path; // "id", "retrieval", "evidence.summary", ...
  const json::Value *value;
  bool skip_links = false;
};
std::vector<ServedPart> served_parts(const json::Value &record);

// The keys of the projection's own structure, which its printed text holds
// besides the parts' contents ("gain" too when worth.gain is served).
inline constexpr const char *kServedKeys[] = {"id",      "type",  "level", "retrieval", "payload", "evidence",
                                              "summary", "worth", "rank",  "score",     "tier"};

// The projection as a document, built from served_parts (for a search in
// its printed text).
json::Value served_projection(const json::Value &record);

} // namespace otm::gates
