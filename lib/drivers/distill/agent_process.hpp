// Running one distilling agent: `/bin/sh -c CMD` in its own process group,
// the input on stdin, the record read from stdout, a hard deadline. A hung,
// crashing or flooding agent is a failure of its packet, never of the run.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace otm::distill {

struct AgentRun {
  int exit_code = -1;           // exit status when it exited normally
  int signal = 0;               // the signal that ended it, 0 when it exited
  bool timed_out = false;       // killed at the deadline
  bool output_overflow = false; // killed for writing more than the cap
  std::string out, err;         // stdout, and the tail of stderr
  std::string spawn_error;      // non-empty when it could not be started
  bool ok() const { return spawn_error.empty() && !timed_out && !output_overflow && signal == 0 && exit_code == 0; }
  // One line saying how it ended ("exit 3", "timed out after 2 s", ...).
  std::string describe() const;
};

struct AgentLimits {
  std::chrono::milliseconds timeout{600000};
  std::size_t max_stdout = 8u << 20;
  std::size_t max_stderr_tail = 4096;
};

// Thread-safe: pipes are close-on-exec, so concurrent agents never hold
// each other's pipe ends. `env` entries are added to the inherited
// environment. On timeout the whole process group is killed. The first
// call sets SIGPIPE to ignored for the process (writes to an agent that
// closed its stdin then fail with EPIPE).
AgentRun run_agent(const std::string &cmd, const std::string &input,
                   const std::vector<std::pair<std::string, std::string>> &env, const AgentLimits &limits);

} // namespace otm::distill
