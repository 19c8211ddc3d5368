#include "core/cost.h"

#include <algorithm>

namespace fl {

double compute_time(const Kernel& k, const Hardware& hw) {
  return k.matmul_flops / hw.matmul_flops + k.other_flops / hw.other_flops;
}

double memory_time(const Kernel& k, const Hardware& hw) { return static_cast<double>(k.bytes()) / hw.bandwidth; }

double kernel_time(const Kernel& k, const Hardware& hw) { return std::max(compute_time(k, hw), memory_time(k, hw)); }

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
