#include "core/passes/rebuild.h"

namespace fl {

NodeId Rebuilder::copy(NodeId id) {
  const Node& n = src_.node(id);
  std::vector<NodeId> ins;
  ins.reserve(n.inputs.size());
  for (NodeId i : n.inputs) ins.push_back((*this)[i]);
  NodeId now = out_.add(n.op, std::move(ins), n.attrs, n.shape, n.dtype);
  if (n.value) out_.set_value(now, n.value);
  map(id, now);
  return now;
}

NodeId Rebuilder::emit(Op op, std::vector<NodeId> inputs, Attrs attrs, Shape shape) {
  return out_.add(op, std::move(inputs), std::move(attrs), std::move(shape));
}

Graph Rebuilder::finish() {
  std::vector<NodeId> outs;
  for (NodeId o : src_.outputs()) outs.push_back((*this)[o]);
  out_.set_outputs(std::move(outs));
  return remove_dead(out_).graph;
}

PassResult remove_dead(const Graph& g) {
  std::vector<char> live(g.size(), 0);
  for (NodeId o : g.outputs()) live[static_cast<size_t>(o)] = 1;
  for (size_t i = g.size(); i-- > 0;)
    if (live[i])
      for (NodeId in : g.nodes()[i].inputs) live[static_cast<size_t>(in)] = 1;

  PassResult r;
  std::vector<NodeId> map(g.size(), -1);
  for (size_t i = 0; i < g.size(); ++i) {
    if (!live[i]) {
      ++r.rewrites;
      continue;
    }
    const Node& n = g.nodes()[i];
    std::vector<NodeId> ins;
    for (NodeId in : n.inputs) ins.push_back(map[static_cast<size_t>(in)]);
    map[i] = r.graph.add(n.op, std::move(ins), n.attrs, n.shape, n.dtype);
    if (n.value) r.graph.set_value(map[i], n.value);
  }
  std::vector<NodeId> outs;
  for (NodeId o : g.outputs()) outs.push_back(map[static_cast<size_t>(o)]);
  r.graph.set_outputs(std::move(outs));
  return r;
}

}  // namespace fl
