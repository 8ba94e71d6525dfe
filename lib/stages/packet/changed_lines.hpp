// The code lines a kernel-file diff adds and removes, whitespace taken out,
// by side (issue 25): what a strategy's span compares its kept steps'
// own changes against, and what a strategy's earlier tries are matched by.
// Blank, comment and version-stamp lines are no code.
//
//   auto span = changed_lines(span_diff);                               // every code line
//   auto mine = changed_lines(own, ChangedLines::Running | ChangedLines::NotMoved);
#pragma once

#include <cstddef>
#include <set>
#include <string>

#include "packet/kernel_code.hpp"

namespace otm::packet {

struct ChangedLines {
  enum Filter : unsigned {
    Every = 0,
    Running = 1,  // only lines that run (code::inert_changes against the file after the change)
    NotMoved = 2, // a line removed and added alike was moved or re-indented: in neither side
  };
  std::set<std::string> added, removed;
  std::size_t size() const { return added.size() + removed.size(); }
};

ChangedLines changed_lines(const KernelDiff &diff, unsigned filter = ChangedLines::Every);

// Whether any line `a` adds `b` adds too, or any line `a` removes `b`
// removes too.
bool meets(const ChangedLines &a, const ChangedLines &b);

} // namespace otm::packet
