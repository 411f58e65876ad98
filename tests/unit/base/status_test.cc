// Status codes survive every way an error travels (prefixing, StatusOr, the RETURN/ASSIGN macros),
// because the command line's exit status is derived from the code at the very end.
#include "base/status.h"

#include <gtest/gtest.h>

#include <string>

namespace rblnsim {
namespace {

StatusOr<int> Parse(const std::string& text) {
  if (text.empty())
    return Status::Error("empty");
  if (text == "disk")
    return Status::IoError("cannot write 'x': No space left on device");
  return static_cast<int>(text.size());
}

Status Twice(const std::string& text, int* out) {
  RBLNSIM_ASSIGN_OR_RETURN(const int once, Parse(text));
  RBLNSIM_RETURN_IF_ERROR(once > 3 ? Status::ResourceExhausted("too big") : Status::Ok());
  *out = once * 2;
  return Status::Ok();
}

TEST(StatusTest, OkHasNoMessageAndExitsZero) {
  const Status ok = Status::Ok();
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), StatusCode::kOk);
  EXPECT_EQ(ok.message(), "");
  EXPECT_EQ(ExitStatusFor(ok.code()), 0);
  EXPECT_TRUE(ok.WithPrefix("file: ").ok());
}

TEST(StatusTest, EachCodeHasItsOwnExitStatus) {
  EXPECT_EQ(ExitStatusFor(Status::Error("x").code()), 2);
  EXPECT_EQ(ExitStatusFor(Status::IoError("x").code()), 3);
  EXPECT_EQ(ExitStatusFor(Status::ResourceExhausted("x").code()), 4);
  EXPECT_EQ(ExitStatusFor(Status::Internal("x").code()), 5);
}

TEST(StatusTest, PrefixKeepsTheCode) {
  const Status status = Status::IoError("disk full").WithPrefix("trace.json: ");
  EXPECT_EQ(status.message(), "trace.json: disk full");
  EXPECT_EQ(status.code(), StatusCode::kIoError);
}

TEST(StatusTest, MacrosCarryTheCodeThrough) {
  int out = 0;
  EXPECT_TRUE(Twice("ab", &out).ok());
  EXPECT_EQ(out, 4);
  EXPECT_EQ(Twice("", &out).code(), StatusCode::kInvalidInput);
  EXPECT_EQ(Twice("disk", &out).code(), StatusCode::kIoError);
  EXPECT_EQ(Twice("abcd", &out).code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(out, 4);
}

}  // namespace
}  // namespace rblnsim
