// The code a packet carries: the sibling file its agent_facing names
// (`diff_file`, else `kernel_file`), in the packet's own directory. The one
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

} // namespace otm::workspace
