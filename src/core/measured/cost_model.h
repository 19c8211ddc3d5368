// Which cost model a configuration's times come from: the roofline, or the
// calibrated model of its GPU (fitted to the shipped profiles measured on it),
// and the sentences that say so.
#pragma once

#include <optional>
#include <string>

#include "core/analysis.h"
#include "core/measured/op_profile.h"

namespace fl {

// The calibration of the configuration's GPU: that of the preset with its
// peaks, fitted to the profiles measured on that preset; none for a GPU no
// shipped profile was measured on.
std::optional<FittedCalibration> calibration_of_gpu(const AnalysisConfig& c);

// Sets c.hw.achieved for the cost model chosen: the calibration's fractions of
// the peaks and fixed time per kernel where the GPU has one, else the roofline's.
void apply_cost_model(AnalysisConfig& c);

// What a kernel's time is called under the model `hw` costs by: "roofline time", "calibrated time".
std::string time_term(const Hardware& hw, Lang l);

// "Calibrated model (h100): matmuls reach 67 % of ...; fitted by least squares to FILE (N measured times). ..."
// or that `gpu` has no shipped profile.
std::string calibration_sentence(const std::optional<FittedCalibration>& fitted, const std::string& gpu, Lang l);

// Where the times of `c` come from, in one note: the roofline (not
// measurements), the calibrated model with its fitted numbers and source, or
// the roofline because the GPU has no calibration.
std::string cost_model_note(const AnalysisConfig& c, Lang l);

}  // namespace fl
