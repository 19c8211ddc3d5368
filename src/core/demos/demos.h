// The demos behind analyze(), one per file, and what they share.
#pragma once

#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/partitions.h"
#include "core/report.h"

namespace fl::demos {

// Shared pieces.
std::string model_name(const AnalysisConfig& c, Lang lang);     // "Llama-3.1-8B" or "custom model (d, H, G, dh, f)"
std::string hardware_name(const AnalysisConfig& c, Lang lang);  // "H100 SXM" or "custom hardware"
std::string workload_name(const AnalysisConfig& c, Lang lang);  // "one Llama-3.1-8B layer", "the whole ... (126 layers)"
std::string precision_name(const AnalysisConfig& c);            // "BF16", "BF16, FP8 weights"
std::string costed_hardware_name(const AnalysisConfig& c, Lang lang);  // "H100 SXM roofline", "H100 SXM calibrated model"
KernelReport kernel_report(const Partition& p, size_t i, const Hardware& hw, Lang lang, bool detail);
// A partition's name for `c`'s layer (partition_text), as its results bear out.
Text partition_name(const Partition& p, const AnalysisConfig& c);
// `tokens_per_step`: the tokens one pass of the model processes (prefill: T x batch; decode: batch).
std::vector<PartitionReport> partition_reports(const std::vector<Partition>& ps, const AnalysisConfig& c,
                                               int64_t tokens_per_step);
// Weights and KV cache of the whole model for a cache of `S` tokens, against the GPU's memory.
MemoryReport memory_report(const AnalysisConfig& c, int64_t S);
// The four partitions of the configuration's prefill (T tokens) or decode (S cached).
std::vector<Partition> phase_partitions(const AnalysisConfig& c, bool decode);
std::string fb(int64_t bytes);  // fmt_bytes on an integer count
std::string count(int64_t n);    // fmt_count on an integer: "2048", "32,768"
std::string token_count(int64_t n, Lang l);  // "one token", "2048 tokens"; zh "2048 个 token"
std::string head_count(int64_t n, Lang l);   // "one head", "32 heads"; zh "32 个头"

// What a traced layer is made of: the premises of the demos' sentences, read
// from its graph, since a layer from source need not be Llama's.
struct LayerFacts {
  std::vector<Op> composites;  // what eager runs as one handwritten kernel each, in the op table's order
  std::vector<Op> norms;       // the composites that normalize rows (RMSNorm, LayerNorm)
  bool attention = false;      // an attention op, or a matmul of two activations (q·kᵀ, p·v)
  bool pytorch_form = false;   // masked_fill with a boolean mask and a float32 softmax
};
LayerFacts layer_facts(const Graph& g);
std::string op_list(const std::vector<Op>& ops, Lang l);  // "RMSNorm, softmax and SiLU"

}  // namespace fl::demos
