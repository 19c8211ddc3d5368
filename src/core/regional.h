// Regional compilation, as torch.compile does for a model's repeated blocks:
// a model of N identical decoder layers is compiled from what the passes make
// of the same model with two and three layers, not by running them over all
// N layers. The whole model's graph still holds every layer, node by node.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/graph.h"

namespace fl {

// How a compiled model of two layers repeats into a longer one: [0, last -
// block) is the prologue and the first layer, [last - block, last) the
// second layer, [last, end) the epilogue. Per node of the second layer and of
// the epilogue, a bit per operand that moves along with the layers (its own
// nodes, the layer before); the others stay (the prologue's, constants shared
// by every layer).
struct Repeat {
  NodeId last = 0;
  NodeId block = 0;
  std::vector<uint8_t> layer_moves, epilogue_moves;
};

// A model's repeated layer as the passes compiled it, from which the graph
// of the model with any number of layers is stamped.
class LayerRepeat {
 public:
  // Read from what the passes made of the model with two and three layers;
  // nullopt when `three` is not exactly `two` with one more layer: then the
  // passes must see the whole model.
  static std::optional<LayerRepeat> read(const Graph& two, const Graph& three);

  // The graph of `layers` layers (at least two): the prologue and the first
  // layer as in `two`, its second layer repeated for each further layer
  // (operands moved along, parameter names renumbered: l1.wq, l2.wq, ...),
  // then its epilogue.
  Graph graph(int64_t layers) const;
  // In the graph of any number of layers: where layer `layer` (counted from
  // 1, at least 2) begins, and how many nodes each layer after the first has.
  NodeId layer_begin(int64_t layer) const { return repeat_.last - repeat_.block + static_cast<NodeId>(layer - 2) * repeat_.block; }
  NodeId block() const { return repeat_.block; }

 private:
  LayerRepeat(Graph two, Repeat r) : two_(std::move(two)), repeat_(std::move(r)) {}
  Graph two_;
  Repeat repeat_;
};

}  // namespace fl
