#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace lngrad::cli {

Progress::Progress(std::string command) : command_(std::move(command)) {
  const char* env = std::getenv("LNGRAD_PROGRESS");
  const std::string mode = env ? env : "auto";
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  if (mode == "never") {
    enabled_ = false;
  } else if (mode == "always") {
    enabled_ = true;
    in_place_ = false;
  } else {
    enabled_ = tty;
    in_place_ = true;
  }
  if (const char* d = std::getenv("LNGRAD_PROGRESS_DELAY_MS")) {
    delay_ = std::chrono::milliseconds(std::strtol(d, nullptr, 10));
  }
  start_ = stage_start_ = std::chrono::steady_clock::now();
  // A terminal line is redrawn by a ticker (the work itself may be one long library call);
  // "always" lines are written synchronously as stages and fractions change.
  if (enabled_ && in_place_) ticker_ = std::thread([this] { Tick(); });
}

Progress::~Progress() { Finish(); }

void Progress::Stage(std::string stage) {
  std::lock_guard<std::mutex> lock(mu_);
  stage_ = std::move(stage);
  fraction_ = -1;
  stage_start_ = std::chrono::steady_clock::now();
  if (DueLocked()) Draw();
}

void Progress::Fraction(double f) {
  std::lock_guard<std::mutex> lock(mu_);
  fraction_ = f < 0 ? 0 : (f > 1 ? 1 : f);
  if (DueLocked()) Draw();
}

void Progress::Finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  if (drawn_ && in_place_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

bool Progress::DueLocked() const {
  if (!enabled_ || stage_.empty()) return false;
  return !in_place_ || std::chrono::steady_clock::now() - start_ >= delay_;
}

void Progress::Draw() {
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char buf[256];
  if (fraction_ >= 0) {
    std::snprintf(buf, sizeof buf, "lngrad %s: %s %3.0f%% (%.1f s)", command_.c_str(),
                  stage_.c_str(), fraction_ * 100, secs);
  } else {
    std::snprintf(buf, sizeof buf, "lngrad %s: %s ... (%.1f s)", command_.c_str(), stage_.c_str(),
                  secs);
  }
  if (in_place_) {
    std::fprintf(stderr, "\r%s\033[K", buf);
  } else {
    // Plain lines only when something other than the clock changed.
    std::string what =
        stage_ + (fraction_ >= 0 ? std::to_string(static_cast<int>(fraction_ * 10)) : "");
    if (what == last_line_) return;
    last_line_ = what;
    std::fprintf(stderr, "%s\n", buf);
  }
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::Tick() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    if (DueLocked()) Draw();
    cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; });
  }
}

}  // namespace lngrad::cli
