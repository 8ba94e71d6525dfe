#include "scrub/self_test.hpp"

#include "scrub/scrubber.hpp"

namespace otm::scrub {

namespace {

struct Case {
  const char *input, *forbidden, *required;
};

const Case kCases[] = {
    {"ran /root/someone/traces/kernel_opt_007_demo/kernel.py", "/root/", "a local path"},
    {"reported by dev.person@example.com", "@", "an address"},
    {"see docs/nvidia/blackwell/b200/ref-docs/demo.md for the page", ".md", "a document"},
    {"v83: padded the fft size (reverted)", "v83", "padded"},
    {"regression against v7 and v9", "v7", "earlier steps"},
    {"the v4 kernel was slower", "the an earlier step", "an earlier step"},
    {"vec4 loads with v4 float lanes", "an earlier step", "v4"},
    {"shape 3f2a91bc regressed", "3f2a91bc", "shape-1"},
    {"check memory/v12.json for the numbers", "memory/", "the step record"},
    {"git log --oneline shows the revert", "git log", "the history"},
};

} // namespace

SelfTestReport run_self_test() {
  SelfTestReport r;
  auto check = [&](bool ok, const std::string &what) { (ok ? r.passed : r.failed).push_back(what); };
  Scrubber s;
  for (const auto &c : kCases) {
    std::string out = s.prose(c.input);
    check(out.find(c.forbidden) == std::string::npos && out.find(c.required) != std::string::npos,
          std::string(c.input) + " -> " + out);
  }
  std::string again = s.prose("3f2a91bc again");
  check(again == "shape-1 again", "same instance, same label: " + again);
  Scrubber fresh;
  std::string first = fresh.prose("ff00aa11 first");
  check(first == "shape-1 first", "fresh instance restarts at shape-1: " + first);
  Scrubber code_scrubber;
  std::string code = code_scrubber.code("v0 = 1  # see /home/me/notes.md\n"
                                        "def f():\n"
                                        "    '''kernel_opt_003_demo timing'''\n"
                                        "    return v0\n");
  check(code.find("v0 = 1") != std::string::npos && code.find("return v0") != std::string::npos,
        "code keeps executable lines");
  check(code.find("/home/me") == std::string::npos && code.find("notes.md") == std::string::npos,
        "code comment loses the path");
  check(code.find("kernel_opt_003_demo") == std::string::npos, "docstring loses the trace name");
  return r;
}

} // namespace otm::scrub
