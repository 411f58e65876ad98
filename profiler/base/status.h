// Errors as values. A Status is ok or carries one human-readable line; StatusOr<T> carries a value
// or that line. Library code never exits: the CLI turns a failed Status into exit code 2.
#ifndef RBLNSIM_PROFILER_BASE_STATUS_H_
#define RBLNSIM_PROFILER_BASE_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace rblnsim {

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !message_.has_value(); }
  const std::string& message() const {
    static const std::string kEmpty;
    return message_ ? *message_ : kEmpty;
  }
  // Prefixes context such as "scenario.yaml:3:5: ", keeping one line.
  Status WithPrefix(const std::string& prefix) const {
    return ok() ? *this : Status(prefix + *message_);
  }

 private:
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
};

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : data_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
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

#define RBLNSIM_RETURN_IF_ERROR(expr)        \
  do {                                       \
    ::rblnsim::Status status_macro_ = (expr); \
    if (!status_macro_.ok()) return status_macro_; \
  } while (0)

#define RBLNSIM_CONCAT_INNER_(a, b) a##b
#define RBLNSIM_CONCAT_(a, b) RBLNSIM_CONCAT_INNER_(a, b)
#define RBLNSIM_ASSIGN_OR_RETURN(lhs, expr)                              \
  auto RBLNSIM_CONCAT_(statusor_, __LINE__) = (expr);                    \
  if (!RBLNSIM_CONCAT_(statusor_, __LINE__).ok())                        \
    return RBLNSIM_CONCAT_(statusor_, __LINE__).status();                \
  lhs = std::move(RBLNSIM_CONCAT_(statusor_, __LINE__)).value()

#endif  // RBLNSIM_PROFILER_BASE_STATUS_H_
