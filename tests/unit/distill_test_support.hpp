// Shared helpers of the distillation tests: fixture paths, a fresh temp
// directory, and an audit of a drafted record that is independent of the
// gates (its own number extraction and line matching).
#pragma once

#include <filesystem>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "distill/record_gates.hpp"
#include "json/value.hpp"

namespace otm::testsupport {

// TEST DOUBLE for the gate runner: it refuses exactly the number the fake
// agents fabricate (87.6543, anywhere in the payload), under the
// no-fabrication gate's name. The real runner (distill/gates_for_trace) is
// exercised elsewhere; this double lets the distillers be tested without a
// trace.
class InjectedNumberGateDouble : public distill::RecordGates {
public:
  std::vector<distill::GateFinding> check(const json::Value &record, const std::string &,
                                          const distill::Packet &) const override;
};

// The object at `path` below `v` (created empty where missing): for editing
// a packet's fields in a test.
json::Value &at(json::Value &v, std::initializer_list<const char *> path);

std::filesystem::path distill_fixtures(); // testdata/distill/packets
std::filesystem::path fake_agents();      // testdata/fake-agents
std::filesystem::path fresh_dir(const std::string &name);
std::filesystem::path copy_fixture_packets(const std::filesystem::path &dest);

// Numbers written in the audited layers of `record` (payload, worth.gain,
// evidence.summary, retrieval.signals.metrics; code keys exempt) that
// occur nowhere in the packet's agent_facing, target or code text.
std::vector<std::string> numbers_absent_from_packet(const json::Value &record, const json::Value &packet,
                                                    const std::string &code);
// Snippet lines that are not, byte for byte, a line of the code file.
std::vector<std::string> snippet_lines_absent_from_code(const json::Value &record, const std::string &code);

} // namespace otm::testsupport
