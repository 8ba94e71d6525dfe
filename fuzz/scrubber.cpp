// The scrubber (lib/rules/scrub): prose and code scrubbing of any text never
// throws, keeps valid UTF-8 valid, and leaves no denylisted term behind.
#include <string_view>

#include "fuzz_target.hpp"
#include "scrub/denylist.hpp"
#include "scrub/scrubber.hpp"
#include "text/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static const otm::scrub::Denylist deny = otm::scrub::Denylist::from_terms({"acme-internal", "ProjectX"});
  std::string text = otm::text::replace_invalid_utf8(
      std::string_view(reinterpret_cast<const char *>(data), std::min<std::size_t>(size, 1 << 16)));
  otm::scrub::Scrubber s(&deny, "v3");
  std::string prose = s.prose(text);
  FUZZ_CHECK(otm::text::is_valid_utf8(prose));
  FUZZ_CHECK(!deny.regex()->contains(prose));
  std::string comment = s.comment(text);
  FUZZ_CHECK(otm::text::is_valid_utf8(comment));
  std::string code = s.code(text);
  FUZZ_CHECK(otm::text::is_valid_utf8(code));
  return 0;
}
