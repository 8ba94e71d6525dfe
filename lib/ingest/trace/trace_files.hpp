// The one reading policy for a trace's working tree (docs/security.md): a
// trace is untrusted input, so every file of it is read beneath the trace
// (io::Beneath: no symbolic link out of it), only when it is a regular file
// within limits.max_file_bytes, and every file it does not read for one of
// these reasons is remembered with the reason, for work/meta.json
// `skipped_files`. Text read from the trace is made valid UTF-8 here (each
// invalid byte becomes U+FFFD) and the replacements are counted, for
// meta.json `invalid_utf8`. Thread-safe: ingest scans memory/ and profiles/
// on another thread. With a read log (io/read_log.hpp) every read is noted,
// for a rerun to repeat (reread()).
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "io/beneath.hpp"
#include "io/read_log.hpp"
#include "json/value.hpp"

namespace otm::trace {

class TraceFiles {
public:
  TraceFiles(const std::filesystem::path &trace, const config::Limits &limits,
             io::Beneath::Method method = io::Beneath::Method::Auto);

  const std::filesystem::path &root() const { return beneath_.root(); }
  const config::Limits &limits() const { return limits_; }

  // Whether a missing file is a skip: an optional file may be absent, but
  // one seen in a directory listing that then cannot be found is a dangling
  // symbolic link.
  enum class Seen { Maybe, Listed };

  // The bytes of the regular file `rel` ("memory/v3.json"); nullopt when it
  // is missing (not a skip unless Listed) or refused by the policy (a skip,
  // remembered).
  std::optional<std::string> bytes(const std::string &rel, Seen seen = Seen::Maybe) const;
  // The same as valid UTF-8: invalid bytes replaced and counted.
  std::optional<std::string> text(const std::string &rel, Seen seen = Seen::Maybe) const;
  // Whether `rel` is a regular file the policy would read (a refusal is
  // remembered as a skip, as for bytes()).
  bool is_file(const std::string &rel, Seen seen = Seen::Maybe) const;
  bool is_directory(const std::string &rel) const;
  // Names in directory `rel`, sorted; empty when it is missing. A `rel`
  // that exists but is not a directory beneath the trace, and an entry
  // whose name is not valid UTF-8 (it could not be named in any output),
  // are skips.
  std::vector<std::string> names(const std::string &rel) const;

  // Text from elsewhere in the trace (a commit message): `s` as valid UTF-8,
  // the replacements counted against `source` ("commit 1a2b3c4").
  std::string valid_utf8(std::string_view s, const std::string &source) const;
  // Records a skip found by a caller (a limit it enforces).
  void skip(const std::string &rel, const std::string &why) const;

  // Notes every read of the working tree in `log` from now on (null: none);
  // the log must outlive this.
  void log_reads_to(io::ReadLog *log) { log_ = log; }
  // What the read a key of the log names would find now (the same value
  // when nothing it read changed), without noting it; nullopt for a key
  // this reader does not note.
  std::optional<std::string> reread(const std::string &key) const;

  // meta.json `skipped_files`: [{"file", "why"}] sorted by file.
  json::Value skipped_json() const;
  // meta.json `invalid_utf8`: {"replaced": N, "sources": [{"source", "replaced"}]}.
  json::Value invalid_utf8_json() const;
  std::size_t skipped_count() const;
  std::size_t replaced_count() const;

private:
  void refused(const std::string &rel, const io::FileRead &r, Seen seen) const;
  void note(const char *kind, const std::string &rel, const std::string &value) const;
  io::ReadLog *log_ = nullptr;
  io::Beneath beneath_;
  config::Limits limits_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::string> skips_;
  mutable std::map<std::string, std::size_t> replaced_;
};

} // namespace otm::trace
