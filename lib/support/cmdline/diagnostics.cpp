#include "cmdline/diagnostics.hpp"

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <mutex>
#include <streambuf>
#include <string>

#include "text/printable.hpp"

namespace otm::cli {

namespace {

// Writes straight to file descriptor 2, unbuffered like std::cerr.
class Fd2Buffer : public std::streambuf {
protected:
  int_type overflow(int_type ch) override {
    if (ch == traits_type::eof()) return traits_type::not_eof(ch);
    char c = traits_type::to_char_type(ch);
    return xsputn(&c, 1) == 1 ? ch : traits_type::eof();
  }
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    std::streamsize done = 0;
    while (done < n) {
      ssize_t w = ::write(STDERR_FILENO, s + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      done += w;
    }
    return done;
  }
};

} // namespace

// Escapes everything written through it, then hands it to std::cerr's own
// buffer. Threads may write at once (a worker pool's warnings): one lock.
struct EscapedStderr::Buffer : public std::streambuf {
  explicit Buffer(std::streambuf *dest) : dest(dest) {}
  std::streambuf *dest;
  text::ControlEscaper escaper{text::Newlines::Keep};
  std::mutex mu;

  int_type overflow(int_type ch) override {
    if (ch == traits_type::eof()) return traits_type::not_eof(ch);
    char c = traits_type::to_char_type(ch);
    return xsputn(&c, 1) == 1 ? ch : traits_type::eof();
  }
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    std::lock_guard<std::mutex> lock(mu);
    std::string out;
    escaper.feed(std::string_view(s, static_cast<std::size_t>(n)), out);
    if (!out.empty() &&
        dest->sputn(out.data(), static_cast<std::streamsize>(out.size())) != static_cast<std::streamsize>(out.size()))
      return 0;
    return n;
  }
  int sync() override { return dest->pubsync(); }
  void finish() {
    std::lock_guard<std::mutex> lock(mu);
    std::string out;
    escaper.finish(out);
    if (!out.empty()) dest->sputn(out.data(), static_cast<std::streamsize>(out.size()));
    dest->pubsync();
  }
};

EscapedStderr::EscapedStderr() {
  // Nested (a tool run from a test that already escapes): the outer one acts.
  if (dynamic_cast<Buffer *>(std::cerr.rdbuf())) return;
  buffer_ = std::make_unique<Buffer>(std::cerr.rdbuf());
  saved_ = std::cerr.rdbuf(buffer_.get());
}

EscapedStderr::~EscapedStderr() {
  if (!buffer_) return;
  buffer_->finish();
  std::cerr.rdbuf(saved_);
}

std::ostream &terminal() {
  static Fd2Buffer buffer;
  static std::ostream stream(&buffer);
  return stream;
}

} // namespace otm::cli
