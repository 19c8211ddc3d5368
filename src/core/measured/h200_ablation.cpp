#include "core/measured/h200_ablation.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "core/measured/h200_inductor.h"
#include "core/settings.h"

namespace fl {

namespace {

// One JSON object per line of ablation.jsonl, as CMakeLists.txt generates it.
constexpr std::string_view kAblationLines[] = {
#include "h200_inductor_ablation.inc"
};

MeasuredAblationRow parse_row(std::string_view line) {
  const nlohmann::json j = nlohmann::json::parse(line);
  MeasuredAblationRow r;
  r.id = j.at("id").get<std::string>();
  r.decode = j.at("phase") == "decode";
  r.cuda_graph = j.at("cuda_graph").get<bool>();
  r.launches = j.at("launches").get<int>();
  r.compiled_ms = j.at("compiled_ms").get<double>();
  r.eager_ms = j.at("eager_ms").get<double>();
  r.eager_cuda_graph_ms = j.at("eager_cuda_graph_ms").get<double>();
  r.speedup = j.at("speedup_over_eager").get<double>();
  return r;
}

}  // namespace

std::span<const MeasuredAblationRow> h200_ablation_rows() {
  static const std::vector<MeasuredAblationRow> rows = [] {  // immutable once built
    std::vector<MeasuredAblationRow> out;
    for (std::string_view line : kAblationLines) out.push_back(parse_row(line));
    return out;
  }();
  return rows;
}

AnalysisConfig h200_ablation_config(bool decode) {
  // scripts/measure/inductor_ablation.py: LLAMA8B, T = 2048, S = 4096, the probe's math attention.
  std::vector<Setting> s{{"demo", decode ? "3" : "2"}, {"model", "llama-3.1-8b"}, {"hardware", "h200"},
                         {"compiler", "inductor"},     {"attention", "math"},       {"batch", "1"}};
  s.emplace_back(decode ? "kv_len" : "tokens", decode ? "4096" : "2048");
  return config_from_settings(s, decode ? 3 : 2);
}

const MeasuredAblationRow* measured_ablation_row(const AnalysisConfig& c, bool decode, std::string_view id) {
  static const AnalysisConfig measured[2] = {h200_ablation_config(false), h200_ablation_config(true)};
  if (!same_measured_setup(measured[decode], c, decode)) return nullptr;
  for (const MeasuredAblationRow& r : h200_ablation_rows())
    if (r.decode == decode && r.id == id) return &r;
  return nullptr;
}

}  // namespace fl
