// The model: one Llama decoder layer, traced in prefill and in decode.
#pragma once

#include <cstdint>

#include "core/config.h"
#include "core/graph.h"

namespace fl {

// Parameters as shapes only (an 8B layer, nothing in memory) or as seeded
// random values (small configs, so constant folding and numerics work).
struct ParamMode {
  bool real = false;
  uint64_t seed = 0;
  static ParamMode shapes() { return {}; }
  static ParamMode random(uint64_t seed = 1) { return {true, seed}; }
};

inline constexpr double kRmsEps = 1e-5;
inline constexpr double kRopeBase = 500000.0;

// x (T, d) -> (T, d): RMSNorm, Q/K/V, RoPE, causal GQA attention, O + residual,
// RMSNorm, SiLU-gated MLP + residual. Positions pos0 .. pos0+T-1.
Graph prefill_layer(const LayerCfg& cfg, int64_t T, int64_t pos0, ParamMode params);

// One new token at symbolic position P with a KV cache of symbolic length S:
// inputs x (1, d), k_cache and v_cache (G, S, dh), cos and sin (1, 1, dh).
// Outputs the new x and both caches after kv_write.
Graph decode_layer(const LayerCfg& cfg, ParamMode params);

// The decode symbols: KV-cache length and the new token's position.
inline Dim sym_S() { return Dim::symbol("S"); }
inline Dim sym_P() { return Dim::symbol("P"); }

}  // namespace fl
