// Cost: a roofline, not a measurement. A kernel takes the longer of its
// compute time and its memory time, plus a fixed launch cost. The model ranks
// partitions; it does not predict a measured time.
#pragma once

#include <vector>

#include "core/config.h"
#include "core/fusion.h"

namespace fl {

double compute_time(const Kernel& k, const Hardware& hw);
double memory_time(const Kernel& k, const Hardware& hw);
// max(compute, memory): the roofline time, without the launch cost.
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

// The matmul kernels' summed compute and memory times: compute > memory
// once they sit right of the ridge point, compute-bound.
struct MatmulTimes {
  double compute = 0;
  double memory = 0;
};
MatmulTimes matmul_times(const std::vector<Kernel>& kernels, const Hardware& hw);

}  // namespace fl
