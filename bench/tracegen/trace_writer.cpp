#include "tracegen/trace_writer.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace otm::tracegen {

namespace {

constexpr long kEpoch = 1775034000; // 2026-04-01T09:00:00Z
const char *kIdent = "Generated Run <generated-run@otm.invalid>";

std::string quoted(const std::filesystem::path &p) {
  std::string s = p.string();
  if (s.find('\'') != std::string::npos) throw std::runtime_error("path holds a single quote: " + s);
  return "'" + s + "'";
}

void run(const std::string &cmd, const std::string &what) {
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error(what + " failed: " + cmd);
}

const char *kGitEnv = "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC ";

} // namespace

void write_fast_import(std::ostream &out, const Story &story) {
  long when = kEpoch;
  std::size_t mark = 0;
  for (const auto &c : story.commits) {
    out << "commit refs/heads/main\nmark :" << ++mark << "\n";
    out << "author " << kIdent << " " << when << " +0000\n";
    out << "committer " << kIdent << " " << when << " +0000\n";
    out << "data " << c.message.size() << "\n" << c.message << "\n";
    for (const auto &f : c.files) {
      if (!f.content) {
        out << "D " << f.path << "\n";
        continue;
      }
      out << "M 100644 inline " << f.path << "\ndata " << f.content->size() << "\n" << *f.content << "\n";
    }
    out << "\n";
    when += 3600;
  }
}

void write_repository(const std::filesystem::path &dir, const Story &story) {
  if (std::filesystem::exists(dir)) throw std::runtime_error(dir.string() + " already exists");
  std::filesystem::create_directories(dir);
  std::string git = std::string(kGitEnv) + "git -C " + quoted(dir) +
                    " -c core.autocrlf=false -c commit.gpgsign=false -c core.hooksPath=/dev/null ";
  run(std::string(kGitEnv) + "git -c init.defaultBranch=main init -q --template= " + quoted(dir), "git init");
  std::ostringstream stream;
  write_fast_import(stream, story);
  std::string text = stream.str();
  FILE *pipe = popen((git + "fast-import --quiet").c_str(), "w");
  if (!pipe) throw std::runtime_error("cannot start git fast-import");
  bool wrote = std::fwrite(text.data(), 1, text.size(), pipe) == text.size();
  int rc = pclose(pipe);
  if (!wrote || rc != 0) throw std::runtime_error("git fast-import failed in " + dir.string());
  run(git + "reset -q --hard", "git reset");
}

} // namespace otm::tracegen
