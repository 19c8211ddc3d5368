#include "core/measured/h200_inductor.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/settings.h"

namespace fl {

namespace {

// One JSON object per line of sweep.jsonl, as CMakeLists.txt generates it.
constexpr std::string_view kSweepLines[] = {
#include "h200_inductor_sweep.inc"
};

MeasuredRun parse_run(std::string_view line) {
  const nlohmann::json j = nlohmann::json::parse(line);
  MeasuredRun r;
  r.id = j.at("id").get<std::string>();
  r.model = j.at("model").get<std::string>();
  r.decode = j.at("phase") == "decode";
  r.attention = j.at("attention").get<std::string>();
  r.mode = j.at("mode").get<std::string>();
  r.batch = j.at("batch").get<int64_t>();
  (r.decode ? r.kv_len : r.tokens) = r.decode ? j.at("S").get<int64_t>() : j.at("T").get<int64_t>();
  for (const auto& name : j.at("launches")) r.launches.push_back(name.get<std::string>());
  r.eager_ms = j.at("eager_ms").get<double>();
  r.compiled_ms = j.at("compiled_ms").get<double>();
  r.compiled_cuda_graph_ms = j.at("compiled_cuda_graph_ms").get<double>();
  for (const auto& k : j.at("compiled_kernels"))
    r.profile.push_back({k.at("kernel").get<std::string>(), k.at("calls_per_step").get<double>(), k.at("us_per_call").get<double>()});
  return r;
}

std::vector<MeasuredRun> parse_runs() {
  std::vector<MeasuredRun> runs;
  for (std::string_view line : kSweepLines) runs.push_back(parse_run(line));
  return runs;
}

bool is_triton(std::string_view name) { return name.rfind("triton_", 0) == 0; }

}  // namespace

std::optional<double> MeasuredRun::launch_us(const std::string& launch) const {
  if (!is_triton(launch)) return std::nullopt;
  for (const ProfiledKernel& k : profile)
    if (k.name == launch) return k.us_per_call;
  return std::nullopt;
}

double MeasuredRun::extern_us() const {
  double us = 0;
  for (const ProfiledKernel& k : profile)
    if (!is_triton(k.name)) us += k.calls_per_step * k.us_per_call;
  return us;
}

std::span<const MeasuredRun> h200_inductor_runs() {
  static const std::vector<MeasuredRun> runs = parse_runs();  // immutable once built
  return runs;
}

std::optional<AnalysisConfig> config_of(const MeasuredRun& run) {
  std::string compiler;
  if (run.mode == "default") compiler = "inductor";
  else if (run.mode == "gpt-fast") compiler = "gpt-fast";
  else return std::nullopt;
  std::vector<Setting> s{{"demo", run.decode ? "3" : "2"}, {"model", run.model},         {"hardware", "h200"},
                         {"compiler", compiler},           {"attention", run.attention}, {"batch", std::to_string(run.batch)}};
  if (run.decode) s.emplace_back("kv_len", std::to_string(run.kv_len));
  else s.emplace_back("tokens", std::to_string(run.tokens));
  return config_from_settings(s, run.decode ? 3 : 2);
}

const MeasuredRun* measured_run_for(const AnalysisConfig& c, bool decode) {
  if (c.whole_model || c.shown_compiler() == Compiler::Lecture) return nullptr;
  // Each run's configuration, made once: the page asks at every recompute.
  static const std::vector<std::optional<AnalysisConfig>> configs = [] {
    std::vector<std::optional<AnalysisConfig>> out;
    for (const MeasuredRun& run : h200_inductor_runs()) out.push_back(config_of(run));
    return out;
  }();
  const std::span<const MeasuredRun> runs = h200_inductor_runs();
  for (size_t i = 0; i < runs.size(); ++i) {
    const MeasuredRun& run = runs[i];
    const std::optional<AnalysisConfig>& m = configs[i];
    if (run.decode != decode || !m) continue;
    if (same_measured_setup(*m, c, decode)) return &run;
  }
  return nullptr;
}

bool same_measured_setup(const AnalysisConfig& measured, const AnalysisConfig& c, bool decode) {
  const AnalysisConfig& m = measured;
  const bool same_gpu =
      m.hw.matmul_flops == c.hw.matmul_flops && m.hw.other_flops == c.hw.other_flops && m.hw.bandwidth == c.hw.bandwidth;
  const bool same_size = decode ? m.kv_len == c.kv_len : m.tokens == c.tokens;
  return same_gpu && same_size && !c.whole_model && m.model == c.model && m.batch == c.batch && m.act == c.act &&
         m.weights == c.weights && m.traced_attention() == c.traced_attention() &&
         m.shown_compiler() == c.shown_compiler();
}

}  // namespace fl
