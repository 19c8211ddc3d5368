// Regional compilation, as torch.compile does for a model's repeated blocks:
// a model of N identical decoder layers is compiled from what the passes make
// of the same model with two and three layers, not by running them over all
// N layers. The whole model's graph still holds every layer, node by node.
#pragma once

#include <cstdint>
#include <optional>

#include "core/graph.h"

namespace fl {

// The graph that a pipeline of passes makes of the model with `layers` layers
// (at least two), given what it made of the same model with two and three:
// the prologue and the first layer as in `two`, its second layer repeated for
// each further layer (operands moved along, parameter names renumbered:
// l1.wq, l2.wq, ...), then its epilogue. nullopt when `three` is not exactly
// `two` with one more such layer: then the passes must see the whole model.
std::optional<Graph> repeat_layers(const Graph& two, const Graph& three, int64_t layers);

}  // namespace fl
