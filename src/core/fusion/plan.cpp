#include "core/fusion/plan.h"

#include "core/fusion/measuring.h"
#include "core/fusion/ordering.h"

namespace fl {

FusionPlan plan_fusion(const Graph& g, const FuseOptions& opt, const Binding& bind) {
  fusion::Grouping grouping = fusion::group_nodes(g, opt, bind);
  FusionPlan plan{opt, {}, fusion::lay_out_kernels(g, grouping, fusion::launch_order(g, grouping)), {}};
  plan.guards = std::move(grouping.guards);
  for (const Node& n : g.nodes()) plan.numels.add(n.shape);
  return plan;
}

std::vector<Kernel> fuse_planned(const Graph& g, const FusionPlan& plan, const Binding& bind) {
  const std::vector<int64_t> numel = plan.numels.eval(bind);
  if (!fusion::guards_hold(g, plan.guards, numel)) return fuse(g, plan.options, bind);
  return fusion::measure_layout(g, plan.layout, numel, bind);
}

}  // namespace fl
