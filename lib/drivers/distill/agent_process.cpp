#include "distill/agent_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace otm::distill {

namespace {

struct Fd {
  int fd = -1;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

std::vector<std::string> build_env(const std::vector<std::pair<std::string, std::string>> &extra) {
  std::vector<std::string> env;
  for (char **e = environ; e && *e; ++e) {
    std::string s(*e);
    bool overridden = false;
    for (const auto &[k, v] : extra)
      if (s.compare(0, k.size() + 1, k + "=") == 0) overridden = true;
    if (!overridden) env.push_back(std::move(s));
  }
  for (const auto &[k, v] : extra) env.push_back(k + "=" + v);
  return env;
}

} // namespace

std::string AgentRun::describe() const {
  if (!spawn_error.empty()) return "could not start: " + spawn_error;
  if (timed_out) return "timed out (killed)";
  if (output_overflow) return "wrote more output than the cap (killed)";
  if (signal) return "killed by signal " + std::to_string(signal);
  return "exit " + std::to_string(exit_code);
}

AgentRun run_agent(const std::string &cmd, const std::string &input,
                   const std::vector<std::pair<std::string, std::string>> &env_extra, const AgentLimits &limits) {
  // An agent that stops reading its stdin must not kill the caller: writes
  // to its pipe then fail with EPIPE instead of raising SIGPIPE.
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { std::signal(SIGPIPE, SIG_IGN); });
  AgentRun run;
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    run.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return run;
  }
  Fd in_r{in_pipe[0]}, in_w{in_pipe[1]}, out_r{out_pipe[0]}, out_w{out_pipe[1]}, err_r{err_pipe[0]}, err_w{err_pipe[1]};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_r.fd, 0);
  posix_spawn_file_actions_adddup2(&actions, out_w.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_w.fd, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0); // own group, so a timeout kills its children too
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);

  auto env = build_env(env_extra);
  std::vector<char *> envp;
  for (auto &e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string sh = "/bin/sh", dash_c = "-c", command = cmd;
  char *argv[] = {sh.data(), dash_c.data(), command.data(), nullptr};
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    run.spawn_error = std::string("posix_spawn: ") + std::strerror(rc);
    return run;
  }
  in_r.reset();
  out_w.reset();
  err_w.reset();
  ::fcntl(in_w.fd, F_SETFL, ::fcntl(in_w.fd, F_GETFL) | O_NONBLOCK);

  auto deadline = std::chrono::steady_clock::now() + limits.timeout;
  std::size_t written = 0;
  if (input.empty()) in_w.reset();
  char buf[65536];
  bool killed = false;
  while (out_r.fd >= 0 || err_r.fd >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      run.timed_out = true;
      break;
    }
    pollfd fds[3];
    int n = 0, i_out = -1, i_err = -1, i_in = -1;
    if (out_r.fd >= 0) fds[i_out = n++] = {out_r.fd, POLLIN, 0};
    if (err_r.fd >= 0) fds[i_err = n++] = {err_r.fd, POLLIN, 0};
    if (in_w.fd >= 0) fds[i_in = n++] = {in_w.fd, POLLOUT, 0};
    int pr = ::poll(fds, n, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (pr < 0) {
      if (errno == EINTR) continue;
      run.spawn_error = std::string("poll: ") + std::strerror(errno);
      break;
    }
    if (i_in >= 0 && fds[i_in].revents) {
      ssize_t w = ::write(in_w.fd, input.data() + written, input.size() - written);
      if (w > 0) written += static_cast<std::size_t>(w);
      // EPIPE: the agent stopped reading; what it read is its business.
      if (w < 0 && errno != EAGAIN && errno != EINTR) in_w.reset();
      if (written >= input.size()) in_w.reset();
    }
    if (i_out >= 0 && fds[i_out].revents) {
      ssize_t r = ::read(out_r.fd, buf, sizeof buf);
      if (r > 0) {
        run.out.append(buf, static_cast<std::size_t>(r));
        if (run.out.size() > limits.max_stdout) {
          run.output_overflow = true;
          break;
        }
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        out_r.reset();
      }
    }
    if (i_err >= 0 && fds[i_err].revents) {
      ssize_t r = ::read(err_r.fd, buf, sizeof buf);
      if (r > 0) {
        run.err.append(buf, static_cast<std::size_t>(r));
        if (run.err.size() > 2 * limits.max_stderr_tail) run.err.erase(0, run.err.size() - limits.max_stderr_tail);
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        err_r.reset();
      }
    }
  }
  in_w.reset();
  if (run.timed_out || run.output_overflow || !run.spawn_error.empty()) {
    ::kill(-pid, SIGKILL);
    killed = true;
  }
  // The streams are closed; wait for the exit within the same deadline.
  int status = 0;
  while (true) {
    pid_t w = ::waitpid(pid, &status, killed ? 0 : WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (!killed && std::chrono::steady_clock::now() >= deadline) {
      run.timed_out = true;
      ::kill(-pid, SIGKILL);
      killed = true;
      continue;
    }
    if (!killed) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (killed) ::kill(-pid, SIGKILL); // stragglers left in the group
  if (run.err.size() > limits.max_stderr_tail) run.err.erase(0, run.err.size() - limits.max_stderr_tail);
  if (!run.timed_out && !run.output_overflow) {
    if (WIFEXITED(status))
      run.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
      run.signal = WTERMSIG(status);
  }
  return run;
}

} // namespace otm::distill
