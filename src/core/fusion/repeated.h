// Fusion of a model's repeated layers, planned once, as regional compilation
// compiles a repeated block once: the plan of a model of N identical layers
// is stamped from the plans of the same model with three and four layers.
#pragma once

#include <optional>

#include "core/fusion/plan.h"
#include "core/regional.h"

namespace fl {

// plan_fusion(repeat.graph(layers), opt, bind), made from the plans of three
// and four layers when the plan of four is the plan of three with its middle
// layer stamped in once more, kernels, traffic, guards and element counts
// alike. nullopt when it is not (or for fewer than four layers): then the
// caller plans the whole graph.
std::optional<FusionPlan> plan_repeated_fusion(const LayerRepeat& repeat, int64_t layers, const FuseOptions& opt,
                                               const Binding& bind);

}  // namespace fl
