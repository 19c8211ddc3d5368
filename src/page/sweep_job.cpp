#include "page/sweep_job.h"

#include <chrono>

#include "core/settings.h"
#include "page/settings.h"

namespace fl::web {

namespace {

// The configuration with the swept size at 1: two configurations that differ
// only there sweep the same points.
std::string identity_of(AnalysisConfig c, SweepKey key) {
  swept_field(c, key) = 1;
  return FormatQuery(settings_of(c)) + "&sweep=" + std::string(sweep_key_name(key));
}

}  // namespace

void SweepJob::Advance(const AnalysisConfig& c, SweepKey key, double budget_ms, PhaseCompiler& compiler) {
  const std::string identity = identity_of(c, key);
  if (identity != identity_) {
    identity_ = identity;
    config_ = c;
    next_ = 0;
    values_.clear();
    error_.reset();
    building_ = empty_sweep(c, key);
    try {
      values_ = sweep_values(c, SweepRequest{key});
    } catch (const ConfigError& e) {
      error_ = e;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  if (Busy()) do {
      try {
        building_.points.push_back(sweep_point(config_, key, values_[next_], compiler));
      } catch (const ConfigError& e) {  // a value the configuration refuses: the sweep ends before it
        error_ = e;
        values_.resize(next_);
        break;
      }
      ++next_;
    } while (Busy() && elapsed_ms() < budget_ms);
  if (!Busy() && !building_.points.empty()) {
    shown_ = std::move(building_);
    ++shown_count_;
    building_ = empty_sweep(c, key);
    crossings_ = crossings(shown_);
    values_.clear();
    next_ = 0;
  }
}

}  // namespace fl::web
