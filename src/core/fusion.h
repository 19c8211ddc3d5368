// Fusion: a simplified TorchInductor scheduler that partitions a graph into
// GPU kernels and counts what each kernel moves through HBM.
#pragma once

#include <array>

#include <string>
#include <string_view>
#include <vector>

#include "core/graph.h"
#include "core/i18n.h"

namespace fl {

enum class KernelKind { Pointwise, Rowwise, MatMul, Attention, KVWrite, Embedding };
inline constexpr KernelKind kKernelKinds[] = {KernelKind::Pointwise, KernelKind::Rowwise,  KernelKind::MatMul,
                                              KernelKind::Attention, KernelKind::KVWrite, KernelKind::Embedding};
std::string_view kernel_kind_name(KernelKind k);

// Why a tensor leaves a kernel through HBM instead of staying on chip.
enum class Boundary {
  FusionOff,           // fusion disabled: every op is its own kernel
  MatmulNoPrologue,    // a matmul reads its operands from HBM (no prologue fusion)
  ReductionAfterMatmul,// a row reduction cannot be a matmul epilogue: a row spans many output tiles
  OpaqueKernel,        // attention and kv_write are handwritten kernels that take no fusion
  IterationSpace,      // the consumer loops over a different index space
  OneAnchorPerKernel,  // the consumer joined another producer's kernel; one matmul or reduction per kernel
  WouldCycle,          // merging would make two kernels wait on each other
  GraphOutput,         // the layer's result must reach HBM
  SwitchedOff,         // the rules allow this merge, but the ablation turned it off
  // The Inductor model's (core/inductor/scheduler.h, Refusal), in its words:
  InductorExtern,          // a cuBLAS or SDPA call takes no fusion
  InductorSplitReduction,  // a long row reduced in two kernels
  InductorLoops,           // (numel, rnumel) mismatch
  InductorMemoryDeps,      // the reader needs values at other indices
  InductorMaxFusionSize,   // more nodes than max_fusion_size
  InductorNoSharedData,    // too little shared data to fuse for
  InductorTemplateFusion,  // a matmul template takes only a pointwise epilogue of its output
};
inline constexpr Boundary kBoundaries[] = {
    Boundary::FusionOff,         Boundary::MatmulNoPrologue,       Boundary::ReductionAfterMatmul, Boundary::OpaqueKernel,
    Boundary::IterationSpace,    Boundary::OneAnchorPerKernel,     Boundary::WouldCycle,           Boundary::GraphOutput,
    Boundary::SwitchedOff,       Boundary::InductorExtern,         Boundary::InductorSplitReduction, Boundary::InductorLoops,
    Boundary::InductorMemoryDeps, Boundary::InductorMaxFusionSize, Boundary::InductorNoSharedData,
    Boundary::InductorTemplateFusion};
std::string_view boundary_name(Boundary b);  // "fusion_off", ...: stable, for JSON
Text boundary_text(Boundary b);               // why the value crosses HBM, as the page and the CLI say it

struct KernelEdge {
  NodeId tensor;   // the node whose value is written
  int consumer;    // kernel index that reads it, or -1 for a graph output
  Boundary why;
  // The Inductor model's loop sizes behind its reason (InductorLoops: the
  // writer's numel and rnumel, then the reader's; InductorSplitReduction: the
  // row's length and the rows); zero elsewhere.
  std::array<int64_t, 4> sizes{};
  bool operator==(const KernelEdge&) const = default;
};

struct Kernel {
  KernelKind kind;
  std::string label;          // the ops it runs, in order
  std::string name;           // as a real compiler names it (the Inductor model's kernels); else empty
  std::vector<NodeId> nodes;  // topological order
  int64_t reads = 0;          // HBM bytes, each tensor counted once per kernel
  int64_t writes = 0;
  double matmul_flops = 0;    // FLOPs on tensor cores
  double other_flops = 0;     // FLOPs on the vector units
  std::vector<KernelEdge> ends;  // why each written tensor could not stay on chip
  double flops() const { return matmul_flops + other_flops; }
  int64_t bytes() const { return reads + writes; }
  bool operator==(const Kernel&) const = default;
};

// The switches an ablation turns off, one at a time.
struct FuseOptions {
  bool enable = true;            // false: every op is its own kernel
  bool fusion = true;            // reduction epilogues, reductions sharing rows, matmul epilogues
  bool inlining = true;          // pointwise producers computed in their consumer; views as indexing
                                 // (off: every view is a copy kernel)
  bool matmul_epilogues = true;  // pointwise consumers of a matmul in its kernel
  bool operator==(const FuseOptions&) const = default;
};

// Partitions `g` into kernels in an executable order. Shapes are evaluated
// under `bind`; an unbound symbol throws UnboundSymbol.
std::vector<Kernel> fuse(const Graph& g, const FuseOptions& opt = {}, const Binding& bind = {});

}  // namespace fl
