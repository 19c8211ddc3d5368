// Published model configurations and hardware peaks, each with its source.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "core/config.h"

namespace fl {

struct ModelPreset {
  std::string_view key;   // as the CLI and the URL spell it: "llama-3.1-8b"
  std::string_view name;  // as people write it: "Llama-3.1-8B"
  LayerCfg layer;
  int64_t layers;
  int64_t vocab;
  bool tied_embeddings;   // the LM head reuses the embedding table
  std::string_view source;
};

struct HardwarePreset {
  std::string_view key;
  std::string_view name;
  Hardware hw;            // dense (not sparse) peaks
  std::string_view source;
};

std::span<const ModelPreset> model_presets();
std::span<const HardwarePreset> hardware_presets();
const ModelPreset* find_model(std::string_view key);        // nullptr when unknown
const HardwarePreset* find_hardware(std::string_view key);  // nullptr when unknown
// The preset whose layer equals `cfg`, if any (names a model in titles).
const ModelPreset* model_for_layer(const LayerCfg& cfg);

}  // namespace fl
