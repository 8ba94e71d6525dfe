// Order-insensitive views of a JSON document: a canonical text (keys sorted,
// compact) whose hash identifies a schema's meaning rather than its bytes,
// and structural equality that can ignore annotation keys.
#pragma once

#include <set>
#include <string>

#include "json/value.hpp"

namespace otm::schema {

// Keys sorted by code point at every level, no whitespace, one line.
std::string canonical_text(const json::Value &v);

// Deep equality with object keys compared as sets; keys in `ignored` are
// skipped wherever they appear (except as names inside a `properties` map,
// where they are property names, not annotations). Numbers compare by value.
bool structurally_equal(const json::Value &a, const json::Value &b, const std::set<std::string> &ignored);

// First path where structurally_equal fails ("" when equal), for messages.
std::string first_difference(const json::Value &a, const json::Value &b, const std::set<std::string> &ignored);

} // namespace otm::schema
