// The reality check: every shipped per-op profile beside the roofline and the
// calibrated model, what the roofline leaves out said with the measured
// numbers, and published end-to-end decode speeds beside our whole model's.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/measured/op_profile.h"
#include "core/report.h"

namespace fl {

// One shipped profile: its rows beside our models, and what they show.
struct RealityProfile {
  const ShippedProfile* shipped = nullptr;
  ProfileValidation validation;
  std::vector<Observation> findings;  // peaks not reached, the fixed cost, bandwidth, steps
};

// A published end-to-end decode speed (tokens/s at batch 1) of a model on a GPU.
struct PublishedSpeed {
  std::string_view id;          // stable
  std::string_view model_name;  // as the source names it
  LayerCfg layer;
  int64_t layers, vocab;
  std::string_view hardware;    // a preset's key
  double tokens_per_s;          // measured
  double achieved_gb_s;         // the HBM bandwidth the source says it reached
  int64_t kv_len;               // ours: a short context, as the benchmark's (the weights dominate)
  std::string_view source;
};
std::span<const PublishedSpeed> published_speeds();

// A published speed and ours for the same model and GPU: the whole model in
// decode at S = kv_len, batch 1, the FlashAttention partition replayed as
// a CUDA graph (as the benchmark runs), costed by the roofline and calibrated.
struct EndToEndCheck {
  const PublishedSpeed* published = nullptr;
  double roofline_tokens_per_s = 0, calibrated_tokens_per_s = 0;
  Observation finding;
};

struct RealityReport {
  std::vector<RealityProfile> profiles;  // shipped_profiles()' order
  std::vector<EndToEndCheck> end_to_end;
};

RealityReport reality_report(Lang lang);
// One profile's check (`s` must outlive it).
RealityProfile check_profile(const ShippedProfile& s, Lang lang);

}  // namespace fl
