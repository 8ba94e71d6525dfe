// A story as a git repository: a `git fast-import` stream with a fixed
// author, committer and clock (one hour per commit from 2026-04-01), so the
// same story always gives the same commit ids. Test tooling: it runs the
// `git` executable (the product never does).
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include "tracegen/story.hpp"

namespace otm::tracegen {

// The fast-import stream of the story (refs/heads/main).
void write_fast_import(std::ostream &out, const Story &story);

// Creates `dir` (which must not exist), imports the story with git and
// checks out its last commit; throws std::runtime_error naming the step
// that failed.
void write_repository(const std::filesystem::path &dir, const Story &story);

} // namespace otm::tracegen
