// Walking the strings of a record: which strings are code (under a code key)
// and which are prose, with their dotted paths. Shared by the gates that
// audit text (anonymization, no-cross-reference, no-fabrication).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/value.hpp"

namespace otm::gates {

// snippet, dispatch_snippet, attempted_code (gates.md §2.3).
bool is_code_key(std::string_view key);

// Calls `fn(path, value, in_code)` for every scalar below `v` (depth first,
// key order); `in_code` is true below a code key.
void walk_scalars(const json::Value &v, const std::string &path, bool in_code,
                  const std::function<void(const std::string &, const json::Value &, bool)> &fn);

// Calls `fn(text, in_code)` for every string scalar below `v`, in
// walk_scalars' order, without building paths (a gate that needs none).
template <typename Fn> void walk_strings(const json::Value &v, bool in_code, Fn &&fn) {
  if (const auto *o = v.as_object()) {
    for (const auto &[k, child] : *o) walk_strings(child, in_code || is_code_key(k), fn);
  } else if (const auto *a = v.as_array()) {
    for (const auto &item : *a) walk_strings(item, in_code, fn);
  } else if (const auto *s = v.as_string()) {
    fn(*s, in_code);
  }
}

// The code a record quotes, as (field, text) with fields relative to the
// payload: implementation.snippet, implementation.dispatch_snippet and
// attempted_code (a string or its `snippet`), the non-blank ones.
std::vector<std::pair<std::string, std::string>> quoted_code(const json::Value &record);

// A code line as the verbatim gate compares it: runs of blanks (space, tab,
// CR, FF, VT) collapsed to one space, leading and trailing ones dropped.
std::string collapse_whitespace(std::string_view line);

// The record's id or "?" for messages.
std::string record_id_or(const json::Value &record, std::string_view fallback = "");

} // namespace otm::gates
