#include "workspace/layout.hpp"

namespace otm::workspace {

fs::path default_workspace(const std::string &slug) {
  return fs::path("/tmp/opt-trace-mining") / (slug.empty() ? std::string("unset") : slug);
}

fs::path default_store() { return fs::absolute(fs::path("kernel_wiki") / "staging"); }

} // namespace otm::workspace
