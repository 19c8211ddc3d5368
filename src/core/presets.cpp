#include "core/presets.h"

namespace fl {

namespace {

// (d, H, G, dh, f), layers, vocabulary, tied embeddings: from each model's
// config.json as published with its weights.
constexpr ModelPreset kModels[] = {
    {"small", "small", {128, 8, 2, 16, 344}, 2, 1024, false, "the lecture's small config"},
    {"llama-3.2-1b", "Llama-3.2-1B", {2048, 32, 8, 64, 8192}, 16, 128256, true, "meta-llama/Llama-3.2-1B config.json"},
    {"llama-3.2-3b", "Llama-3.2-3B", {3072, 24, 8, 128, 8192}, 28, 128256, true, "meta-llama/Llama-3.2-3B config.json"},
    {"llama-3.1-8b", "Llama-3.1-8B", {4096, 32, 8, 128, 14336}, 32, 128256, false, "meta-llama/Llama-3.1-8B config.json"},
    {"llama-3.1-70b", "Llama-3.1-70B", {8192, 64, 8, 128, 28672}, 80, 128256, false, "meta-llama/Llama-3.1-70B config.json"},
    {"llama-3.1-405b", "Llama-3.1-405B", {16384, 128, 8, 128, 53248}, 126, 128256, false, "meta-llama/Llama-3.1-405B config.json"},
    {"mistral-7b", "Mistral-7B", {4096, 32, 8, 128, 14336}, 32, 32000, false, "mistralai/Mistral-7B-v0.1 config.json"},
    {"qwen2.5-7b", "Qwen2.5-7B", {3584, 28, 4, 128, 18944}, 28, 152064, false, "Qwen/Qwen2.5-7B config.json (QKV biases not modelled)"},
};

// Dense BF16 tensor-core peak, FP32 non-tensor peak, HBM bandwidth, memory.
// The per-kernel launch cost is the lecture's 4 µs everywhere.
constexpr HardwarePreset kHardware[] = {
    {"a100", "A100-80GB SXM", {312e12, 19.5e12, 2.039e12, 4e-6, 80e9}, "NVIDIA A100 datasheet"},
    {"h100", "H100 SXM", {989e12, 67e12, 3.35e12, 4e-6, 80e9}, "NVIDIA H100 datasheet (the lecture's numbers)"},
    {"h200", "H200 SXM", {989e12, 67e12, 4.8e12, 4e-6, 141e9}, "NVIDIA H200 datasheet"},
    {"b200", "B200", {2250e12, 80e12, 8e12, 4e-6, 180e9}, "NVIDIA DGX/HGX B200 datasheet (per GPU)"},
    {"mi300x", "MI300X", {1307.4e12, 163.4e12, 5.3e12, 4e-6, 192e9}, "AMD Instinct MI300X datasheet"},
    {"l40s", "L40S", {362.05e12, 91.6e12, 0.864e12, 4e-6, 48e9}, "NVIDIA L40S datasheet"},
    {"rtx4090", "RTX 4090", {165.2e12, 82.6e12, 1.008e12, 4e-6, 24e9}, "NVIDIA Ada Lovelace architecture whitepaper"},
};

}  // namespace

std::span<const ModelPreset> model_presets() { return kModels; }
std::span<const HardwarePreset> hardware_presets() { return kHardware; }

const ModelPreset* find_model(std::string_view key) {
  for (const ModelPreset& m : kModels)
    if (m.key == key) return &m;
  return nullptr;
}

const HardwarePreset* find_hardware(std::string_view key) {
  for (const HardwarePreset& h : kHardware)
    if (h.key == key) return &h;
  return nullptr;
}

const ModelPreset* model_for_layer(const LayerCfg& cfg) {
  for (const ModelPreset& m : kModels)
    if (m.layer == cfg) return &m;  // Mistral-7B shares Llama-3.1-8B's layer: the first wins
  return nullptr;
}

}  // namespace fl
