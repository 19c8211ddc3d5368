// The analysis as typed reports: what the demos compute, the CLI prints and
// the page draws. JSON is written from them in one place (report_json.h),
// for `fusionlab --json` and the page's JS API only.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/partitions.h"
#include "core/pipeline.h"

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
  std::string words;  // the reason alone, with the sizes behind it where the model has them
};

struct KernelReport {
  size_t index = 0;
  KernelKind kind = KernelKind::Pointwise;
  std::string label;
  std::string name;  // as a real compiler names it (the Inductor model's kernels); else empty
  size_t nodes = 0;
  int64_t reads = 0, writes = 0;  // HBM bytes
  double flops = 0;
  double t = 0, t_compute = 0, t_memory = 0;  // seconds: the roofline and its two sides
  // In detail only (demo 1's kernels): the nodes it runs, why each value it writes leaves it
  // (a real compiler's kernels: always), and its Triton-like pseudo-code.
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
  std::vector<KernelReport> slowest;        // prefill: the slowest kernels of partition slowest_of
  static constexpr PartitionId slowest_of = PartitionId::Fused;
  int64_t score_bytes = 0;                  // prefill: one layer's attention scores
  int64_t weight_bytes = 0, kv_cache_bytes = 0;  // decode: of the traced graph
  MemoryReport memory;
  std::vector<Observation> observations;
  bool decode() const { return demo == 3; }
  const PartitionReport& partition(PartitionId id) const {
    for (const PartitionReport& p : partitions)
      if (p.id == id) return p;
    throw std::out_of_range("no such partition in the report");
  }
};

// Demo 1: one node of a pipeline stage's graph.
enum class NodeChange { None, Added, Rewritten };  // by the pass that made this stage
std::string_view node_change_name(NodeChange c);   // "", "added", "rewritten"

struct GraphNodeReport {
  NodeId id = 0;
  Op op = Op::Input;
  std::string text;  // "%3 mul(%1, %2) : (16, 128)"
  std::vector<NodeId> inputs;
  NodeChange change = NodeChange::None;
  int kernel = -1;    // last stage only: the fused kernel that runs it
  int64_t bytes = 0;  // the tensor's size in HBM: its elements × its dtype
  bool view() const { return op_kind(op) == OpKind::View; }
  bool source() const { return op_kind(op) == OpKind::Source; }
};

// Demo 1: the graph after one stage of the pipeline, and what its pass did.
struct StageReport {
  Stage stage = Stage::Traced;
  int rewrites = 0;
  size_t added = 0, rewritten = 0;
  std::vector<std::string> removed;  // the removed nodes, as text
  std::vector<GraphNodeReport> nodes;
};

struct KernelCount {
  int kernels = 0;
  int64_t bytes = 0;
};

// Demo 1: one layer's fused, FlashAttention partition kernel by kernel, and
// the pipeline that led to it.
struct KernelsReport {
  std::string title;
  AnalysisConfig config;
  std::vector<KernelReport> kernels;  // in detail: nodes, ends, code
  std::vector<StageReport> stages;    // traced .. fold_norm_weight
  KernelCount unfused, fused;
  std::string summary;  // unfused against fused: kernels and bytes
  std::vector<Observation> observations;
};

// Demo 4: a row of the PyTorch 2 paper's ablation (published figures).
struct PaperAblationRow {
  std::string id, setting;             // stable id, localized label
  double inference = 0, training = 0;  // geometric-mean speed-up over eager
};

// A row of Table 4 measured for one phase (core/measured/h200_ablation.h).
struct MeasuredAblationCell {
  double speedup = 0;  // over eager
  int launches = 0;
  double compiled_ms = 0, eager_ms = 0;
};

// Our compiler with one switch off: speed-up over eager, kernels and bytes, per phase.
struct OurAblationRow {
  std::string id, setting;
  std::string not_modelled;  // why the model cannot compute the row; empty for a computed one
  double prefill = 0, decode = 0;
  int prefill_kernels = 0, decode_kernels = 0;
  int64_t prefill_bytes = 0, decode_bytes = 0;
  // Under the Inductor model, where the configuration is the one measured: the
  // same row measured on the H200, and how ours differs (eager's time and the
  // compiled call's, each against the measured).
  std::optional<MeasuredAblationCell> measured_prefill, measured_decode;
  std::string versus_measured;
};

struct OurAblationReport {
  std::string title;
  std::vector<std::string> columns;
  std::vector<OurAblationRow> rows;  // the first: everything on
  CostModel cost = CostModel::Roofline;  // the model that costed the rows
  // Under the Inductor model: where the measured rows come from (or that this
  // configuration has none), and per measured phase what bounded measured eager.
  std::string measured_source;
  std::vector<std::string> measured_notes;
};

// Demo 4: the paper's Table 4, ours for the current model beside it.
struct AblationReport {
  std::string title, source;
  std::vector<std::string> columns;
  std::vector<PaperAblationRow> rows;
  OurAblationReport ours;
  // One layer: torch.compile's rows under the Inductor model, beside the same
  // rows measured on an H200 where the layer is the one measured. None for a whole model.
  std::optional<OurAblationReport> torch_compile;
  std::vector<Observation> observations;
};

// An ablation as a table of text, for the CLI, the page, its screen-reader
// table and CSV: the setting, ours in prefill and decode ("—" where not
// modelled) and, where any row was measured, the measured speed-ups (launches).
struct AblationTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};
AblationTable ablation_table(const OurAblationReport& r, Lang lang);

// demo 1; c must be valid. `with_stages`: the pipeline stage by stage too
// (only the pass timeline shows them, and they are most of the work).
KernelsReport kernels_report(const AnalysisConfig& c, bool with_stages = true);
AblationReport ablation_report(const AnalysisConfig& c);         // demo 4; c must be valid
OurAblationReport our_ablation_report(const AnalysisConfig& c);  // `fusionlab --ablation`
PhaseReport prefill_report(const AnalysisConfig& c);  // demo 2; c must be valid
PhaseReport decode_report(const AnalysisConfig& c);   // demo 3; c must be valid
// The same from graphs already compiled for c's phase (compiled.compiled_for(c, ...)).
struct CompiledPhase;
PhaseReport prefill_report(const AnalysisConfig& c, const CompiledPhase& compiled);
PhaseReport decode_report(const AnalysisConfig& c, const CompiledPhase& compiled);

}  // namespace fl
