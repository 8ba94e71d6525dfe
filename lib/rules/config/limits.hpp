// The resource limits as a plain value, so the readers of untrusted input
// (lib/support/io, lib/rules/store, lib/ingest/trace) can take them without the configuration
// loader. The defaults here are the shipped data/otm-config.json `limits`
// (Config::limits() reads the merged configuration; a test checks that the
// two agree).
#pragma once

#include <cstddef>

#include "io/file.hpp"

namespace otm::config {

// Each is enforced where the input is read, with a message that names the
// limit and the file (docs/configuration.md, docs/security.md).
struct Limits {
  std::size_t max_file_bytes = 32u << 20;   // one file read from a trace or a store
  std::size_t max_input_bytes = 1u << 30;   // one stage input (a JSONL file, stdin)
  std::size_t max_line_bytes = 64u << 20;   // one JSONL line
  std::size_t max_json_depth = 64;          // nesting of a step record or a record
  std::size_t max_text_bytes = 64u << 10;   // one string of a step record (longer: cut, noted)
  std::size_t max_subject_bytes = 4096;     // a commit subject (longer: cut, warned)
  std::size_t max_message_bytes = 1u << 20; // a commit body (longer: cut, warned)
  std::size_t max_name_bytes = 200;         // the operator name (definition.json name)
  std::size_t max_pitfalls_per_version = 64;
  std::size_t max_segments_per_version = 64;
  // Lines of the live index's journal before a commit folds it into
  // records/index.json (docs/admission.md, "The index journal").
  std::size_t max_journal_entries = 1000;
  // Non-blank lines a reference kernel may quote (its snippet and
  // dispatch_snippet together); a longer one is refused (docs/tools/otm-draft.md).
  std::size_t max_reference_kernel_lines = 400;

  // Numbers and quoted code lines otm-explain explains per record (each
  // list); past it, what was not explained is one line naming the count, so
  // a record of millions of short lines cannot make its output unbounded.
  std::size_t max_explain_items = 2000;

  // The bounds of a stage's input stream (stdin, a JSONL file or pipe), for
  // io::read_input / io::read_stdin, the one reader of such a stream.
  io::InputBounds input_bounds() const { return {max_input_bytes, max_line_bytes}; }
};

} // namespace otm::config
