// Writing the live index's journal (store/index_journal.hpp): the append
// that is a commit's commit point, the truncation of a torn tail, and the
// compaction that folds the journal into records/index.json. All under the
// store's exclusive lock.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "config/limits.hpp"
#include "store/index_journal.hpp"

namespace otm::admission {

// Appends `line` at `offset` (the journal's length, checked) and, with
// `flush`, flushes it (and records/ when the journal is new): after it
// returns the line survives a power loss. A batch appends without (it
// flushes once). Throws io::IoError.
void append_journal_line(const std::filesystem::path &root, std::uint64_t offset, std::string_view line,
                         bool flush = true);

// Cuts the journal back to `length` bytes, durably (a no-op when it is not
// longer).
void truncate_journal(const std::filesystem::path &root, std::uint64_t length);

// The journal, with a torn last line (a writer killed or a power loss
// mid-append) cut off the file first: what a writer appends after. Throws
// io::IoError when it cannot be read.
store::Journal journal_without_torn_tail(const std::filesystem::path &root, const config::Limits &limits);

// Folds the journal into a new records/index.json (written atomically and
// flushed), then removes the journal, and rebuilds the keys index. A
// compaction stopped between the two steps reads the same (the fold is
// idempotent). Returns false, changing nothing, when the journal holds no
// line. Throws io::IoError when the index cannot be read.
// `before_write`, when given, is called with the new index's text before it
// is written (a batch logs its hash: batch_log.hpp).
bool compact_index(const std::filesystem::path &root, const config::Limits &limits,
                   const std::function<void(const std::string &)> &before_write = {});

} // namespace otm::admission
