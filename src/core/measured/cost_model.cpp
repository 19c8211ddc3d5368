#include "core/measured/cost_model.h"

#include "core/presets.h"
#include "core/units.h"

namespace fl {

namespace {

// The preset whose GPU `c` has: its own preset, else the first with the same peaks.
const HardwarePreset* preset_of_gpu(const AnalysisConfig& c) {
  if (const HardwarePreset* h = find_hardware(c.hardware_key); h && h->hw.same_gpu(c.hw)) return h;
  for (const HardwarePreset& h : hardware_presets())
    if (h.hw.same_gpu(c.hw)) return &h;
  return nullptr;
}

Achieved achieved_of(const Calibration& cal) {
  return {cal.matmul_efficiency, cal.vector_efficiency, cal.bandwidth_efficiency, cal.matmul_bandwidth_efficiency,
          cal.fixed_s, cal.matmul_fixed_s};
}

}  // namespace

std::optional<FittedCalibration> calibration_of_gpu(const AnalysisConfig& c) {
  const HardwarePreset* h = preset_of_gpu(c);
  return h ? calibration_for(h->key) : std::nullopt;
}

void apply_cost_model(AnalysisConfig& c) {
  c.hw.achieved = {};
  if (c.cost != CostModel::Calibrated) return;
  if (const std::optional<FittedCalibration> fitted = calibration_of_gpu(c)) c.hw.achieved = achieved_of(fitted->calibration);
}

std::string time_term(const Hardware& hw, Lang l) {
  return std::string(tr(cost_model_of(hw) == CostModel::Roofline ? Text::TermRooflineTime : Text::TermCalibratedTime, l));
}

std::string calibration_sentence(const std::optional<FittedCalibration>& fitted, const std::string& gpu, Lang l) {
  if (!fitted) return tr(Text::ValNoCalibration, l, {gpu});
  const Calibration& c = fitted->calibration;
  auto efficiency = [l](double e, bool fitted, bool at_peak) {
    if (!fitted) return std::string(tr(Text::ValNotFitted, l));
    return at_peak ? tr(Text::ValAtPeak, l, {fmt_percent(e)}) : fmt_percent(e);
  };
  std::string files;
  for (std::string_view f : fitted->files) files += (files.empty() ? "" : ", ") + std::string(f);
  return tr(Text::ValCalibration, l,
            {gpu, efficiency(c.matmul_efficiency, c.matmul_fitted, c.matmul_at_peak),
             efficiency(c.vector_efficiency, c.vector_fitted, c.vector_at_peak),
             efficiency(c.matmul_bandwidth_efficiency, c.matmul_bandwidth_fitted, c.matmul_bandwidth_at_peak),
             efficiency(c.bandwidth_efficiency, c.bandwidth_fitted, c.bandwidth_at_peak), fmt_time(c.fixed_s), files,
             std::to_string(c.samples), std::to_string(fitted->rope_kernels), fmt_time(c.matmul_fixed_s)});
}

std::string cost_model_note(const AnalysisConfig& c, Lang l) {
  if (c.cost == CostModel::Roofline) return std::string(tr(Text::RooflineNote, l));
  const HardwarePreset* h = preset_of_gpu(c);
  const std::optional<FittedCalibration> fitted = h ? calibration_for(h->key) : std::nullopt;
  if (!fitted) return tr(Text::CostNoteFallback, l, {h ? std::string(h->name) : std::string(tr(Text::HardwareCustom, l))});
  return tr(Text::CostNoteCalibrated, l, {calibration_sentence(fitted, std::string(h->key), l)});
}

}  // namespace fl
