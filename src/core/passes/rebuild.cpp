#include "core/passes/rebuild.h"

#include <algorithm>

namespace fl {

NodeId Rebuilder::copy(NodeId id) {
  NodeId now = out_.append_copy(src_.node(id), [this](NodeId old) { return (*this)[old]; });
  map(id, now);
  return now;
}

NodeId Rebuilder::emit(Op op, NodeInputs inputs, Attrs attrs, Shape shape) {
  return out_.add(op, std::move(inputs), std::move(attrs), std::move(shape));
}

namespace {
std::vector<char> live_nodes(const Graph& g) {
  std::vector<char> live(g.size(), 0);
  for (NodeId o : g.outputs()) live[static_cast<size_t>(o)] = 1;
  for (size_t i = g.size(); i-- > 0;)
    if (live[i])
      for (NodeId in : g.nodes()[i].inputs) live[static_cast<size_t>(in)] = 1;
  return live;
}
}  // namespace

Graph Rebuilder::finish() {
  std::vector<NodeId> outs;
  for (NodeId o : src_.outputs()) outs.push_back((*this)[o]);
  out_.set_outputs(std::move(outs));
  const std::vector<char> live = live_nodes(out_);
  if (std::find(live.begin(), live.end(), 0) != live.end()) out_.keep_only(live);
  return std::move(out_);
}

PassResult remove_dead(Graph g) {
  const std::vector<char> live = live_nodes(g);
  const int removed = static_cast<int>(g.keep_only(live));
  return {std::move(g), removed};
}

}  // namespace fl
