// otm-packet's record of its last run (.stamps/packet-run.json): a digest of
// the inputs it was given (its work files, options, configuration,
// denylist, build), every read it made of the trace (io/read_log.hpp: HEAD,
// the commits and blobs by id, the configuration and attributes that decide
// how a diff prints, each working-tree file, listing and probe), the stamps
// of the packets directory it left (io/dir_stamps.hpp), its stdout and its
// pre-flight report. A rerun whose inputs have the same digest, whose reads
// find the same values and whose packets directory still has those stamps
// would rebuild the same bytes, so it replays the recorded stdout and
// report instead (Makefile.pipeline reruns a stage when any prerequisite is
// newer, which does not mean that anything it reads changed).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "git/repository.hpp"
#include "io/read_log.hpp"
#include "text/xxh64.hpp"
#include "trace/trace_files.hpp"

namespace otm::packet {

struct RunRecord {
  std::string inputs;                    // digest of the inputs given (InputDigest)
  std::vector<io::ReadLog::Entry> reads; // what the run read from the trace
  std::vector<std::string> packets;      // the packets directory's stamps, one line per entry
  std::string out;                       // the summary lines printed
  std::string report;                    // the pre-flight report
  bool clean = true;
};

// The digest of named parts, each part's name and length included (no two
// lists of parts give the same text). Two XXH64 digests of different seeds
// (128 bits; text/xxh64.hpp), not SHA-256: it only tells whether anything
// given changed since the last run, which a chance collision would miss
// with odds of 2^-128 per run; no boundary depends on it, since whoever can
// write the work files a run is given can as well write the packets it
// would build. SHA-256 of the work files was the slowest part of a run that
// rebuilds nothing.
class InputDigest {
public:
  void add(const std::string &name, std::string_view value);
  std::string hex() const;

private:
  void feed(std::string_view bytes);
  text::Xxh64 low_{0}, high_{0x9E3779B97F4A7C15ULL};
};

// The stamps of `dir` as RunRecord::packets holds them (empty when it is not
// a readable directory).
std::vector<std::string> packets_stamps(const std::filesystem::path &dir);

// nullopt when `file` is missing or not a record this build can read.
std::optional<RunRecord> read_run_record(const std::filesystem::path &file);
void write_run_record(const std::filesystem::path &file, const RunRecord &r);

// Whether the run recorded in `r` is what a run with `inputs` would do now:
// the same inputs, every read finding the same value (through `repo` and
// `files`, which must not be logging into a log of their own yet), and the
// packets directory `dir` as the run left it.
bool still_current(const RunRecord &r, const std::string &inputs, const git::Repository &repo,
                   const trace::TraceFiles &files, const std::filesystem::path &dir);

} // namespace otm::packet
