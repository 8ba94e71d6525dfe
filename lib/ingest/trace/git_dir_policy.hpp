// The trace reading policy, applied to `.git` (issue 27). A trace's working
// tree is read beneath the trace (trace_files, io::Beneath); its history is
// read by libgit2 from `.git`, which may itself lead elsewhere: a symbolic
// link, a `gitdir:` file (a worktree's or a submodule's), a `commondir` or
// `objects/info/alternates` inside it. Followed out of the trace, another
// repository's subjects and code would reach packets, diffs, the review page
// and the ladder as if they were the trace's. So each of them must resolve
// beneath the trace, or to the one git directory the user allowed by name
// (--allow-git-dir DIR / OTM_ALLOW_GIT_DIR), else the run is refused.
#pragma once

#include <filesystem>
#include <optional>

#include "config/settings.hpp"

namespace otm::trace {

// Throws an Error (Refused: exit 2) naming `trace`/.git, how it leads out
// (a symbolic link, a gitdir file, its commondir, an alternate object
// store), where to, and the option that allows it. `allowed`: a git
// directory (and what is beneath it) .git may lead to.
void check_git_dir(const std::filesystem::path &trace, const std::optional<std::filesystem::path> &allowed);
// The same with `allowed` from the settings (Setting::AllowGitDir, ~ expanded).
void check_git_dir(const std::filesystem::path &trace, const config::Settings &settings);

} // namespace otm::trace
