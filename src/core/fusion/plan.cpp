#include "core/fusion/plan.h"

#include "core/fusion/measuring.h"
#include "core/fusion/ordering.h"

namespace fl {

FusionPlan plan_fusion(const Graph& g, const FuseOptions& opt, const Binding& bind) {
  fusion::Grouping grouping = fusion::group_nodes(g, opt, bind);
  FusionPlan plan{opt, {}, fusion::lay_out_kernels(g, grouping, fusion::launch_order(g, grouping)), {}};
  plan.guards = std::move(grouping.guards);
  // Neighbouring nodes mostly share a shape (a chain of elementwise ops):
  // its element count is multiplied out once.
  const Shape* last_shape = nullptr;
  Dim last_numel;
  for (const Node& n : g.nodes()) {
    if (!last_shape || !(n.shape == *last_shape)) last_numel = numel(n.shape);
    last_shape = &n.shape;
    plan.numels.add(last_numel);
  }
  return plan;
}

std::vector<Kernel> fuse_planned(const Graph& g, const FusionPlan& plan, const Binding& bind) {
  const std::vector<int64_t> numel = plan.numels.eval(bind);
  if (!fusion::guards_hold(g, plan.guards, numel)) return fuse(g, plan.options, bind);
  return fusion::measure_layout(g, plan.layout, numel, bind);
}

}  // namespace fl
