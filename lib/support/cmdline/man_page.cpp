#include "cmdline/man_page.hpp"

#include <algorithm>
#include <vector>

#include "text/utf8.hpp"

namespace otm::cli {

namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    out.emplace_back(text.substr(pos, (nl == std::string_view::npos ? text.size() : nl) - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

// Text safe in roff: backslashes doubled as \e, a leading '.' or '\''
// guarded, hyphens as \- (so options and paths stay hyphens, unbroken).
std::string roff(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

bool starts_ci(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && text::to_lower(s.substr(0, prefix.size())) == prefix;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

// "  --name META     help" -> (flags, help); help empty when on the next line.
std::pair<std::string, std::string> option_line(const std::string &line) {
  auto body = std::string(text::lstrip(line));
  auto gap = body.find("  ");
  if (gap == std::string::npos) return {body, ""};
  return {body.substr(0, gap), std::string(text::strip(std::string_view(body).substr(gap)))};
}

std::string flags_roff(const std::string &flags) {
  // Bold option names, italic metavariables: "-o, --output FILE".
  std::string out;
  std::size_t pos = 0;
  while (pos < flags.size()) {
    auto sp = flags.find(' ', pos);
    std::string word = flags.substr(pos, sp == std::string::npos ? std::string::npos : sp - pos);
    if (!word.empty()) {
      if (!out.empty()) out += " ";
      bool option = word[0] == '-';
      out += std::string(option ? "\\fB" : "\\fI") + roff(word) + "\\fR";
    }
    if (sp == std::string::npos) break;
    pos = sp + 1;
  }
  return out;
}

} // namespace

std::string man_page(std::string_view tool, std::string_view help, std::string_view version_line) {
  auto lines = lines_of(help);
  std::vector<std::string> synopsis, options;
  std::vector<std::vector<std::string>> paragraphs;
  bool in_options = false, in_usage = false;
  std::vector<std::string> para;
  auto flush = [&] {
    if (!para.empty()) paragraphs.push_back(para);
    para.clear();
  };
  for (const auto &l : lines) {
    if (in_options) {
      if (!text::strip(l).empty()) options.push_back(l);
      continue;
    }
    if (l == "Options:") {
      flush();
      in_options = true;
      continue;
    }
    if (starts_ci(l, "usage:")) {
      flush();
      in_usage = true;
      synopsis.push_back(std::string(text::strip(l.substr(6))));
      continue;
    }
    if (in_usage && !l.empty() && (l[0] == ' ' || l[0] == '\t')) {
      synopsis.push_back(std::string(text::strip(l)));
      continue;
    }
    in_usage = false;
    if (text::strip(l).empty()) {
      flush();
      continue;
    }
    para.push_back(l);
  }
  flush();

  std::string name_line;
  std::vector<std::vector<std::string>> description, exit_status;
  for (const auto &p : paragraphs) {
    if (starts_ci(p.front(), "exit status:") || starts_ci(p.front(), "exit:")) {
      exit_status.push_back(p);
      continue;
    }
    if (name_line.empty()) {
      std::string joined;
      for (const auto &l : p) joined += (joined.empty() ? "" : " ") + std::string(text::strip(l));
      // Up to the first sentence end, parenthesis, colon or semicolon.
      std::size_t stop = joined.size();
      for (const char *end : {". ", " (", ": ", "; "}) stop = std::min(stop, joined.find(end));
      name_line = joined.substr(0, stop);
      if (!name_line.empty() && name_line.back() == '.') name_line.pop_back();
      if (name_line.size() > 100) name_line = std::string(text::prefix_code_points(name_line, 97)) + "...";
    }
    description.push_back(p);
  }
  if (synopsis.empty()) synopsis.push_back(std::string(tool) + " [options]");

  auto emit = [](std::string &out, const std::vector<std::string> &p) {
    bool laid_out = false;
    for (std::size_t i = 1; i < p.size(); ++i) laid_out = laid_out || p[i][0] == ' ' || p[i][0] == '\t';
    laid_out = laid_out || p.front()[0] == ' ';
    out += laid_out ? ".PP\n.nf\n" : ".PP\n";
    for (const auto &l : p) out += roff(laid_out ? l : std::string(text::strip(l))) + "\n";
    if (laid_out) out += ".fi\n";
  };

  std::string out = ".\\\" Generated from `" + std::string(tool) +
                    " --help` by otm's build (lib/support/cmdline/man_page.hpp); do not edit.\n";
  out += ".TH \"" + upper(tool) + "\" \"1\" \"\" \"" + roff(version_line) + "\" \"otm manual\"\n";
  out += ".SH NAME\n" + roff(tool) + " \\- " + roff(name_line) + "\n";
  out += ".SH SYNOPSIS\n.nf\n";
  for (const auto &s : synopsis) out += roff(s) + "\n";
  out += ".fi\n.SH DESCRIPTION\n";
  for (const auto &p : description) emit(out, p);
  if (!options.empty()) {
    out += ".SH OPTIONS\n";
    for (const auto &l : options) {
      auto [flags, text_] = option_line(l);
      bool continuation = l.size() > 4 && l.compare(0, 4, "    ") == 0 && flags.rfind("-", 0) != 0;
      if (continuation) {
        out += roff(std::string(text::strip(l))) + "\n";
        continue;
      }
      out += ".TP\n" + flags_roff(flags) + "\n" + (text_.empty() ? "" : roff(text_) + "\n");
    }
  }
  if (!exit_status.empty()) {
    out += ".SH \"EXIT STATUS\"\n";
    for (const auto &p : exit_status) emit(out, p);
  }
  out += ".SH \"SEE ALSO\"\nThe otm README and docs/tools/" + roff(tool) + ".md in the otm sources; " +
         "docs/exit\\-codes.md for the exit codes all otm executables share.\n";
  return out;
}

} // namespace otm::cli
