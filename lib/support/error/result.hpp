// A value or the otm::Error that kept it from being read: what a codec
// returns, so a caller that can go on (a lenient report) decides, and one
// that cannot (a stage reading its input) throws the error as it is, with
// its kind.
//
//   auto row = workspace::VersionRow::from_json(v);
//   if (!row) warn(row.error().what());   // or: row.value() throws it
#pragma once

#include <utility>
#include <variant>

#include "error/error.hpp"

namespace otm {

template <typename T> class Result {
public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  // The value; the error, thrown, when there is none.
  const T &value() const & { return ok() ? std::get<0>(v_) : fail(); }
  T &value() & { return ok() ? std::get<0>(v_) : fail(); }
  T value() && { return ok() ? std::move(std::get<0>(v_)) : fail(); }

  // Only when !ok().
  const Error &error() const { return std::get<1>(v_); }

private:
  [[noreturn]] T &fail() const { throw error(); }
  std::variant<T, Error> v_;
};

} // namespace otm
