// The opt-trace-1.0 profile: the store schema narrowed by a declared patch
// list (schema/opt-trace-1.0.patches.json). Generation applies the patches
// in order and asserts that the result only narrows the base: no property
// gained, no type, enum or const widened, no requirement dropped, the
// `schema` const unchanged. Staleness is semantic (canonical form), so a
// byte change in the base that changes no meaning is not "stale".
#pragma once

#include <string>
#include <vector>

#include "error/error.hpp"
#include "record/format_tags.hpp"
#include "json/value.hpp"

namespace otm::schema {

// A patch list that does not apply, or a profile that does not only narrow
// its base (UnreadableInput: the patch list or the profile file is wrong).
class ProfileError : public Error {
public:
  explicit ProfileError(const std::string &message) : Error(ErrorKind::UnreadableInput, message) {}
};

struct Patch {
  json::Value path; // array of keys (strings) and indexes (integers)
  std::string op;   // set | require | restrict
  json::Value value;
  std::string reason;
  std::string dotted_path() const;
};

struct PatchList {
  std::string profile = "opt-trace-1.0";
  std::string base = record::kStoreSchemaTag;
  std::string base_file;
  std::vector<Patch> patches;
};

// Throws ProfileError naming `source` and the bad entry.
PatchList parse_patch_list(const json::Value &doc, const std::string &source);

// Ways `narrowed` is wider than `base` (empty when it only narrows).
std::vector<std::string> widening_violations(const json::Value &base, const json::Value &narrowed);

// Applies the patches, checks the invariants, stamps $id / title /
// description / x-profile-of. Throws ProfileError naming the patch index and
// path when a patch no longer applies, or the violated invariant.
json::Value generate_profile(const json::Value &base, const PatchList &patches);

// SHA-256 of the base's canonical text: what x-profile-of.base_sha256 records.
std::string base_fingerprint(const json::Value &base);

enum class Freshness { UpToDate, Stale, Missing };
struct CheckResult {
  Freshness freshness;
  std::string detail; // where the committed profile differs
};
// Compares the committed profile (null when missing) with a regeneration.
CheckResult check_profile(const json::Value &base, const PatchList &patches, const json::Value *committed);

} // namespace otm::schema
