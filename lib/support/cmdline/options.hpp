// A small long-option parser shared by all executables: --name VALUE,
// --name=VALUE, boolean flags, repeatable options, positionals, and the
// standard --help / --version. Unknown options are usage errors
// (ErrorKind::Usage).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace otm::cli {

class Options {
public:
  Options(std::string tool, std::string help_text);

  // Option with a value. `env` (if any) is only documentation here; the
  // settings layer reads the environment.
  Options &value(const std::string &name, const std::string &meta, const std::string &help);
  Options &repeated(const std::string &name, const std::string &meta, const std::string &help);
  Options &flag(const std::string &name, const std::string &help);
  Options &short_alias(char c, const std::string &name);

  // Parses argv. Prints help / version and returns false when the caller
  // should exit 0; throws Error (ErrorKind::Usage) on bad usage.
  bool parse(int argc, char **argv);

  bool has(const std::string &name) const;
  std::optional<std::string> get(const std::string &name) const;
  std::string get_or(const std::string &name, const std::string &fallback) const;
  std::vector<std::string> all(const std::string &name) const;
  bool is_set(const std::string &flag) const;
  const std::vector<std::string> &positionals() const { return positionals_; }
  const std::string &tool() const { return tool_; }

  std::string usage() const;

private:
  struct Spec {
    std::string meta, help;
    bool takes_value = true, repeatable = false;
  };
  std::string tool_, help_text_;
  std::vector<std::pair<std::string, Spec>> specs_;
  std::map<char, std::string> aliases_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positionals_;
  const Spec *find(const std::string &name) const;
};

} // namespace otm::cli
