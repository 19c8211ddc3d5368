#include "core/cost.h"

#include <algorithm>

namespace fl {

std::string_view cost_model_key(CostModel m) { return m == CostModel::Roofline ? "roofline" : "calibrated"; }

double compute_time(const Kernel& k, const Hardware& hw) {
  const Achieved& a = hw.achieved;
  return k.matmul_flops / (hw.matmul_flops * a.matmul) + k.other_flops / (hw.other_flops * a.vector);
}

double memory_time(const Kernel& k, const Hardware& hw) {
  const Achieved& a = hw.achieved;
  return static_cast<double>(k.bytes()) / (hw.bandwidth * (k.matmul_flops > 0 ? a.matmul_bandwidth : a.bandwidth));
}

double fixed_time(const Kernel& k, const Hardware& hw) {
  return k.matmul_flops > 0 ? hw.achieved.matmul_kernel_s : hw.achieved.kernel_s;
}

double kernel_time(const Kernel& k, const Hardware& hw) {
  return std::max(compute_time(k, hw), memory_time(k, hw)) + fixed_time(k, hw);
}

GraphCost graph_cost(const std::vector<Kernel>& kernels, const Hardware& hw) {
  GraphCost c;
  c.kernels = static_cast<int>(kernels.size());
  for (const Kernel& k : kernels) {
    c.bytes += k.bytes();
    c.flops += k.flops();
    c.t += kernel_time(k, hw);
  }
  c.overhead = c.kernels * hw.launch;
  c.t_total = c.t + c.overhead;
  return c;
}

double matmul_ridge(const Hardware& hw) {
  return hw.matmul_flops * hw.achieved.matmul / (hw.bandwidth * hw.achieved.matmul_bandwidth);
}

MatmulTimes matmul_times(const std::vector<Kernel>& kernels, const Hardware& hw) {
  MatmulTimes m;
  for (const Kernel& k : kernels)
    if (k.kind == KernelKind::MatMul) {
      m.compute += compute_time(k, hw);
      m.memory += memory_time(k, hw);
    }
  return m;
}

}  // namespace fl
