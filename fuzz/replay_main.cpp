// otm-fuzz-<target> built without libFuzzer: runs the target over corpus
// files and directories, then, with --mutate SECONDS, over random mutations
// of them (byte flips, insertions, deletions, duplications, splices,
// dictionary tokens) until the time is up. Not coverage-guided like
// libFuzzer (bench/fuzz runs that), but it needs only the normal compiler,
// so every CI build (GCC, ASan+UBSan) runs it as a ctest. When an input
// breaks the target, it is written to fuzz-failure-<target>-<n>.bin in the
// working directory before the process dies, to be replayed and fixed.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "fuzz_target.hpp"

extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace {

std::string g_current;   // the input being run
const char *g_name = ""; // the target's name, for the failure file

void save_current() {
  std::string file = std::string("fuzz-failure-") + g_name + "-" + std::to_string(::getpid()) + ".bin";
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  ssize_t n = ::write(fd, g_current.data(), g_current.size());
  (void)n;
  ::close(fd);
  const char msg[] = "otm-fuzz-replay: the failing input is in fuzz-failure-*.bin\n";
  n = ::write(2, msg, sizeof msg - 1);
}

void on_signal(int sig) {
  save_current();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

int run(const std::string &input) {
  g_current = input;
  return LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(g_current.data()), g_current.size());
}

std::string slurp(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const std::vector<std::string> &tokens() {
  static const std::vector<std::string> t = {"{",
                                             "}",
                                             "[",
                                             "]",
                                             "\"",
                                             ":",
                                             ",",
                                             "\\u0000",
                                             "\\ud800",
                                             "null",
                                             "true",
                                             "1e309",
                                             "-0",
                                             "v1",
                                             "v99999999999999999999",
                                             "V0",
                                             "/",
                                             "../",
                                             "/etc/passwd",
                                             "\xff",
                                             "\xc3\x28",
                                             "\n\n",
                                             "kept",
                                             "reverted",
                                             "dead-ends:",
                                             "Next:",
                                             "us",
                                             "->",
                                             "%",
                                             "e.g.",
                                             "#",
                                             "\"\"\"",
                                             "0x7f3e1c00",
                                             "1a2b3c4d5e6f",
                                             "acme-internal",
                                             "{\"id\":",
                                             "\"type\":",
                                             "\"strategy\"",
                                             "\"anti-strategy\"",
                                             "\"payload\":",
                                             "\"retrieval\":",
                                             "\"scope\":",
                                             "\"evidence\":"};
  return t;
}

std::string mutate(std::string s, const std::vector<std::string> &corpus, std::mt19937_64 &rng) {
  auto pick = [&](std::size_t n) { return n ? std::uniform_int_distribution<std::size_t>(0, n - 1)(rng) : 0; };
  int rounds = 1 + static_cast<int>(pick(4));
  for (int r = 0; r < rounds; ++r) {
    std::size_t pos = pick(s.size() + 1);
    switch (pick(7)) {
    case 0:
      if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << pick(8));
      break;
    case 1: s.insert(pos, 1, static_cast<char>(pick(256))); break;
    case 2:
      if (!s.empty()) s.erase(pick(s.size()), 1 + pick(std::min<std::size_t>(s.size(), 64)));
      break;
    case 3: {
      if (s.empty()) break;
      std::size_t from = pick(s.size()), len = 1 + pick(std::min<std::size_t>(s.size() - from, 256));
      std::string piece = s.substr(from, len);
      for (std::size_t k = 0, n = 1 + pick(8); k < n; ++k) s.insert(std::min(pos, s.size()), piece);
      break;
    }
    case 4: {
      const std::string &other = corpus[pick(corpus.size())];
      std::size_t from = pick(other.size() + 1);
      s = s.substr(0, pos) + other.substr(from, pick(other.size() - from + 1));
      break;
    }
    default: s.insert(pos, tokens()[pick(tokens().size())]); break;
    }
    if (s.size() > (1u << 18)) s.resize(1u << 18);
  }
  return s;
}

} // namespace

int main(int argc, char **argv) {
  g_name = std::strrchr(argv[0], '/') ? std::strrchr(argv[0], '/') + 1 : argv[0];
  double seconds = 0;
  unsigned long long seed = 1;
  std::vector<std::string> corpus;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--mutate" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (a == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "-h" || a == "--help") {
      std::cout << "usage: " << g_name << " [--mutate SECONDS] [--seed N] FILE|DIR...\n";
      return 0;
    } else if (std::filesystem::is_directory(a)) {
      std::vector<std::filesystem::path> files;
      for (const auto &e : std::filesystem::recursive_directory_iterator(a))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto &f : files) corpus.push_back(slurp(f));
    } else if (std::filesystem::is_regular_file(a)) {
      corpus.push_back(slurp(a));
    } else {
      std::cerr << g_name << ": " << a << ": no such file or directory\n";
      return 2;
    }
  }
  if (corpus.empty()) corpus.emplace_back();
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::signal(sig, on_signal);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(save_current);
  for (const auto &c : corpus) run(c);
  std::size_t runs = corpus.size();
  if (seconds > 0) {
    std::mt19937_64 rng(seed);
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::vector<std::string> pool = corpus;
    while (std::chrono::steady_clock::now() < end) {
      const std::string &base = pool[std::uniform_int_distribution<std::size_t>(0, pool.size() - 1)(rng)];
      std::string m = mutate(base, pool, rng);
      run(m);
      ++runs;
      // Keep some mutants as parents, so mutations compound.
      if (pool.size() < 4 * corpus.size() + 64 && (runs & 7) == 0) pool.push_back(std::move(m));
    }
  }
  std::cout << g_name << ": " << runs << " inputs (" << corpus.size() << " from the corpus), no failure\n";
  return 0;
}
