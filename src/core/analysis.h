// The seed's four demos as data: one entry point that the CLI (`--json`), the
// web page and the tests all use, so every view shows the same numbers.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/cost.h"
#include "core/i18n.h"
#include "core/model.h"

namespace fl {



struct AnalysisConfig {
  int demo = 2;                  // 1..4
  LayerCfg model = kLlama8B;
  int64_t tokens = 2048;         // T, prefill
  int64_t kv_len = 4096;         // S, decode
  int64_t layers = 32;           // for tokens/s over the whole model
  Hardware hw = kH100;
  Lang lang = Lang::Zh;

  // The seed's settings for a demo: demo 1 is the small config at T = 16.
  static AnalysisConfig for_demo(int demo);
};

// Every check of a configuration; throws ConfigError naming the field.
void validate(const AnalysisConfig& cfg);

// Returns the object `fusionlab --demo N --json` prints. Throws ConfigError
// (naming the field) when the configuration is invalid.
//
// demo 1: {demo, title, config, kernels: [{index, kind, label, nodes, node_list, reads, writes,
//          flops, t, ends}], unfused: {kernels, bytes}, fused: {kernels, bytes}, observations}
// demo 2/3: {demo, title, phase, config, partitions: [{id, name, kernels, bytes, flops, t, overhead,
//          t_total, overhead_share, speedup, tokens_per_s, kernel_list: [...]}], slowest (demo 2),
//          observations}
// demo 4: {demo, title, source, columns, rows: [{setting, inference, training}], observations}
nlohmann::json analyze(const AnalysisConfig& cfg);

}  // namespace fl
