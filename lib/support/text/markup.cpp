#include "text/markup.hpp"

namespace otm::text {

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default:
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        out += "?";
      else
        out += static_cast<char>(c);
    }
  }
  return out;
}

} // namespace otm::text
