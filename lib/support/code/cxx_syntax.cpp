#include "code/cxx_syntax.hpp"

#include "code/source_lexer.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::optional<std::string> line_not_cxx(std::string_view cfamily_source) {
  for (const auto &l : lex_source(cfamily_source, Language::CFamily))
    for (const auto &sp : l.spans)
      if (sp.kind == SpanKind::Code && !sp.embedded &&
          l.text.substr(sp.begin, sp.end - sp.begin).find("%%") != std::string_view::npos)
        return std::string(text::strip(l.text));
  return std::nullopt;
}

} // namespace otm::code
