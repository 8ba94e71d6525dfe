// Code scrubbing (spec scrubbing.md §5) on the shared lexer
// (code/source_lexer.hpp) instead of the reference's regexes: only comment
// and docstring spans get the comment substitution, so executable code and
// data strings stay byte for byte (a quoted snippet still compiles). C/C++/
// CUDA/PTX comments count wherever the lexer finds them: in .cu files and in
// sources embedded in Python strings (load_inline, triple-quoted CUDA).
#include "scrub/scrubber.hpp"

namespace otm::scrub {

namespace {

void emit_spans(Scrubber &s, std::string_view line, const std::vector<code::Span> &spans, std::string &out) {
  for (const auto &span : spans) {
    auto t = line.substr(span.begin, span.end - span.begin);
    if (span.kind == code::SpanKind::Comment || span.kind == code::SpanKind::Docstring)
      out += s.comment(t);
    else
      out += t;
  }
}

} // namespace

std::string Scrubber::code(std::string_view text, const std::vector<code::DiffLine> &lines) {
  if (text.empty()) return {};
  std::string out;
  out.reserve(text.size());
  bool first = true;
  // Headers and markers are copied; a line's +/-/space marker (or a hunk
  // header's "@@ … @@") precedes its spans.
  for (const auto &l : lines) {
    if (!first) out.push_back('\n');
    first = false;
    out += l.text.substr(0, l.body);
    emit_spans(*this, l.text, l.spans, out);
  }
  if (text.ends_with('\n')) out.push_back('\n');
  return out;
}

std::string Scrubber::code(std::string_view text, code::Language language) {
  if (text.empty()) return {};
  if (code::is_unified_diff(text)) return code(text, code::lex_diff(text));
  std::string out;
  out.reserve(text.size());
  bool first = true;
  for (const auto &l : code::lex_source(text, language)) {
    if (!first) out.push_back('\n');
    first = false;
    emit_spans(*this, l.text, l.spans, out);
  }
  if (text.ends_with('\n')) out.push_back('\n');
  return out;
}

} // namespace otm::scrub
