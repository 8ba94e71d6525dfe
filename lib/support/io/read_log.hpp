// What a stage read from an input it does not own (a trace's git objects and
// working tree): one entry per read, its key naming the read ("<kind>\t<arg>",
// the kinds spelled by the reader that notes them) and its value what the
// read found (a digest, an id, "missing"). A rerun that repeats every read
// and finds the same values would compute the same output from the same
// other inputs, so it may skip the work (otm-packet's run record).
// Thread-safe: one log is shared by a stage's threads.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace otm::io {

class ReadLog {
public:
  using Entry = std::pair<std::string, std::string>; // key, value

  // Notes that the read `key` found `value`. The same key noted again with
  // another value (the input changed while it was read) is kept as
  // kConflicting, which no repeated read ever finds.
  void note(const std::string &key, const std::string &value);
  // Every read noted, sorted by key.
  std::vector<Entry> entries() const;
  std::size_t size() const;

  static constexpr char kConflicting[] = "\x01conflicting";

private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> entries_;
};

} // namespace otm::io
