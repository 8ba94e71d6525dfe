// The commit-message grammar (lib/ingest/trace/subject_grammar): any subject and
// body parse without throwing, and what they yield is text of the input.
#include <string_view>

#include "fuzz_target.hpp"
#include "text/utf8.hpp"
#include "trace/subject_grammar.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char *>(data), size);
  // Ingest hands the grammar valid UTF-8 (invalid bytes replaced) within
  // limits.max_subject_bytes / max_message_bytes; the fuzzer gives it the
  // same, so what it finds is reachable.
  std::string text = otm::text::replace_invalid_utf8(in.substr(0, 1 << 16));
  auto cut = text.find("\n\n");
  std::string_view subject = otm::text::prefix_bytes(std::string_view(text).substr(0, cut), 4096);
  std::string_view body = cut == std::string::npos ? std::string_view() : std::string_view(text).substr(cut + 2);
  auto fields = otm::trace::parse_commit_message(subject, body);
  if (fields.deadend_items)
    for (const auto &item : *fields.deadend_items) FUZZ_CHECK(otm::text::is_valid_utf8(item));
  if (fields.next_direction) FUZZ_CHECK(otm::text::is_valid_utf8(*fields.next_direction));
  for (const auto &item : otm::trace::split_deadend_list(subject)) FUZZ_CHECK(otm::text::is_valid_utf8(item));
  return 0;
}
