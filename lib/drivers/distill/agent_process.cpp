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

namespace {

// The agent's three pipes, the caller's ends and the child's.
struct Pipes {
  Fd in_r, in_w, out_r, out_w, err_r, err_w;
};

// Starts `/bin/sh -c cmd` on the pipes in its own process group (so a
// timeout kills its children too) with SIGPIPE back at its default; the
// child's pipe ends are closed here once it runs. -1 with
// run.spawn_error set when it could not be started.
pid_t spawn_agent(const std::string &cmd, const std::vector<std::pair<std::string, std::string>> &env_extra, Pipes &p,
                  AgentRun &run) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, p.in_r.fd, 0);
  posix_spawn_file_actions_adddup2(&actions, p.out_w.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, p.err_w.fd, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
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
    return -1;
  }
  p.in_r.reset();
  p.out_w.reset();
  p.err_w.reset();
  return pid;
}

// Feeds `input` to the agent's stdin and reads its stdout and stderr until
// both close, the deadline passes (run.timed_out) or stdout outgrows its cap
// (run.output_overflow). stderr keeps only its tail.
void pump(Pipes &p, const std::string &input, std::chrono::steady_clock::time_point deadline, const AgentLimits &limits,
          AgentRun &run) {
  ::fcntl(p.in_w.fd, F_SETFL, ::fcntl(p.in_w.fd, F_GETFL) | O_NONBLOCK);
  std::size_t written = 0;
  if (input.empty()) p.in_w.reset();
  char buf[65536];
  while (p.out_r.fd >= 0 || p.err_r.fd >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      run.timed_out = true;
      break;
    }
    pollfd fds[3];
    int n = 0, i_out = -1, i_err = -1, i_in = -1;
    if (p.out_r.fd >= 0) fds[i_out = n++] = {p.out_r.fd, POLLIN, 0};
    if (p.err_r.fd >= 0) fds[i_err = n++] = {p.err_r.fd, POLLIN, 0};
    if (p.in_w.fd >= 0) fds[i_in = n++] = {p.in_w.fd, POLLOUT, 0};
    int pr = ::poll(fds, n, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (pr < 0) {
      if (errno == EINTR) continue;
      run.spawn_error = std::string("poll: ") + std::strerror(errno);
      break;
    }
    if (i_in >= 0 && fds[i_in].revents) {
      ssize_t w = ::write(p.in_w.fd, input.data() + written, input.size() - written);
      if (w > 0) written += static_cast<std::size_t>(w);
      // EPIPE: the agent stopped reading; what it read is its business.
      if (w < 0 && errno != EAGAIN && errno != EINTR) p.in_w.reset();
      if (written >= input.size()) p.in_w.reset();
    }
    if (i_out >= 0 && fds[i_out].revents) {
      ssize_t r = ::read(p.out_r.fd, buf, sizeof buf);
      if (r > 0) {
        run.out.append(buf, static_cast<std::size_t>(r));
        if (run.out.size() > limits.max_stdout) {
          run.output_overflow = true;
          break;
        }
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        p.out_r.reset();
      }
    }
    if (i_err >= 0 && fds[i_err].revents) {
      ssize_t r = ::read(p.err_r.fd, buf, sizeof buf);
      if (r > 0) {
        run.err.append(buf, static_cast<std::size_t>(r));
        if (run.err.size() > 2 * limits.max_stderr_tail) run.err.erase(0, run.err.size() - limits.max_stderr_tail);
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        p.err_r.reset();
      }
    }
  }
  p.in_w.reset();
}

// Waits for the agent to exit within the same deadline, killing its group
// when the run already failed or the deadline passes; the exit status or
// signal goes into `run` unless it was killed for time or output.
void reap(pid_t pid, std::chrono::steady_clock::time_point deadline, AgentRun &run) {
  bool killed = false;
  if (run.timed_out || run.output_overflow || !run.spawn_error.empty()) {
    ::kill(-pid, SIGKILL);
    killed = true;
  }
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
  if (!run.timed_out && !run.output_overflow) {
    if (WIFEXITED(status))
      run.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
      run.signal = WTERMSIG(status);
  }
}

} // namespace

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
  Pipes p{{in_pipe[0]}, {in_pipe[1]}, {out_pipe[0]}, {out_pipe[1]}, {err_pipe[0]}, {err_pipe[1]}};
  pid_t pid = spawn_agent(cmd, env_extra, p, run);
  if (pid < 0) return run;
  auto deadline = std::chrono::steady_clock::now() + limits.timeout;
  pump(p, input, deadline, limits, run);
  // The streams are closed; the exit is awaited within the same deadline.
  reap(pid, deadline, run);
  if (run.err.size() > limits.max_stderr_tail) run.err.erase(0, run.err.size() - limits.max_stderr_tail);
  return run;
}

} // namespace otm::distill
