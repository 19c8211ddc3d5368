#include "core/passes/rebuild.h"

#include <algorithm>

namespace fl {

NodeId Rebuilder::copy(NodeId id) {
  Node n = src_.node(id);
  for (NodeId& i : n.inputs) i = (*this)[i];
  NodeId now = out_.append(std::move(n));
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
  std::vector<char> live = live_nodes(out_);
  if (std::find(live.begin(), live.end(), 0) == live.end()) return std::move(out_);
  return remove_dead(std::move(out_)).graph;
}

PassResult remove_dead(Graph g) {
  std::vector<char> live = live_nodes(g);
  PassResult r;
  r.graph.reserve(g.size());
  std::vector<NodeId> map(g.size(), -1);
  for (size_t i = 0; i < g.size(); ++i) {
    if (!live[i]) {
      ++r.rewrites;
      continue;
    }
    Node n = std::move(g.mutable_node(static_cast<NodeId>(i)));
    for (NodeId& in : n.inputs) in = map[static_cast<size_t>(in)];
    map[i] = r.graph.append(std::move(n));
  }
  std::vector<NodeId> outs;
  for (NodeId o : g.outputs()) outs.push_back(map[static_cast<size_t>(o)]);
  r.graph.set_outputs(std::move(outs));
  return r;
}

}  // namespace fl
