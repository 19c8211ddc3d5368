// The seed's four demos as data: one entry point that the CLI (`--json`), the
// web page and the tests all use, so every view shows the same numbers.
#pragma once

#include <string>

#include "core/compilers.h"
#include "core/cost.h"
#include "core/i18n.h"
#include "core/model.h"

namespace fl {

// The dtypes a configuration chooses, in the order --help and error messages
// list them: fp8 stores weights only (the layer computes in 16 or 32 bits).
constexpr DType kActDTypes[] = {DType::BF16, DType::FP16, DType::FP32};
constexpr DType kWeightDTypes[] = {DType::BF16, DType::FP16, DType::FP8, DType::FP32};

struct AnalysisConfig {
  int demo = 2;                          // 1..4
  LayerCfg model = kLlama8B;
  std::string model_key = "llama-3.1-8b";  // a preset's key, or "custom"
  int64_t layers = 32;                   // the model's decoder layers
  int64_t vocab = 128256;
  bool tied_embeddings = false;
  bool whole_model = false;              // trace embedding, all layers and LM head, not one layer
  int64_t tokens = 2048;                 // T, prefill
  int64_t kv_len = 4096;                 // S, decode
  int64_t batch = 1;                     // B sequences
  DType act = DType::BF16;               // activations and KV cache
  DType weights = DType::BF16;           // weight matrices
  AttentionForm attention = AttentionForm::Lecture;  // how the layer's attention is written (demos 2 and 3)
  Compiler compiler = Compiler::Lecture;  // demos 2 and 3: a real compiler's kernels besides the lecture's
  Hardware hw = kH100;
  std::string hardware_key = "h100";     // a preset's key, or "custom"
  CostModel cost = CostModel::Roofline;  // hw.achieved follows it (core/measured/cost_model.h)
  Lang lang = Lang::Zh;
  // The layer written as source (fusionlab --model-file), traced instead of
  // the built-in one; `model` then holds its sizes.
  LayerSource source;

  // The seed's settings for a demo: demo 1 is the small config at T = 16.
  static AnalysisConfig for_demo(int demo);
  // Sets model, layers, vocab and tied embeddings from a preset; false if unknown.
  bool use_model(std::string_view key);
  bool use_hardware(std::string_view key);
  // Traces `text`, a layer in the model language, instead of the preset's
  // layer, at the sizes it defines. Throws ConfigError (field "source")
  // naming the line and column of what cannot be read.
  void use_source(const std::string& text, std::string name = "");
  void use_source(const LayerSource& read);  // one read before
  TraceOptions trace_options() const;
  // The attention form traced: `attention` in demos 2 and 3; demo 1 (the
  // lecture's small layer) and demo 4 (the paper's ablation) keep the lecture's.
  AttentionForm traced_attention() const { return demo == 2 || demo == 3 ? attention : AttentionForm::Lecture; }
  // The compiler modelled besides the lecture's rules: demos 2 and 3 only.
  Compiler shown_compiler() const { return demo == 2 || demo == 3 ? compiler : Compiler::Lecture; }
  // The graph of the phase: a prefill of `tokens` tokens, or one decode step
  // whose KV length is the symbol S, bound by binding(). (Demos 2 and 3 trace
  // the prefill with T a symbol too: core/compiled.h.)
  Graph traced_graph(bool decode) const;
  Binding binding() const { return {{"B", batch}, {"S", kv_len}, {"T", tokens}}; }
  bool operator==(const AnalysisConfig&) const = default;
};

// Every check of a configuration; throws ConfigError naming the field. A
// layer from source is checked for its sizes here; check_source traces it.
void validate(const AnalysisConfig& cfg);

// Traces a layer from source in both phases (one layer, shapes only): a
// shape error throws ConfigError (field "source") naming its line and column.
void check_source(const AnalysisConfig& cfg);

// Returns the JSON text `fusionlab --demo N --json` prints (without its newline). Throws ConfigError
// (naming the field) when the configuration is invalid.
//
// demo 1: {demo, title, config, kernels: [{index, kind, label, nodes, node_list, reads, writes,
//          flops, t, t_compute, t_memory, ends: [{tensor, consumer, why, text}]}],
//          unfused: {kernels, bytes}, fused: {kernels, bytes}, summary, observations}
// demo 2/3: {demo, title, phase, config, partitions: [{id, name, kernels, bytes, flops, t, overhead,
//          t_total, overhead_share, speedup, tokens_per_s, kernel_list: [...]}], memory, slowest
//          (demo 2), observations}
// demo 4: {demo, title, source, columns, rows: [{setting, inference, training}], observations}
// observations: [{id, text}]: the id names the claim (stable), the text says it with the numbers.
std::string analyze(const AnalysisConfig& cfg);

// The same, with demo 2's and 3's graphs compiled by `compiler`, which keeps
// them until what the trace depends on changes: calls that differ only in T,
// S, the batch or the GPU, as a script's sweep makes, trace, optimise and
// plan fusion once.
class PhaseCompiler;
std::string analyze(const AnalysisConfig& cfg, PhaseCompiler& compiler);

}  // namespace fl
