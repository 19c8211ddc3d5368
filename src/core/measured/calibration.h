// A cost model fitted to measured per-op times: the roofline on a GPU that
// reaches a fraction of its peaks (tensor cores, vector units, and HBM, once
// for a GEMM's traffic and once for every other kernel's), plus a fixed cost
// per kernel, one for a GEMM (a cuBLAS call: its setup, its smallest tiles)
// and one for every other kernel. The six numbers are fitted by least
// squares, in the core, to the kernels that do each measured op.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/fusion.h"

namespace fl {

// One kernel as the fit sees it: its roofline sides at the preset's peaks.
// A kernel with tensor-core work is a GEMM: its traffic has its own efficiency.
struct KernelSides {
  double matmul_s = 0;  // tensor-core FLOPs / peak
  double vector_s = 0;  // other FLOPs / peak
  double memory_s = 0;  // HBM bytes / peak bandwidth
  bool gemm() const { return matmul_s > 0; }
};
KernelSides kernel_sides(const Kernel& k, const Hardware& peak);

// One measured time and the kernels that did the op measured.
struct TimedOp {
  std::vector<KernelSides> kernels;
  double measured_s = 0;
};

struct Calibration {
  // Achieved / peak, each at most 1. A side no kernel of the data was bound
  // by cannot be fitted: it stays at 1 and says so.
  double matmul_efficiency = 1, vector_efficiency = 1, bandwidth_efficiency = 1;
  double matmul_bandwidth_efficiency = 1;  // a GEMM's traffic (bandwidth_efficiency: every other kernel's)
  bool matmul_fitted = false, vector_fitted = false, bandwidth_fitted = false, matmul_bandwidth_fitted = false;
  // Fitted, but held at the peak: the data asked for more than it.
  bool matmul_at_peak = false, vector_at_peak = false, bandwidth_at_peak = false, matmul_bandwidth_at_peak = false;
  double fixed_s = 0;         // per kernel that is not a GEMM
  double matmul_fixed_s = 0;  // per GEMM
  bool matmul_fixed_fitted = false;  // some measured op ran a GEMM (else it stays 0)
  int samples = 0;     // measured times it was fitted to

  // A kernel's predicted time: its roofline on the peaks times the
  // efficiencies, plus the fixed cost; an op's, its kernels' together.
  double seconds(const KernelSides& k) const;
  double seconds(const TimedOp& op) const;
};

// The least-squares fit of the relative error, (predicted - measured) /
// measured, over `ops` with a measured time. Which side bounds each kernel
// depends on the fit: the fit alternates between choosing the sides and
// solving for the six numbers until the sides hold.
Calibration fit_calibration(const std::vector<TimedOp>& ops);

}  // namespace fl
