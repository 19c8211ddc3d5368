// Grouping, the first step of fuse(): every compute node joins the kernel
// (group) of one of its producers or opens a new one, by the merge rules.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/fusion.h"
#include "core/small_vector.h"

namespace fl::fusion {

// A loop extent the grouping compares: a node's element count, or its rows
// (the count over its last dimension); no node: zero.
struct Extent {
  NodeId node = -1;
  bool rows = false;
  bool operator==(const Extent&) const = default;
};

// One comparison of two extents that decided the grouping, and its outcome:
// under another binding, the same grouping holds while every guard does
// (Inductor's guards on dynamic shapes).
struct ExtentGuard {
  Extent a, b;
  bool equal;
  NodeId placing;  // the node whose placement made the comparison
  bool operator==(const ExtentGuard&) const = default;
};

struct Group {
  KernelKind kind;
  Extent space;  // the loop: matmul output, pointwise output, or a reduction's input
  Extent rows;   // rowwise: its rows
  SmallVector<NodeId, 4> nodes;  // in graph order; most kernels have a few
};

// Every node reading each storage node, directly or through views, in graph
// order: one flat list for the whole graph (no list per node to allocate).
struct Users {
  std::vector<size_t> start;  // per node, and one past the last: where its readers begin in `list`
  std::vector<NodeId> list;
  std::span<const NodeId> of(NodeId id) const {
    const size_t i = static_cast<size_t>(id);
    return {list.data() + start[i], list.data() + start[i + 1]};
  }
};

// Why a tensor crosses HBM into a consumer group's kernel.
struct CrossingReason {
  NodeId tensor;
  int group;
  Boundary why;
};

// The groups, and what ordering and measuring need to know of each node.
struct Grouping {
  std::vector<Group> groups;
  std::vector<int> group_of;      // per node: its group, or -1 (sources, views read through indexing)
  std::vector<NodeId> storage;    // per node: the node whose buffer holds its value (views resolved)
  std::vector<int64_t> numel;     // per node, under the binding
  Users users;
  std::vector<CrossingReason> why;  // sorted by (tensor, group), the first reason recorded for each
  std::vector<size_t> why_start;    // per node, and one past the last: where its reasons begin in `why`
  std::vector<ExtentGuard> guards;  // every extent comparison made, in order

  // Why `tensor` crosses into `group`; a crossing with no recorded reason is
  // a second producer kernel's (one anchor per kernel).
  Boundary why_crossing(NodeId tensor, int group) const;
};

Grouping group_nodes(const Graph& g, const FuseOptions& opt, const Binding& bind);

// Every node's element count under `bind`.
std::vector<int64_t> node_numels(const Graph& g, const Binding& bind);
int64_t extent_value(const Graph& g, const std::vector<int64_t>& numel, Extent e);
// Whether each of a grouping's comparisons comes out the same with these counts.
bool guards_hold(const Graph& g, std::span<const ExtentGuard> guards, const std::vector<int64_t>& numel);

}  // namespace fl::fusion
