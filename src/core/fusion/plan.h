// A fusion decided once and reused under other bindings of its graph's
// symbols: the groups, their launch order, and the guards (the extent
// comparisons that decided them). Costing a new T or S then only measures.
#pragma once

#include <vector>

#include "core/fusion/grouping.h"
#include "core/fusion/measuring.h"

namespace fl {

struct FusionPlan {
  FuseOptions options;
  std::vector<fusion::ExtentGuard> guards;  // the grouping's comparisons: it holds while they come out the same
  fusion::KernelLayout layout;  // the kernels as the groups and their order make them, sizes aside
  NumelTable numels;  // every node's element count, compiled for costing under other bindings
  bool operator==(const FusionPlan&) const = default;
};

FusionPlan plan_fusion(const Graph& g, const FuseOptions& opt, const Binding& bind);

// fuse(g, plan.options, bind): the plan's groups measured under `bind` when
// every guard holds there, else a fusion decided anew (say T = 1 makes two
// loops the same size that were not).
std::vector<Kernel> fuse_planned(const Graph& g, const FusionPlan& plan, const Binding& bind);

}  // namespace fl
