#include "tools/rblnsim/sweep/sweep_progress.h"

#include <cstdio>
#include <string>

namespace rblnsim::cli {
namespace {

constexpr size_t kBarWidth = 30;

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Progress::Progress(size_t total, bool tty)
    : total_(total), tty_(tty), start_(std::chrono::steady_clock::now()) {
  if (tty_ && total_ > 0)
    Draw();
}

void Progress::Done(const SweepPoint& point, bool ok, double wall_s) {
  ++done_;
  failed_ += ok ? 0 : 1;
  if (tty_) {
    Draw();
    return;
  }
  std::string params;
  for (const auto& [path, value] : point.params)
    params += (params.empty() ? "" : ", ") + path + "=" + value;
  std::fprintf(stderr, "point %zu/%zu done: %s %s in %.2f s (%s)\n", done_, total_,
               point.key.c_str(), ok ? "ok" : "FAILED", wall_s, params.c_str());
}

void Progress::Message(const std::string& line) {
  // On a terminal: wipe the bar, print the line, draw the bar again underneath.
  if (tty_)
    std::fprintf(stderr, "\r%*s\r", static_cast<int>(kBarWidth + 48), "");
  std::fprintf(stderr, "%s\n", line.c_str());
  if (tty_)
    Draw();
}

void Progress::Finish() {
  if (tty_ && total_ > 0)
    std::fputc('\n', stderr);
}

void Progress::Draw() const {
  const size_t filled = total_ == 0 ? kBarWidth : done_ * kBarWidth / total_;
  std::string bar(filled, '#');
  bar.append(kBarWidth - filled, '.');
  // Trailing spaces wipe what a longer previous line left behind.
  std::fprintf(stderr, "\r[%s] %zu/%zu points, %zu failed, %.1f s   ", bar.c_str(), done_, total_,
               failed_, SecondsSince(start_));
  std::fflush(stderr);
}

}  // namespace rblnsim::cli
