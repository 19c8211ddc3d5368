// A model of TorchInductor's default mode (torch.compile, mode="default"):
// which ops become which kernels, in what order. Two places combine ops
// (reference/INDUCTOR.md; PyTorch's graph.py, ir.py, scheduler.py):
//
// 1. Lowering inlines every pointwise op into the code of its readers unless
//    it is realized into a buffer: reductions always; inputs of extern calls
//    (cuBLAS mm / bmm, SDPA); graph outputs; a value read through a GQA
//    repeat, or by several readers, whose body loads more than 4 values.
//    A view an extern cannot read in place (the repeat, merging heads after a
//    transpose) becomes a copy kernel; a boolean mask SDPA reads, a bias kernel.
// 2. The scheduler fuses the realized nodes: a reader with its producer when
//    their loops match ((numel, rnumel): a pointwise node joins a reduction
//    whose input or output has its size; two reductions over the same rows),
//    two nodes that read the same buffer; never an extern; never a merge that
//    would make a kernel wait on itself.
// A row longer than 8192 with fewer rows than twice the GPU's SMs is reduced
// in two kernels (a split reduction), and a softmax over it in five.
// Under max-autotune a matmul may be a Triton template instead of a cuBLAS
// call: it then takes a pointwise epilogue that reads its output where it
// writes it, and nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "core/graph.h"

namespace fl::inductor {

enum class KernelKind {
  Pointwise,   // triton_poi_
  Looped,      // triton_red_: a reduction that loops over its row
  Persistent,  // triton_per_: the whole row in registers (rows of at most 1024)
  Mm,          // extern_kernels.mm (cuBLAS)
  Bmm,         // extern_kernels.bmm
  Sdpa,        // aten._scaled_dot_product_*_attention
  Template,    // triton_tem_: a matmul as a Triton template (max-autotune)
};
std::string_view kernel_kind_name(KernelKind k);  // "poi", "red", "per", "mm", "bmm", "sdpa", "tem"

// Why a value leaves the kernel that writes it for HBM: the reason Inductor's
// scheduler did not fuse its writer with its reader (scheduler.py can_fuse,
// whose refusals its fusion log names), or that the caller gets it.
enum class Refusal {
  Extern,          // "node is extern": nothing fuses into or out of a cuBLAS / SDPA call
  SplitReduction,  // a long row over few rows, reduced in two kernels: the partial sums go through HBM
  LoopsMismatch,   // the (numel, rnumel) of the two do not match
  MemoryDeps,      // "memory deps did not match": the reader needs values at other indices
  MaxFusionSize,   // the two together exceed max_fusion_size nodes
  NoSharedData,    // "no shared data" (below score_fusion_memory_threshold)
  WouldCycle,      // a path from one to the other passes a third kernel
  Output,          // the caller reads it
  TemplateFusion,  // a template takes only a pointwise epilogue of its output (no prologue, no other template)
};

// A value a kernel writes and one kernel that reads it (by launch position; -1: the caller).
struct End {
  NodeId tensor;  // the node it is a value of (a copy's view, a split reduction's node)
  int consumer;
  Refusal why;
  // The loops behind the reason: LoopsMismatch, the writer's (numel, rnumel)
  // then the reader's; SplitReduction, the row's length and the rows.
  std::array<int64_t, 4> sizes{};
};

struct Kernel {
  KernelKind kind;
  std::vector<End> ends;         // why each value it writes leaves it
  std::vector<NodeId> computes;  // the nodes whose code runs here, inlined producers included
  std::vector<NodeId> writes;    // the buffers it stores
  std::vector<NodeId> reads;     // the buffers and inputs it loads
  bool copy = false;             // a clone that lays a view out for an extern call
  // Nodes whose origins its name lists though its code does not compute
  // them: a copy's source that lowering realized to be read again by it
  // (mark_reuse as the repeat is lowered), a split reduction's first part
  // for the kernel that combines its partial results.
  std::vector<NodeId> also_named_after;
  // GEMVs (gpt-fast's setting) whose lowering stored a value here to re-read
  // it for every output: their ATen op (mm, bmm) joins the name.
  std::vector<NodeId> named_for;
  bool mask_bias = false;        // a boolean mask turned into SDPA's float bias (where(mask, 0, -inf))
  int64_t read_bytes = 0, write_bytes = 0;  // HBM traffic: each buffer once; written if another kernel or the caller reads it
  // Its loops, as its code names them (xnumel, r0_numel): the elements it
  // writes, and the length of the row each one reduces (1: pointwise). Zero for an extern.
  int64_t numel = 0, rnumel = 0;
};

// A matmul as max-autotune benchmarks it: `batch` products of (m × k) · (k × n).
struct Gemm {
  NodeId node;
  int64_t batch = 1, m = 0, n = 0, k = 0;
};

struct Options {
  int sms = 132;  // streaming multiprocessors (H100 SXM and H200: 132), for split reductions
  // gpt-fast's setting (coordinate_descent_tuning): a matmul with one row
  // (M = 1, a decode GEMV) is a multiply and a sum, a Triton reduction that
  // takes its pointwise neighbours in, instead of a cuBLAS call.
  bool gemv_as_reduction = false;
  // Scheduler nodes in one kernel at most (config.max_fusion_size); 1: the
  // scheduler fuses nothing, only lowering's inlining combines ops.
  size_t max_fusion_size = 64;
  // config.freezing: the weights are constants, and matmuls reading one input
  // with weights of one shape become one (inductor/freezing.h). Off in
  // torch.compile's default mode; on in the ablation's rows but no_freezing.
  bool freezing = false;
  // config.pattern_matcher: of its replacements this layer shows one, the
  // softmax's max and sum computed online in one pass (a kernel names it
  // prepare_softmax_online, with the exp and difference it reads). Off, the
  // softmax is lowered from aten._softmax and named only after it; the
  // kernels, their reads and writes are the same.
  bool pattern_matching = true;
  // max-autotune (select_algorithm.py): which matmuls become Triton templates,
  // where Inductor benchmarks each against cuBLAS. Empty: mode="default",
  // every matmul a cuBLAS call. A GEMV gpt-fast's setting turns into a
  // reduction is asked nothing.
  std::function<bool(const Gemm&)> use_template;
};

// How many parts Inductor reduces a row of `row` elements in, over `rows`
// rows, on a GPU of `sms` SMs, once it splits it (ir.py, inner_reduction_splits).
int64_t inner_split_parts(int64_t row, int64_t rows, int sms);

// `g`: a decomposed graph (after decompose, CSE, constant folding and
// simplification; no attention matching, no weight folding), its sizes bound
// by `bind`. The kernels of one call, in launch order.
std::vector<Kernel> schedule(const Graph& g, const Binding& bind, const Options& opt = {});

}  // namespace fl::inductor
