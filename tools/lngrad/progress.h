// A progress line on stderr for work that takes longer than about a second.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace lngrad::cli {

// Shown only when stderr is a terminal, and only once the work has run for a second
// (LNGRAD_PROGRESS_DELAY_MS changes that); redrawn in place ("\r") and erased when done, so
// logs and pipes never see it. LNGRAD_PROGRESS=never turns it off; LNGRAD_PROGRESS=always shows
// it at once, one plain line per update, terminal or not.
class Progress {
 public:
  explicit Progress(std::string command);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts a named stage ("computing the golden"); the fraction is unknown until Fraction().
  void Stage(std::string stage);
  // Part of the current stage done, in [0, 1].
  void Fraction(double f);
  // Stops the ticker and erases the line (also done by the destructor).
  void Finish();

 private:
  void Tick();
  bool DueLocked() const;  // with mu_ held: should the line be drawn now?
  void Draw();             // with mu_ held

  std::string command_;
  bool enabled_ = false;
  bool in_place_ = false;  // terminal: redraw with '\r'
  std::chrono::milliseconds delay_{1000};
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point stage_start_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool drawn_ = false;
  std::string stage_;
  double fraction_ = -1;
  std::string last_line_;
  std::thread ticker_;
};

}  // namespace lngrad::cli
