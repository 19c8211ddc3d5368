// A cost model fitted to measured per-op times: the roofline on a GPU that
// reaches a fraction of its peaks (tensor cores, vector units, HBM), plus a
// fixed cost per kernel. The four numbers are fitted by least squares, in the
// core, to the kernels that do each measured op.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config.h"

namespace fl {

// One kernel as the fit sees it: its roofline sides at the preset's peaks.
struct KernelSides {
  double matmul_s = 0;  // tensor-core FLOPs / peak
  double vector_s = 0;  // other FLOPs / peak
  double memory_s = 0;  // HBM bytes / peak bandwidth
};

// One measured time and the kernels that did the op measured.
struct TimedOp {
  std::vector<KernelSides> kernels;
  double measured_s = 0;
};

struct Calibration {
  // Achieved / peak, each at most 1. A side no kernel of the data was bound
  // by cannot be fitted: it stays at 1 and says so.
  double matmul_efficiency = 1, vector_efficiency = 1, bandwidth_efficiency = 1;
  bool matmul_fitted = false, vector_fitted = false, bandwidth_fitted = false;
  // Fitted, but held at the peak: the data asked for more than it.
  bool matmul_at_peak = false, vector_at_peak = false, bandwidth_at_peak = false;
  double fixed_s = 0;  // per kernel
  int samples = 0;     // measured times it was fitted to

  // The preset's peaks scaled by the efficiencies, launching at fixed_s.
  Hardware effective(const Hardware& peak) const;
  // An op's predicted time: its kernels' roofline on the effective peaks, each plus the fixed cost.
  double seconds(const TimedOp& op) const;
};

// The least-squares fit of the relative error, (predicted - measured) /
// measured, over `ops` with a measured time. Which side bounds each kernel
// depends on the fit: the fit alternates between choosing the sides and
// solving for the four numbers until the sides hold.
Calibration fit_calibration(const std::vector<TimedOp>& ops);

}  // namespace fl
