#include "workspace/kernel_file.hpp"

#include "text/regex.hpp"

namespace otm::workspace {

std::string kernel_file_of(const std::vector<std::string> &candidates,
                           const std::function<std::optional<std::string>(const std::string &)> &read) {
  static const text::Regex entry(R"((?m)^[ \t]*@[\w.]*jit\b|\b__global__\b)");
  std::string first_present;
  for (const auto &c : candidates) {
    auto text = read(c);
    if (!text) continue;
    if (entry.contains(*text)) return c;
    if (first_present.empty()) first_present = c;
  }
  return first_present.empty() ? std::string(kDefaultKernelFile) : first_present;
}

std::string kernel_extension(std::string_view kernel_file) {
  const auto slash = kernel_file.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? kernel_file : kernel_file.substr(slash + 1);
  const auto dot = name.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? std::string(".py") : std::string(name.substr(dot));
}

std::string snapshot_path(std::string_view version, std::string_view kernel_file) {
  return "versions/kernel_" + std::string(version) + kernel_extension(kernel_file);
}

} // namespace otm::workspace
