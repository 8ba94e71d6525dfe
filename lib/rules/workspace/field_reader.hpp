// Reading the typed fields of a JSON object a stage wrote or a run left (a
// row of work/segments.jsonl or work/versions.jsonl, a step record), one
// rule per type (issue 28: each codec had its own copy). A value of the
// wanted type is read; any other leaves the field as it was and adds a
// sentence naming the field, what it is and what it should be:
//
//   FieldReader r("a segment", "otm-partition");
//   r.integer("n", v, seg.n);  // false: "a segment's `n` is a string, not
//                              //   an integer (as otm-partition writes it)"
//   if (r.failed()) return r.error();
//
// A codec stops at the first sentence (error()); a lenient reader reads on
// with defaults and reports them all (problems()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "error/error.hpp"
#include "error/result.hpp"
#include "json/value.hpp"

namespace otm::workspace {

// What a value is, as a sentence names it: "a string", "a list", "null".
const char *kind_name(const json::Value &v);

// The items of a list of strings; nullopt when `v` is anything else.
std::optional<std::vector<std::string>> strings_of(const json::Value &v);

class FieldReader {
public:
  // `subject` names the object ("a segment": "a segment's `n` is ..."; ""
  // names a field bare: "performance.latency_us is ..."); `writer` the
  // stage that writes it, after the sentence when not empty.
  explicit FieldReader(std::string subject = "", std::string writer = "");

  // Each reads `v`, the value of field `key`, into `out` (the type, or an
  // optional of it) and is true; a value of another type leaves `out` as
  // it was, adds the sentence and is false.
  template <typename Out> bool string(std::string_view key, const json::Value &v, Out &out) {
    if (!v.is_string()) return wrong(key, v, "a string");
    out = *v.as_string();
    return true;
  }
  template <typename Out> bool integer(std::string_view key, const json::Value &v, Out &out) {
    if (!v.is_int()) return wrong(key, v, "an integer");
    out = *v.as_int();
    return true;
  }
  template <typename Out> bool number(std::string_view key, const json::Value &v, Out &out) {
    if (!v.is_number()) return wrong(key, v, "a number");
    out = *v.as_number();
    return true;
  }
  template <typename Out> bool strings(std::string_view key, const json::Value &v, Out &out) {
    auto items = strings_of(v);
    if (!items) return wrong(key, v, "a list of strings");
    out = std::move(*items);
    return true;
  }
  bool boolean(std::string_view key, const json::Value &v, bool &out);
  // A string, or null (an empty optional).
  bool string_or_null(std::string_view key, const json::Value &v, std::optional<std::string> &out);
  // A number, or null (an empty optional).
  bool number_or_null(std::string_view key, const json::Value &v, std::optional<double> &out);

  // Checks only, for a value kept as written (a step record's latency
  // stays an integer when it is one, a section is read member by member).
  bool is_number(std::string_view key, const json::Value &v);
  bool is_object(std::string_view key, const json::Value &v);
  bool is_list(std::string_view key, const json::Value &v);

  // The members of `v`, the whole object ("a segment is a list, not an
  // object"); null with the sentence when it is no object.
  const json::Object *members(const json::Value &v);

  bool failed() const { return !problems_.empty(); }
  // The first sentence as an UnreadableInput Error (a codec's result).
  // Only when failed().
  Error error() const;
  // Every sentence, in the order read, joined by "; " ("" when none).
  std::string problems() const;

private:
  // Adds the sentence for `key`; false, for the reads to return.
  bool wrong(std::string_view key, const json::Value &v, std::string_view wanted);

  std::string subject_, writer_;
  std::vector<std::string> problems_;
};

// The field a key names in a table of {key, member pointer}, or null: the
// codecs spell each key once, beside its member.
template <typename Field, std::size_t N>
Field field_of(const std::pair<const char *, Field> (&table)[N], std::string_view key) {
  for (const auto &[k, field] : table)
    if (key == k) return field;
  return nullptr;
}

// `e` with where it was read in front ("work/versions.jsonl:3: ...").
Error located(std::string_view where, const Error &e);

// Rows already parsed, each read with `read` (a codec's from_json); the
// first that is not one is thrown, naming `source` and its row
// ("work/segments.jsonl: row 2: ...").
template <typename Row>
std::vector<Row> read_rows(const std::vector<json::Value> &rows, std::string_view source,
                           Result<Row> (*read)(const json::Value &)) {
  std::vector<Row> out;
  out.reserve(rows.size());
  for (const auto &v : rows) {
    auto row = read(v);
    if (!row) throw located(std::string(source) + ": row " + std::to_string(out.size() + 1), row.error());
    out.push_back(std::move(row).value());
  }
  return out;
}

} // namespace otm::workspace
