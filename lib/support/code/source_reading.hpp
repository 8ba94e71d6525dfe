// A kernel source read once for code::find_inert_code and the rules it is
// made of (restated_hints): each line's code by reader (Python, or C-family:
// a C-family file or source embedded in a Python string), where Python
// statements start, and the statements that define names. Internal to
// lib/support/code.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "code/source_lexer.hpp"

namespace otm::code {

// A line's code, split by what reads it: Python (the file's own code) and
// C-family (a C-family file, or source embedded in a Python string).
struct LineCode {
  std::string python, c;
};

// One lexed line's code spans, joined by reader (comments and literals left out).
LineCode code_of(const SourceLine &l, Language language);
// A source's lines with every comment and literal blanked to spaces, so
// offsets, indentation and line numbers stay the source's.
std::vector<std::string> code_in_place(std::string_view source, Language language);

// The source read once: each line's code by reader, and where its Python
// statements start (a line starts one at bracket depth 0 unless the line
// before it continues with a backslash; it runs while brackets are open).
// `lexed` views the source: it must outlive the reading.
struct Reading {
  std::vector<SourceLine> lexed;
  std::vector<LineCode> code;
  std::vector<std::size_t> stmt_of;
  std::vector<bool> starts;
};

Reading read_source(std::string_view source, Language language);

// A statement that defines names: its lines [begin, end).
struct Definition {
  std::size_t begin, end;
  std::vector<std::string> names;
};

// Leading spaces and tabs.
std::size_t indent_of(std::string_view s);

// Opening minus closing brackets of a line's code (strings and comments
// already left out): above 0, the statement goes on to the next line.
int bracket_balance(std::string_view code);

} // namespace otm::code
