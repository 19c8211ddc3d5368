// The sweep view's computation, spread over frames: a sweep of a whole model
// takes seconds, so each frame adds the points that fit in a time budget and
// the last complete sweep stays on screen until the new one is done.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/compiled.h"
#include "core/crossings.h"
#include "core/sweep.h"

namespace fl::web {

class SweepJob {
 public:
  // Starts over when `c` or `key` differ from the last call in anything but
  // the swept size's own value (dragging it only moves the marker), then
  // computes points for up to `budget_ms`, at least one, from the phase that
  // `compiler` holds (the page's own: the view and its sweep share one compilation).
  void Advance(const AnalysisConfig& c, SweepKey key, double budget_ms, PhaseCompiler& compiler);

  bool HasShown() const { return !shown_.points.empty(); }
  bool Busy() const { return next_ < values_.size(); }  // the shown sweep is stale
  int Done() const { return static_cast<int>(next_); }
  int Total() const { return static_cast<int>(values_.size()); }
  const Sweep& Shown() const { return shown_; }
  int ShownCount() const { return shown_count_; }  // sweeps completed so far: tells a new one from the last
  const std::vector<Crossing>& ShownCrossings() const { return crossings_; }
  const std::optional<ConfigError>& Error() const { return error_; }  // why the sweep was refused

 private:
  std::string identity_;  // what the building sweep is of
  AnalysisConfig config_;
  std::vector<int64_t> values_;
  size_t next_ = 0;
  Sweep building_, shown_;
  int shown_count_ = 0;
  std::vector<Crossing> crossings_;
  std::optional<ConfigError> error_;
};

}  // namespace fl::web
