#include "trace/git_dir_policy.hpp"

#include <sys/stat.h>

#include <sstream>
#include <system_error>

#include "error/error.hpp"
#include "io/file.hpp"
#include "text/printable.hpp"
#include "text/utf8.hpp"

namespace otm::trace {

namespace fs = std::filesystem;

namespace {

// Small files of a git directory (a gitdir: line, commondir, alternates).
constexpr std::size_t kMaxPointerFileBytes = 64 * 1024;

bool beneath(const fs::path &p, const fs::path &root) {
  auto rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

fs::path resolved(const fs::path &p) {
  std::error_code ec;
  auto c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

class Policy {
public:
  Policy(const fs::path &trace, const std::optional<fs::path> &allowed)
      : trace_(trace), root_(resolved(trace)), allowed_(allowed ? std::optional(resolved(*allowed)) : std::nullopt) {}

  // Refuses `target` (what `how` leads to) unless it is beneath the trace,
  // or is the allowed git directory (`within_allowed`: or beneath it, for
  // what the git directory holds).
  void require_inside(const fs::path &target, const std::string &how, bool within_allowed = false) const {
    auto where = resolved(target);
    if (beneath(where, root_) || where == root_) return;
    if (allowed_ && (where == *allowed_ || (within_allowed && beneath(where, *allowed_)))) return;
    throw Error(ErrorKind::Refused,
                text::escape_controls((trace_ / ".git").string()) + ": " + how + " leading out of the trace (to " +
                    text::escape_controls(where.string()) +
                    "): another repository's history would be read as the trace's; copy the repository into the "
                    "trace, or allow this git directory by name with --allow-git-dir " +
                    text::escape_controls(where.string()) + " (OTM_ALLOW_GIT_DIR; docs/security.md)");
  }

private:
  fs::path trace_, root_;
  std::optional<fs::path> allowed_;
};

std::optional<std::string> small_file(const fs::path &p) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(p, ec))) return std::nullopt;
  try {
    return io::read_file(p, kMaxPointerFileBytes);
  } catch (const io::IoError &) {
    return std::nullopt;
  }
}

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto t = std::string(text::strip(line));
    if (!t.empty() && t[0] != '#') out.push_back(t);
  }
  return out;
}

} // namespace

void check_git_dir(const fs::path &trace, const std::optional<fs::path> &allowed) {
  const Policy policy(trace, allowed);
  const fs::path dot_git = trace / ".git";
  struct stat st {};
  if (::lstat(dot_git.c_str(), &st) != 0) return; // none: the caller says "not a git repository"
  fs::path git_dir = dot_git;
  if (S_ISLNK(st.st_mode)) {
    policy.require_inside(dot_git, "a symbolic link");
  } else if (S_ISREG(st.st_mode)) {
    auto text = small_file(dot_git);
    auto first = text ? lines_of(*text) : std::vector<std::string>{};
    if (first.empty() || !first.front().starts_with("gitdir:"))
      return; // not a gitdir file: libgit2 refuses it as a repository, named by the caller
    fs::path to = std::string(text::strip(std::string_view(first.front()).substr(7)));
    git_dir = to.is_absolute() ? to : trace / to;
    policy.require_inside(git_dir, "a gitdir file");
  } else if (!S_ISDIR(st.st_mode)) {
    return;
  }
  // Inside the git directory: where its common directory and its object
  // stores are (a worktree's commondir, `git clone --shared` alternates).
  if (auto common = small_file(git_dir / "commondir"); common && !lines_of(*common).empty()) {
    fs::path to = lines_of(*common).front();
    policy.require_inside(to.is_absolute() ? to : git_dir / to, "its commondir", true);
  }
  fs::path objects = git_dir / "objects";
  policy.require_inside(objects, "its objects/ directory", true);
  if (auto alternates = small_file(objects / "info" / "alternates"))
    for (const auto &line : lines_of(*alternates)) {
      fs::path to = line;
      policy.require_inside(to.is_absolute() ? to : objects / to, "an object store its objects/info/alternates names",
                            true);
    }
}

void check_git_dir(const fs::path &trace, const config::Settings &settings) {
  std::optional<fs::path> allowed;
  if (auto a = settings.get(config::Setting::AllowGitDir)) allowed = io::expand_user(*a);
  check_git_dir(trace, allowed);
}

} // namespace otm::trace
