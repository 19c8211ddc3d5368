// The analysis as typed reports: what the demos compute, the CLI prints and
// the page draws. JSON is written from them in one place (report_json.h),
// for `fusionlab --json` and the page's JS API only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/partitions.h"

namespace fl {

// A sentence about the results, chosen by conditions computed from them.
struct Observation {
  std::string id;    // names the claim, stable: "decode_traffic_weights", "decode_traffic_kv_cache", ...
  std::string text;  // says it with the numbers, in the configuration's language
};

struct KernelEndReport {
  NodeId tensor;
  int consumer;  // the kernel that reads it, or -1: the graph's output
  Boundary why;
  std::string text;  // "%12 mul → kernel 5: the consumer ...", localized
};

struct KernelReport {
  size_t index = 0;
  KernelKind kind = KernelKind::Pointwise;
  std::string label;
  size_t nodes = 0;
  int64_t reads = 0, writes = 0;  // HBM bytes
  double flops = 0;
  double t = 0, t_compute = 0, t_memory = 0;  // seconds: the roofline and its two sides
  // In detail only (demo 1's kernels): the nodes it runs, why each value it writes leaves it,
  // and its Triton-like pseudo-code.
  bool detail = false;
  std::vector<std::string> node_list;
  std::vector<KernelEndReport> ends;
  std::string code;
};

struct PartitionReport {
  PartitionId id = PartitionId::Eager;
  std::string name;  // localized
  GraphCost cost;
  double overhead_share = 0;  // fixed launch cost / total
  double speedup = 0;         // eager's total / this total
  double tokens_per_s = 0;    // tokens processed per second by the whole model
  std::vector<KernelReport> kernels;
};

// The whole model's weights and KV cache against the GPU's memory.
struct MemoryReport {
  int64_t weights = 0, kv_cache = 0, total = 0;
  double capacity = 0;
  bool fits = true;
  int gpus = 1;      // GPUs of this memory it would take
  std::string text;  // localized sentence
};

// Demos 2 and 3: the four partitions of the prefill or the decode.
struct PhaseReport {
  int demo = 2;  // 2: prefill, 3: decode
  std::string title;
  AnalysisConfig config;
  std::vector<PartitionReport> partitions;  // eager, decomposed, fused, fused_flash
  std::vector<KernelReport> slowest;        // prefill: the fused partition's four slowest kernels
  int64_t score_bytes = 0;                  // prefill: one layer's attention scores
  int64_t weight_bytes = 0, kv_cache_bytes = 0;  // decode: of the traced graph
  MemoryReport memory;
  std::vector<Observation> observations;
  bool decode() const { return demo == 3; }
};

PhaseReport prefill_report(const AnalysisConfig& c);  // demo 2; c must be valid
PhaseReport decode_report(const AnalysisConfig& c);   // demo 3; c must be valid

}  // namespace fl
