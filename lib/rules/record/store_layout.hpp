// Where a record lives in a store: records/<type>/<vendor>/<arch>/<dsl>/
// <operator_family>/<id>.json. The one derivation used by the distiller when
// staging, the layout gate, and the admission gate on insert. Every
// component is checked so no field value can steer a write outside the
// store (spec wiki-gate.md weakness "path traversal").
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "error/error.hpp"
#include "json/value.hpp"

namespace otm::record {

// A record whose fields cannot name its place in a store (a missing field,
// a component that would leave the store): the record is refused.
class LayoutError : public Error {
public:
  explicit LayoutError(const std::string &message) : Error(ErrorKind::Refused, message) {}
};

inline constexpr std::size_t kMaxComponentLength = 200;

// Empty string when `component` is safe as one directory or file name
// component; otherwise why not (separator, "..", control character, empty,
// leading dot, overlong, characters outside [A-Za-z0-9._-]).
std::string unsafe_component_reason(std::string_view component);

// The record's directory relative to the store's records/ directory, e.g.
// "strategy/nvidia/blackwell/triton/fused-softmax". A missing dsl files
// under "any", a missing operator_family under "misc"; a missing type,
// vendor or arch is an error (there is no honest default for hardware).
// Throws LayoutError naming the field.
std::filesystem::path record_dir(const json::Value &record);
// record_dir / "<id>.json"
std::filesystem::path record_relpath(const json::Value &record);

// Joins `relpath` to `root`, refusing any result that is not strictly inside
// root (after lexical normalisation).
std::filesystem::path inside(const std::filesystem::path &root, const std::filesystem::path &relpath);

} // namespace otm::record
