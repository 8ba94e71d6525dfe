// Where each line of a record's quoted code comes from: for a diff, the
// hunk (code::lex_diff), its role and the line numbers in the kernel file at
// either end of the diff's commit range (from the hunk headers); for a
// whole kernel file, its line. Lines are compared as the verbatim gate
// compares them (gates::collapse_whitespace, a diff line with or without its
// marker), and every position is checked against the file as git holds it
// at that commit.
#pragma once

#include <string>
#include <vector>

#include "explain/explanation.hpp"
#include "git/repository.hpp"
#include "workspace/kernel_file.hpp"

namespace otm::explain {

struct CodeFile {
  std::string text;       // the packet's code (scrubbed in comments only)
  bool is_diff = false;   // a unified diff of `path`, else the whole file
  std::string old_commit; // diff: the range's base ("" for a root commit)
  std::string new_commit; // diff: its end; a kernel file: the commit it was read at ("" = working tree)
  std::string path = workspace::kDefaultKernelFile; // the trace's kernel file (TraceMeta::kernel_file)
};

// At most `max_lines` lines of `quote` (blank ones not counted) are
// located; the number of further lines is added to *not_located, for the
// caller to summarise (limits.max_explain_items: a snippet of millions of
// lines must not make the output, or the work, unbounded).
std::vector<CodeLine> locate_code_lines(const std::string &field, const std::string &quote, const CodeFile &code,
                                        const git::Repository &repo, std::size_t max_lines, std::size_t *not_located);

} // namespace otm::explain
