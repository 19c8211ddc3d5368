// Grouping, the first step of fuse(): every compute node joins the kernel
// (group) of one of its producers or opens a new one, by the merge rules.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "core/fusion.h"

namespace fl::fusion {

struct Group {
  KernelKind kind;
  int64_t space = 0;  // numel of the loop: matmul output, pointwise output, or a reduction's input
  int64_t rows = 0;   // rowwise: number of rows
  std::vector<NodeId> nodes;  // in graph order
};

// The groups, and what ordering and measuring need to know of each node.
struct Grouping {
  std::vector<Group> groups;
  std::vector<int> group_of;      // per node: its group, or -1 (sources, views read through indexing)
  std::vector<NodeId> storage;    // per node: the node whose buffer holds its value (views resolved)
  std::vector<int64_t> numel;     // per node, under the binding
  std::vector<std::vector<NodeId>> users;  // per storage node: every node reading it, directly or through views
  std::map<std::pair<NodeId, int>, Boundary> why;  // (tensor, consumer group) -> why it crosses HBM
};

Grouping group_nodes(const Graph& g, const FuseOptions& opt, const Binding& bind);

}  // namespace fl::fusion
