// The machinery every pass shares: copy a graph node by node into a new one,
// remapping inputs, with the pass free to map an old node to any new node.
#pragma once

#include "core/graph.h"

namespace fl {

// What a pass returns: the new graph and how many rewrites it made.
struct PassResult {
  Graph graph;
  int rewrites = 0;
};

class Rebuilder {
 public:
  explicit Rebuilder(const Graph& src) : src_(src), map_(src.size(), -1) { out_.reserve(src.size() + src.size() / 4); }

  const Graph& src() const { return src_; }
  Graph& out() { return out_; }
  NodeId operator[](NodeId old) const { return map_[static_cast<size_t>(old)]; }
  void map(NodeId old, NodeId now) { map_[static_cast<size_t>(old)] = now; }

  // Starts the rewrite of old node `id`: the nodes emitted until the next
  // visit take its origin.
  void visit(NodeId id) { out_.set_origin(src_.node(id).origin); }
  // Copies old node `id` with its inputs remapped; returns the new id.
  NodeId copy(NodeId id);
  // Adds a node in the new graph, taking dtype from the first input.
  NodeId emit(Op op, NodeInputs inputs, Attrs attrs = {}, Shape shape = {});
  NodeId scalar(double v) { return out_.scalar(v); }

  // Remaps the outputs and drops every node they do not need.
  Graph finish();

 private:
  const Graph& src_;
  Graph out_;
  std::vector<NodeId> map_;
};

// Dead-code removal: keeps only nodes that the outputs depend on.
// Takes the graph by value: a caller done with it moves it in, and live nodes
// are moved rather than copied.
PassResult remove_dead(Graph g);

}  // namespace fl
