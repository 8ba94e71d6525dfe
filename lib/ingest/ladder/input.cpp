#include "ladder/input.hpp"

#include "json/parse.hpp"

namespace otm::ladder {

std::vector<json::Value> parse_version_rows(std::string_view text, std::string_view source) {
  std::vector<json::Value> rows;
  std::size_t line_no = 0, pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    auto line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++line_no;
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
      std::string where = std::string(source) + ":" + std::to_string(line_no);
      json::Value row = json::parse(line, where);
      if (!row.is_object()) throw json::ParseError(where + ": a version row must be a JSON object");
      if (!row.get("version").is_string())
        throw json::ParseError(where + ": a version row needs a string \"version\" (as otm-ingest writes it)");
      rows.push_back(std::move(row));
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return rows;
}

} // namespace otm::ladder
