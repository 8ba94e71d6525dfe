// The code a packet carries: the sibling file its agent_facing names
// (`diff_file`, else `kernel_file`), in the packet's own directory; and the
// siblings that help read it (packet_sibling). The one
// rule for the distiller (what it may quote) and the gates (what a record's
// snippet is checked against), so both read the same bytes.
//
//   auto code = workspace::packet_code(path, doc);   // {name, text}; {"", ""} when it names none
#pragma once

#include <filesystem>
#include <string>

#include "json/value.hpp"

namespace otm::workspace {

struct PacketCode {
  std::string name; // the sibling's file name ("" when the packet names none)
  std::string text; // its content ("" when none)
};

// Throws json::ParseError naming the packet when the name it gives is not a
// plain file name in its directory, io::IoError when that file cannot be read.
PacketCode packet_code(const std::filesystem::path &packet_path, const json::Value &packet);

// Another sibling the packet names by `agent_facing.<key>`: the kernel file
// after the change (`code_after_file`), whose reads and calls decide which
// changed lines run, or the claimed step's own change (`step_diff_file`).
// {"", ""} when the packet names none; the same errors as packet_code.
PacketCode packet_sibling(const std::filesystem::path &packet_path, const json::Value &packet, const char *key);

} // namespace otm::workspace
