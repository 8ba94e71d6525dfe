#include "distill_test_support.hpp"

#include "test_paths.hpp"

#include <cstdlib>
#include <sstream>

#include "io/file.hpp"
#include "scratch.hpp"
#include "text/regex.hpp"
#include "json/write.hpp"

namespace otm::testsupport {

std::vector<distill::GateFinding> InjectedNumberGateDouble::check(const json::Value &record, const std::string &,
                                                                  const distill::Packet &) const {
  if (json::to_line(record.get("payload")).find("87.6543") != std::string::npos)
    return {{"no-fabrication", "payload.mechanism: 87.6543 is not in the packet", "87.6543"}};
  return {};
}

namespace fs = std::filesystem;

json::Value &at(json::Value &v, std::initializer_list<const char *> path) {
  json::Value *node = &v;
  for (const char *k : path) {
    if (!node->get(k).is_object()) node->set(k, json::Value::object());
    node = node->find(k);
  }
  return *node;
}

fs::path distill_fixtures() { return fs::path(otm::testing::source_dir()) / "testdata" / "distill" / "packets"; }
fs::path fake_agents() { return fs::path(otm::testing::source_dir()) / "testdata" / "fake-agents"; }

fs::path fresh_dir(const std::string &name) { return fresh_temp_dir("test-" + name); }

fs::path copy_fixture_packets(const fs::path &dest) {
  fs::create_directories(dest);
  for (const auto &f : io::list_dir(distill_fixtures())) fs::copy_file(f, dest / f.filename());
  return dest;
}

namespace {

// Every decimal number in `text`, as a double (sign dropped). A digit run
// glued to a letter or a dot on its left is not a number of its own.
std::set<double> numbers_in(const std::string &text) {
  static const text::Regex num(R"((?<![A-Za-z0-9.])-?\d+(?:\.\d+)?)");
  std::set<double> out;
  for (const auto &m : num.find_all(text)) out.insert(std::abs(std::stod(std::string(m[0]))));
  return out;
}

void collect(const json::Value &v, std::vector<std::string> &texts) {
  if (const auto *o = v.as_object()) {
    for (const auto &[k, child] : *o)
      if (k != "snippet" && k != "dispatch_snippet" && k != "attempted_code") collect(child, texts);
  } else if (const auto *a = v.as_array()) {
    for (const auto &child : *a) collect(child, texts);
  } else if (v.is_string()) {
    texts.push_back(*v.as_string());
  } else if (v.is_number()) {
    texts.push_back(v.python_str());
  }
}

} // namespace

std::vector<std::string> numbers_absent_from_packet(const json::Value &record, const json::Value &packet,
                                                    const std::string &code) {
  auto pool =
      numbers_in(json::to_line(packet.get("agent_facing")) + "\n" + json::to_line(packet.get("target")) + "\n" + code);
  std::vector<std::string> texts;
  collect(record.get("payload"), texts);
  collect(record.get("worth").get("gain"), texts);
  collect(record.get("evidence").get("summary"), texts);
  collect(record.get("retrieval").get("signals").get("metrics"), texts);
  std::vector<std::string> absent;
  for (const auto &t : texts)
    for (double n : numbers_in(t))
      if (!pool.count(n)) absent.push_back(t);
  return absent;
}

std::vector<std::string> snippet_lines_absent_from_code(const json::Value &record, const std::string &code) {
  std::set<std::string> lines;
  std::istringstream in(code);
  for (std::string l; std::getline(in, l);) lines.insert(l);
  std::vector<std::string> absent;
  const auto *snippet = record.get("payload").get("implementation").get("snippet").as_string();
  if (!snippet) return absent;
  std::istringstream s(*snippet);
  for (std::string l; std::getline(s, l);)
    if (!lines.count(l)) absent.push_back(l);
  return absent;
}

} // namespace otm::testsupport
