// Measuring, the last step of fuse(): each group in launch order as a kernel
// with its label, FLOPs, HBM bytes (each tensor once per kernel; values that
// stay inside it are free) and why each written tensor leaves it.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/fusion/grouping.h"

namespace fl::fusion {

// A node's name in a kernel's label ("square" for x * x).
std::string_view node_label(const Node& n);
// Adds what node `n` (of `out` elements) computes to k's FLOPs, on tensor cores or not.
void add_node_flops(const Graph& g, const Node& n, int64_t out, const Binding& bind, Kernel& k);

// HBM traffic of one tensor: the element count of `elements` (a value, or an
// embedding's gathered rows) in the dtype of `tensor`; none for a scalar.
struct Traffic {
  NodeId elements, tensor;
  bool operator==(const Traffic&) const = default;
};

// The kernels as the grouping and the launch order decide them, whatever the
// sizes: kind, nodes, label and why each written value leaves (Kernel's
// fields, sizes zero), and what each reads and writes, each tensor once.
// Per kernel its tensors, in one flat list (no list per kernel to allocate).
struct TrafficLists {
  std::vector<Traffic> list;
  std::vector<size_t> start{0};  // per kernel, and one past the last: where its tensors begin in `list`
  std::span<const Traffic> of(size_t kernel) const { return {list.data() + start[kernel], list.data() + start[kernel + 1]}; }
  bool operator==(const TrafficLists&) const = default;
};
struct KernelLayout {
  std::vector<Kernel> kernels;
  TrafficLists reads, writes;
  bool operator==(const KernelLayout&) const = default;
};
KernelLayout lay_out_kernels(const Graph& g, const Grouping& grouping, const std::vector<int>& order);

// The layout's kernels with their bytes and FLOPs under a binding: `numel`
// is every node's element count under `bind` (the grouping's own, or another
// binding's under which the grouping's guards hold).
std::vector<Kernel> measure_layout(const Graph& g, const KernelLayout& layout, const std::vector<int64_t>& numel,
                                   const Binding& bind);

// Both at once.
std::vector<Kernel> measure_kernels(const Graph& g, const Grouping& grouping, const std::vector<int>& order,
                                    const std::vector<int64_t>& numel, const Binding& bind);

}  // namespace fl::fusion
