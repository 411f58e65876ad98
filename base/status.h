// Errors as values. A Status is ok or carries a code and one human-readable line; StatusOr<T>
// carries a value or that status. Library code never exits: the CLI turns a failed Status into the
// exit status its code names (ExitStatusFor), so a failed write is not reported as bad input.
#ifndef RBLNSIM_BASE_STATUS_H_
#define RBLNSIM_BASE_STATUS_H_

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace rblnsim {

// What went wrong, as far as the caller (and the exit status) needs to know.
enum class StatusCode : uint8_t {
  kOk = 0,
  kInvalidInput,       // the scenario, trace, flag or file given is wrong: the user fixes the input
  kIoError,            // reading or writing a file failed for a reason outside the input's content
  kResourceExhausted,  // out of memory, a time or size limit of the machine was reached
  kInternal,           // a broken invariant: a bug in rblnsim
};

// The process exit status of each code. 1 is left to commands whose run completed and found
// something (failed checks, unmet expectations, a diff gate).
inline int ExitStatusFor(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return 0;
    case StatusCode::kInvalidInput:
      return 2;
    case StatusCode::kIoError:
      return 3;
    case StatusCode::kResourceExhausted:
      return 4;
    case StatusCode::kInternal:
      return 5;
  }
  return 5;
}

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  // Bad input: the default, since almost every error a command meets is in what it was given.
  static Status Error(std::string message) {
    return Status(StatusCode::kInvalidInput, std::move(message));
  }
  static Status IoError(std::string message) {
    return Status(StatusCode::kIoError, std::move(message));
  }
  static Status ResourceExhausted(std::string message) {
    return Status(StatusCode::kResourceExhausted, std::move(message));
  }
  static Status Internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // Prefixes context such as "scenario.yaml:3:5: ", keeping one line and the code.
  Status WithPrefix(const std::string& prefix) const {
    return ok() ? *this : Status(code_, prefix + message_);
  }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : data_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  StatusOr(Status status) : data_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    assert(!std::get<Status>(data_).ok() && "StatusOr needs an error status or a value");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T& value() & { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace rblnsim

#define RBLNSIM_RETURN_IF_ERROR(expr)         \
  do {                                        \
    ::rblnsim::Status status_macro_ = (expr); \
    if (!status_macro_.ok())                  \
      return status_macro_;                   \
  } while (0)

#define RBLNSIM_CONCAT_INNER_(a, b) a##b
#define RBLNSIM_CONCAT_(a, b) RBLNSIM_CONCAT_INNER_(a, b)
#define RBLNSIM_ASSIGN_OR_RETURN(lhs, expr)               \
  auto RBLNSIM_CONCAT_(statusor_, __LINE__) = (expr);     \
  if (!RBLNSIM_CONCAT_(statusor_, __LINE__).ok())         \
    return RBLNSIM_CONCAT_(statusor_, __LINE__).status(); \
  lhs = std::move(RBLNSIM_CONCAT_(statusor_, __LINE__)).value()

#endif  // RBLNSIM_BASE_STATUS_H_
