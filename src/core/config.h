// Model and hardware descriptions, and the one place where they are checked.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/i18n.h"

namespace fl {

// One decoder layer: hidden size, query heads, KV heads (GQA), head dim, MLP hidden size.
struct LayerCfg {
  int64_t d, H, G, dh, f;
  bool operator==(const LayerCfg&) const = default;
};

inline constexpr LayerCfg kLlama8B{4096, 32, 8, 128, 14336};
inline constexpr LayerCfg kSmallCfg{128, 8, 2, 16, 344};

// What kernels reach of a GPU's peaks under a calibrated cost model
// (core/measured/calibration.h): a fraction of each peak, and a fixed time
// per kernel on the GPU, one for a GEMM (a cuBLAS call) and one for every
// other kernel. The roofline's: every peak, no fixed time.
struct Achieved {
  double matmul = 1, vector = 1;      // of the tensor-core and the other FLOP/s
  double bandwidth = 1;               // of the HBM bandwidth, for a kernel without matmul FLOPs
  double matmul_bandwidth = 1;        // the same, for a kernel with them (a GEMM's traffic)
  double kernel_s = 0;                // seconds per kernel without matmul FLOPs, on the GPU (the launch cost is apart)
  double matmul_kernel_s = 0;         // the same for a kernel with them (a GEMM)
  bool operator==(const Achieved&) const = default;
};

// A roofline: peak rates and a fixed cost per kernel launch.
struct Hardware {
  double matmul_flops = 989e12;  // BF16 tensor-core FLOP/s
  double other_flops = 67e12;    // everything else, FLOP/s
  double bandwidth = 3.35e12;    // HBM bytes/s
  double launch = 4e-6;          // seconds per kernel
  double memory = 80e9;          // HBM capacity, bytes
  double graph_launch = 1.3e-6;  // seconds per kernel replayed from a CUDA graph
  Achieved achieved{};           // the cost model's; a preset's is the roofline's
  bool operator==(const Hardware&) const = default;
  Hardware roofline() const {  // the same GPU costed at its peaks
    Hardware h = *this;
    h.achieved = {};
    return h;
  }
  // The same GPU: the same peaks and capacity, whatever the cost model and the launch costs.
  bool same_gpu(const Hardware& o) const {
    return matmul_flops == o.matmul_flops && other_flops == o.other_flops && bandwidth == o.bandwidth && memory == o.memory;
  }
};

inline constexpr Hardware kH100{};

// A configuration value out of range. `field` names it as the CLI spells it.
struct ConfigError : std::runtime_error {
  std::string field;
  Text text;
  std::vector<std::string> args;
  ConfigError(std::string field, Text text, std::vector<std::string> args);
  std::string message(Lang lang) const;

 private:
  ConfigError(std::string field, Text text, std::vector<std::string> cut_args, int);  // args already cut
};

// The ranges every entry point (CLI, page, URL, JS API) enforces.
struct Limits {
  static constexpr int64_t kMaxHidden = 65536;   // d, H*dh
  static constexpr int64_t kMaxHeads = 1024;     // H, G
  static constexpr int64_t kMaxHeadDim = 1024;   // dh
  static constexpr int64_t kMaxFfn = 262144;     // f
  static constexpr int64_t kMaxTokens = 131072;  // T
  static constexpr int64_t kMaxKvLen = 1048576;  // S
  static constexpr int64_t kMaxBatch = 1024;      // B
  static constexpr int64_t kMaxLayers = 256;      // whole models
  static constexpr int64_t kMaxVocab = 1048576;
};

// The range of one numeric setting, by its key (the CLI's option name). Sizes
// and counts are integers from 1; rates and costs are reals in the key's unit
// (TFLOP/s, TB/s, GB, µs), the fixed costs from 0.
struct NumberRange {
  std::string_view key;
  double lo, hi;
  bool integer;
};
// The range of a number's key (declared in core/config_keys.cpp), nullptr for a key that is not a number.
const NumberRange* find_number_range(std::string_view key);

void validate(const LayerCfg& cfg);
void validate_tokens(const char* field, int64_t value, int64_t max);
void validate(const Hardware& hw);

}  // namespace fl
