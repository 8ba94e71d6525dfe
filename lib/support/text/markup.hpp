// Escaping text for XML and HTML (JUnit reports, the ladder picture, the
// review page): one escape for every markup otm writes.
#pragma once

#include <string>
#include <string_view>

namespace otm::text {

// &, <, >, " and ' as entities; control characters XML 1.0 forbids (even as
// references) become '?'. Valid in element text and in quoted attributes.
std::string xml_escape(std::string_view s);

} // namespace otm::text
