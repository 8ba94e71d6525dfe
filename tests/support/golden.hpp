// Golden files (testdata/golden/): one comparison for every test, which on a
// mismatch says where — the first differing lines with their line numbers —
// instead of only that the output differs. With OTM_UPDATE_GOLDEN=1 a test
// rewrites the golden instead of comparing (review the diff before
// committing).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace otm::testsupport {

bool update_golden();
std::filesystem::path golden_path(const std::string &rel);
// The lines of testdata/golden/<rel> (a JSONL file's rows), without their
// newlines: what a codec test reads back and writes again.
std::vector<std::string> golden_lines(const std::string &rel);

// The first differing lines of `expected` and `actual` in a unified-diff
// shape ("@@ line N @@", "-expected", "+actual", a few lines of context),
// at most `max_lines` changed lines; "" when they are equal.
std::string first_differences(const std::string &expected, const std::string &actual, std::size_t max_lines = 8);

// Compares `actual` with testdata/golden/<rel>, or rewrites it when
// updating. "" on a match, else a message naming the file, followed by
// first_differences().
std::string check_golden(const std::string &rel, const std::string &actual);

} // namespace otm::testsupport
