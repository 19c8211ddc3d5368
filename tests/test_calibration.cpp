// The calibrated cost model's fit: it finds the efficiencies and the fixed
// cost that made a set of times, whichever side bounds each kernel, holds
// them within their bounds, and says which it could not fit.
#include <catch2/catch.hpp>

#include "core/measured/calibration.h"

using namespace fl;

namespace {

// Ops of one to three kernels over a range of sizes: GEMM-like (tensor-core
// FLOPs, bound by them when large), norm-like (bytes) and mixed, timed by
// `truth`.
std::vector<TimedOp> ops_timed_by(const Calibration& truth) {
  std::vector<TimedOp> ops;
  for (double size = 1e-7; size < 1e-2; size *= 3) {
    TimedOp gemm{{{size, 0, size * 0.02}}, 0};
    TimedOp small_gemm{{{size * 0.01, 0, size}}, 0};
    TimedOp norm{{{0, size * 0.001, size}, {0, size * 0.002, size * 0.5}}, 0};  // two kernels
    TimedOp adds{{{0, 0, size}}, 0};
    for (TimedOp* op : {&gemm, &small_gemm, &norm, &adds}) {
      op->measured_s = truth.seconds(*op);
      ops.push_back(*op);
    }
  }
  return ops;
}

}  // namespace

TEST_CASE("the fit recovers the efficiencies and the fixed costs that made the times") {
  Calibration truth;
  truth.matmul_efficiency = 0.7;
  truth.matmul_bandwidth_efficiency = 0.85;
  truth.bandwidth_efficiency = 0.6;
  truth.fixed_s = 4e-6;
  truth.matmul_fixed_s = 9e-6;
  const Calibration fit = fit_calibration(ops_timed_by(truth));
  CHECK(fit.matmul_efficiency == Approx(0.7).epsilon(1e-6));
  CHECK(fit.matmul_bandwidth_efficiency == Approx(0.85).epsilon(1e-6));
  CHECK(fit.bandwidth_efficiency == Approx(0.6).epsilon(1e-6));
  CHECK(fit.fixed_s == Approx(4e-6).epsilon(1e-6));
  CHECK(fit.matmul_fixed_s == Approx(9e-6).epsilon(1e-6));
  CHECK(fit.matmul_fixed_fitted);
  CHECK(fit.matmul_fitted);
  CHECK(fit.matmul_bandwidth_fitted);
  CHECK(fit.bandwidth_fitted);
  CHECK_FALSE(fit.matmul_at_peak);
  // No kernel here is bound by its vector FLOPs: that efficiency is not fitted and stays 1.
  CHECK_FALSE(fit.vector_fitted);
  CHECK(fit.vector_efficiency == 1);
  CHECK(fit.samples == static_cast<int>(ops_timed_by(truth).size()));
}

TEST_CASE("the fitted model predicts the times it was fitted to") {
  Calibration truth;
  truth.matmul_efficiency = 0.55;
  truth.bandwidth_efficiency = 0.9;
  truth.fixed_s = 2e-6;
  const std::vector<TimedOp> ops = ops_timed_by(truth);
  const Calibration fit = fit_calibration(ops);
  for (const TimedOp& op : ops) CHECK(fit.seconds(op) == Approx(op.measured_s).epsilon(1e-6));
}

TEST_CASE("times faster than the peaks allow are held at the peaks, and no fixed cost goes negative") {
  // Measured at half the roofline time: the efficiencies would be 2; held at 1.
  Calibration roofline;
  std::vector<TimedOp> ops = ops_timed_by(roofline);
  for (TimedOp& op : ops) op.measured_s *= 0.5;
  const Calibration fit = fit_calibration(ops);
  CHECK(fit.matmul_efficiency <= 1);
  CHECK(fit.bandwidth_efficiency <= 1);
  CHECK(fit.fixed_s >= 0);
  CHECK(fit.matmul_fixed_s >= 0);
}

TEST_CASE("a kernel's calibrated time: the slower side at the scaled peaks, a GEMM's traffic at its own efficiency, plus its fixed cost") {
  Calibration c;
  c.matmul_efficiency = 0.5;
  c.vector_efficiency = 0.25;
  c.matmul_bandwidth_efficiency = 0.8;
  c.bandwidth_efficiency = 0.4;
  c.fixed_s = 3e-6;
  c.matmul_fixed_s = 7e-6;
  CHECK(c.seconds(KernelSides{1e-6, 0, 2e-6}) == Approx(2.5e-6 + 7e-6));   // a GEMM bound by its traffic, a GEMM's fixed cost
  CHECK(c.seconds(KernelSides{4e-6, 0, 2e-6}) == Approx(8e-6 + 7e-6));     // bound by its tensor cores
  CHECK(c.seconds(KernelSides{0, 1e-7, 2e-6}) == Approx(5e-6 + 3e-6));     // a norm: other kernels' bandwidth and fixed cost
  Kernel k;
  k.matmul_flops = kH100.matmul_flops;  // one second of tensor-core work
  k.reads = static_cast<int64_t>(kH100.bandwidth);
  const KernelSides sides = kernel_sides(k, kH100);
  CHECK(sides.matmul_s == Approx(1));
  CHECK(sides.memory_s == Approx(1));
  CHECK(sides.gemm());
}
