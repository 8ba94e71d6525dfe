#include "distill/packet_list.hpp"

#include "io/file.hpp"

namespace otm::distill {

std::vector<std::filesystem::path> expand_packet_args(const std::vector<std::string> &args) {
  std::vector<std::filesystem::path> out;
  for (const auto &a : args) {
    std::filesystem::path p(a);
    if (io::is_directory(p)) {
      for (const auto &f : io::list_dir(p))
        if (f.extension() == ".json" && io::is_regular_file(f)) out.push_back(f);
    } else if (io::is_regular_file(p)) {
      out.push_back(p);
    } else {
      throw io::IoError(a + ": no such packet file or directory (build packets with otm-packet)");
    }
  }
  return out;
}

} // namespace otm::distill
