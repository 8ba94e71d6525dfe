// A manual page (man(7) roff) made from a tool's own --help and --version
// text, so the page and the help can never disagree: the build runs every
// executable with --help and --version and writes <tool>.1 from the output
// (an equivalent of help2man without its Perl dependency), installed by
// `cmake --install`.
//
// Reading of the help text: "usage:" lines (and their indented
// continuations) are the SYNOPSIS; the first sentence of the first other
// paragraph is the NAME line; a paragraph starting "Exit status:" or "Exit:"
// is EXIT STATUS; the "Options:" list (as cli::Options prints it) is
// OPTIONS; every other paragraph is DESCRIPTION, kept as laid out when its
// lines are indented (tables, option-like lists), filled otherwise.
#pragma once

#include <string>
#include <string_view>

namespace otm::cli {

std::string man_page(std::string_view tool, std::string_view help, std::string_view version_line);

} // namespace otm::cli
