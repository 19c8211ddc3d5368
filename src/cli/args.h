// Command-line options of `fusionlab`.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/analysis.h"

namespace fl::cli {

// A bad option: the message names it. The tool exits with status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  std::vector<int> demos{1, 2, 3, 4};
  bool json = false;
  bool ablation = false;
  bool help = false;
  std::string emit;              // "", a pipeline stage, or "kernels"
  std::string phase = "prefill"; // for --emit
  Lang lang = Lang::Zh;
  // Only what the user gave; the rest comes from each demo's defaults.
  std::optional<std::string> model, hardware, layers, dtype, weights_dtype;
  std::optional<int64_t> d, heads, kv_heads, head_dim, ffn, tokens, kv_len, batch;
  std::optional<double> matmul_tflops, other_tflops, bandwidth_tbs, launch_us, memory_gb;

  // The configuration of one demo: its defaults, overridden by the options.
  AnalysisConfig config_for(int demo) const;
};

Options parse_args(const std::vector<std::string>& args);  // throws UsageError or ConfigError
std::string usage();

}  // namespace fl::cli
