#include "cmdline/options.hpp"

#include <iostream>
#include <sstream>

#include "cmdline/build_info.hpp"
#include "error/error.hpp"
#include "text/regex.hpp"

namespace otm::cli {

Options::Options(std::string tool, std::string help_text) : tool_(std::move(tool)), help_text_(std::move(help_text)) {}

Options &Options::value(const std::string &name, const std::string &meta, const std::string &help) {
  specs_.push_back({name, Spec{meta, help, true, false}});
  return *this;
}
Options &Options::repeated(const std::string &name, const std::string &meta, const std::string &help) {
  specs_.push_back({name, Spec{meta, help, true, true}});
  return *this;
}
Options &Options::flag(const std::string &name, const std::string &help) {
  specs_.push_back({name, Spec{"", help, false, false}});
  return *this;
}
Options &Options::short_alias(char c, const std::string &name) {
  aliases_[c] = name;
  return *this;
}

const Options::Spec *Options::find(const std::string &name) const {
  for (const auto &[n, s] : specs_)
    if (n == name) return &s;
  return nullptr;
}

std::string Options::usage() const {
  std::ostringstream os;
  os << help_text_;
  if (!help_text_.empty() && help_text_.back() != '\n') os << '\n';
  os << "\nOptions:\n";
  for (const auto &[n, s] : specs_) {
    std::string left = "  --" + n + (s.takes_value ? " " + s.meta : "");
    for (const auto &[c, target] : aliases_)
      if (target == n) left = "  -" + std::string(1, c) + ", --" + n + (s.takes_value ? " " + s.meta : "");
    os << left;
    if (left.size() < 30)
      os << std::string(30 - left.size(), ' ');
    else
      os << "\n" << std::string(30, ' ');
    os << s.help << (s.repeatable ? " (repeatable)" : "") << '\n';
  }
  os << "  -h, --help                  show this help and exit\n";
  os << "      --version               print the version and exit\n";
  return os.str();
}

bool Options::parse(int argc, char **argv) {
  bool only_positionals = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (only_positionals || arg == "-" || arg.size() < 2 || arg[0] != '-') {
      positionals_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positionals = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      std::cout << usage();
      return false;
    }
    if (arg == "--version") {
      std::cout << version_line(tool_) << '\n';
      return false;
    }
    std::string name, value;
    bool has_inline = false;
    if (arg.rfind("--", 0) == 0) {
      name = arg.substr(2);
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        has_inline = true;
      }
    } else {
      auto it = aliases_.find(arg[1]);
      if (it == aliases_.end() || arg.size() != 2)
        throw Error(ErrorKind::Usage, "unknown option '" + arg + "' (see --help)");
      name = it->second;
    }
    const Spec *spec = find(name);
    if (!spec) throw Error(ErrorKind::Usage, "unknown option '" + arg + "' (see --help)");
    if (!spec->takes_value) {
      if (has_inline) throw Error(ErrorKind::Usage, "option --" + name + " takes no value");
      values_[name].push_back("1");
      continue;
    }
    if (!has_inline) {
      if (i + 1 >= argc) throw Error(ErrorKind::Usage, "option --" + name + " needs a value " + spec->meta);
      value = argv[++i];
    }
    if (!spec->repeatable && values_.count(name)) throw Error(ErrorKind::Usage, "option --" + name + " given twice");
    values_[name].push_back(value);
  }
  return true;
}

bool Options::has(const std::string &name) const { return values_.count(name) > 0; }
std::optional<std::string> Options::get(const std::string &name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}
std::string Options::get_or(const std::string &name, const std::string &fallback) const {
  auto v = get(name);
  return v ? *v : fallback;
}
std::vector<std::string> Options::all(const std::string &name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}
bool Options::is_set(const std::string &flag) const { return has(flag); }

} // namespace otm::cli
