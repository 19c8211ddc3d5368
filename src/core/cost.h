// Cost: a roofline, not a measurement. A kernel takes the longer of its
// compute time and its memory time, plus a fixed launch cost. The model ranks
// partitions; it does not predict a measured time.
#pragma once

#include <string_view>
#include <vector>

#include "core/config.h"
#include "core/fusion.h"

namespace fl {

// How a kernel's time is costed: the roofline at the GPU's peaks (the
// lecture's), or calibrated: at the fractions of the peaks measured kernels
// reach, plus their fixed time (core/measured/cost_model.h).
enum class CostModel : unsigned char { Roofline, Calibrated };
inline constexpr CostModel kCostModels[] = {CostModel::Roofline, CostModel::Calibrated};
std::string_view cost_model_key(CostModel m);  // "roofline", "calibrated"
// The model `hw` costs by: calibrated where it reaches less than its peaks or adds a fixed time.
inline CostModel cost_model_of(const Hardware& hw) {
  return hw.achieved == Achieved{} ? CostModel::Roofline : CostModel::Calibrated;
}

// At the peaks the cost model reaches (hw.achieved).
double compute_time(const Kernel& k, const Hardware& hw);
double memory_time(const Kernel& k, const Hardware& hw);
// The model's fixed time of the kernel on the GPU (a GEMM's or another kernel's).
double fixed_time(const Kernel& k, const Hardware& hw);
// max(compute, memory) plus that fixed time: the kernel's time, without the
// launch cost.
double kernel_time(const Kernel& k, const Hardware& hw = kH100);

struct GraphCost {
  int kernels = 0;
  int64_t bytes = 0;
  double flops = 0;
  double t = 0;        // summed roofline time, seconds
  double overhead = 0; // kernels × launch
  double t_total = 0;  // t + overhead
};

GraphCost graph_cost(const std::vector<Kernel>& kernels, const Hardware& hw = kH100);

// FLOPs per byte where a matmul's compute time equals its memory time, at the
// peaks the cost model reaches.
double matmul_ridge(const Hardware& hw);

// The matmul kernels' summed compute and memory times: compute > memory
// once they sit right of the ridge point, compute-bound.
struct MatmulTimes {
  double compute = 0;
  double memory = 0;
};
MatmulTimes matmul_times(const std::vector<Kernel>& kernels, const Hardware& hw);

}  // namespace fl
