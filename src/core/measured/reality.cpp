#include "core/measured/reality.h"

#include <algorithm>
#include <map>

#include "core/demos/demos.h"
#include "core/measured/cost_model.h"
#include "core/presets.h"
#include "core/units.h"

namespace fl {

namespace {

constexpr ProfiledOp kGemms[] = {ProfiledOp::AttnPreProj, ProfiledOp::AttnPostProj, ProfiledOp::MlpUpProj,
                                 ProfiledOp::MlpDownProj};
constexpr ProfiledOp kSmallOps[] = {ProfiledOp::InputLayernorm, ProfiledOp::PostAttentionLayernorm, ProfiledOp::AttnRope,
                                    ProfiledOp::MlpAct, ProfiledOp::Add};

// Below this, a step between neighbouring token counts is within the profiles' noise.
constexpr double kStepWorthNaming = 1.25;
// Small ops whose measured time is this many times the roofline's show a fixed cost.
constexpr double kFixedCostShows = 3;

bool one_of(ProfiledOp op, std::span<const ProfiledOp> ops) { return std::find(ops.begin(), ops.end(), op) != ops.end(); }

struct Range {
  double lo = 0, hi = 0;
  bool empty = true;
  void add(double v) {
    lo = empty ? v : std::min(lo, v);
    hi = empty ? v : std::max(hi, v);
    empty = false;
  }
};

std::string range_of(const Range& r, std::string (*fmt)(double)) { return fmt(r.lo) + "–" + fmt(r.hi); }
std::string us(double v) { return fmt_time(v * 1e-6); }
std::string ratio(double v) { return fmt_ratio(v); }
std::string percent(double v) { return fmt_percent(v); }
std::string rate(double bytes_per_s) { return fmt_bytes(bytes_per_s) + "/s"; }
// "+63%", "+0.4%": small growths keep a decimal.
std::string growth(double ratio) {
  const double pct = (ratio - 1) * 100;
  return std::string(1, '+').append(fmt_fixed(pct, std::abs(pct) < 10 ? 1 : 0)).append("%");
}

// The GEMMs at the largest token count: how far from the roofline's peak.
Observation peak_finding(const ProfileValidation& v, int64_t t_max, Lang l) {
  Range r;
  for (const OpValidation& row : v.rows)
    if (row.num_tokens == t_max && one_of(row.op, kGemms) && row.roofline_us > 0) r.add(row.measured_us / row.roofline_us);
  const Calibration* cal = v.calibration ? &v.calibration->calibration : nullptr;
  if (cal && cal->matmul_fitted)
    return {"gemm_below_peak", tr(Text::RealityPeak, l, {demos::token_count(t_max, l), range_of(r, ratio), percent(cal->matmul_efficiency)})};
  return {"gemm_below_peak", tr(Text::RealityPeakNoFit, l, {demos::token_count(t_max, l), range_of(r, ratio)})};
}

// The small ops at the smallest token count: a fixed time per kernel.
Observation fixed_cost_finding(const ProfileValidation& v, int64_t t_min, Lang l) {
  Range measured, roofline;
  for (const OpValidation& row : v.rows)
    if (row.num_tokens == t_min && one_of(row.op, kSmallOps)) {
      measured.add(row.measured_us);
      roofline.add(row.roofline_us);
    }
  const std::vector<std::string> args{demos::token_count(t_min, l), range_of(measured, us), range_of(roofline, us),
                                      v.calibration ? fmt_time(v.calibration->calibration.fixed_s) : ""};
  if (measured.lo < kFixedCostShows * roofline.hi) return {"small_ops_near_roofline", tr(Text::RealityNoFixedCost, l, args)};
  return {"small_ops_fixed_cost", tr(v.calibration ? Text::RealityFixedCost : Text::RealityFixedCostNoFit, l, args)};
}

// The GEMMs at the smallest token count, where reading the weights bounds them: the bandwidth reached.
std::optional<Observation> bandwidth_finding(const OpProfile& p, const ProfileValidation& v, int64_t t_min, Lang l) {
  Range reached;
  for (const OpValidation& row : v.rows) {
    if (row.num_tokens != t_min || !one_of(row.op, kGemms) || row.measured_us <= 0) continue;
    if (row.memory_us < row.compute_us) continue;  // not bound by bandwidth at the peaks
    reached.add(row.memory_us / row.measured_us);
  }
  if (reached.empty) return std::nullopt;
  const double peak = p.config.hw.bandwidth;
  return Observation{"gemm_bandwidth", tr(Text::RealityBandwidth, l, {demos::token_count(t_min, l), rate(reached.lo * peak), rate(reached.hi * peak),
                                                                      rate(peak), percent(reached.lo), percent(reached.hi)})};
}

// The GEMMs between neighbouring token counts: the largest step beyond the roofline's growth.
Observation steps_finding(const ProfileValidation& v, Lang l) {
  struct Step {
    double beyond = 0;
    const OpValidation *from = nullptr, *to = nullptr;
  } best;
  for (ProfiledOp op : kGemms) {
    std::vector<const OpValidation*> rows;
    for (const OpValidation& row : v.rows)
      if (row.op == op && row.measured_us > 0 && row.roofline_us > 0) rows.push_back(&row);
    std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->num_tokens < b->num_tokens; });
    for (size_t i = 1; i < rows.size(); ++i) {
      const double beyond = (rows[i]->measured_us / rows[i - 1]->measured_us) / (rows[i]->roofline_us / rows[i - 1]->roofline_us);
      if (beyond > best.beyond) best = {beyond, rows[i - 1], rows[i]};
    }
  }
  if (best.beyond < kStepWorthNaming)
    return {"gemm_smooth", tr(Text::RealityNoSteps, l, {percent(kStepWorthNaming - 1)})};
  const OpValidation &a = *best.from, &b = *best.to;
  return {"gemm_steps", tr(Text::RealitySteps, l,
                           {std::string(profiled_op_name(a.op)), demos::count(a.num_tokens), demos::count(b.num_tokens), us(a.measured_us),
                            us(b.measured_us), growth(b.measured_us / a.measured_us), growth(b.roofline_us / a.roofline_us)})};
}


// The whole model's decode step: its FlashAttention partition.
Partition decode_step(const AnalysisConfig& c) {
  return demos::phase_partitions(c, true)[static_cast<size_t>(PartitionId::FusedFlash)];
}

// Tokens/s of a decode step replayed as a CUDA graph.
double graph_tokens_per_s(const AnalysisConfig& c, const GraphCost& g) {
  return static_cast<double>(c.batch) / (g.t + g.kernels * c.hw.graph_launch);
}

// Where the calibrated model's time goes beside the measurement: the traffic
// at its bandwidth, and the fixed time it adds per kernel (a GEMM's and another's).
std::string calibrated_gap(const AnalysisConfig& c, const Partition& step, double measured_s, Lang l) {
  const GraphCost& g = step.cost;
  const double bandwidth = c.hw.bandwidth * c.hw.achieved.matmul_bandwidth;  // the weights are read by GEMMs
  const double traffic_s = static_cast<double>(g.bytes) / bandwidth;
  int64_t gemms = 0;
  double fixed_s = 0;
  for (const Kernel& k : step.kernels) {
    gemms += k.matmul_flops > 0;
    fixed_s += fixed_time(k, c.hw);
  }
  const std::vector<std::string> args{rate(bandwidth), fmt_bytes(static_cast<double>(g.bytes)), fmt_time(traffic_s),
                                      fmt_time(measured_s), demos::count(g.kernels), fmt_time(c.hw.achieved.kernel_s),
                                      fmt_time(fixed_s), fmt_time(measured_s - traffic_s), demos::count(gemms),
                                      fmt_time(c.hw.achieved.matmul_kernel_s)};
  return tr(traffic_s >= measured_s ? Text::RealityEndToEndNoRoom : Text::RealityEndToEndRest, l, args);
}

EndToEndCheck check_end_to_end(const PublishedSpeed& p, Lang l) {
  AnalysisConfig c = AnalysisConfig::for_demo(3);
  c.lang = l;
  c.model = p.layer;
  c.model_key = "custom";
  for (const ModelPreset& m : model_presets())
    if (m.layer == p.layer && m.layers == p.layers && m.vocab == p.vocab) c.model_key = m.key;
  c.layers = p.layers;
  c.vocab = p.vocab;
  c.whole_model = true;
  c.kv_len = p.kv_len;
  c.use_hardware(p.hardware);
  EndToEndCheck out{&p, graph_tokens_per_s(c, decode_step(c).cost), 0, {}};
  c.cost = CostModel::Calibrated;
  apply_cost_model(c);
  const Partition calibrated_step = decode_step(c);
  out.calibrated_tokens_per_s = graph_tokens_per_s(c, calibrated_step.cost);
  const HardwarePreset* h = find_hardware(p.hardware);
  const std::string gpu = h ? std::string(h->name) : std::string(p.hardware);
  const bool calibrated = cost_model_of(c.hw) == CostModel::Calibrated;
  out.finding = {std::string(p.id),
                 tr(Text::RealityEndToEnd, l,
                    {std::string(p.model_name), gpu, std::string(tr(Text::RealityGptFastSetup, l)), fmt_fixed(p.tokens_per_s, 1),
                     rate(p.achieved_gb_s * 1e9), demos::count(p.kv_len), fmt_fixed(out.roofline_tokens_per_s, 1),
                     ratio(out.roofline_tokens_per_s / p.tokens_per_s),
                     calibrated ? fmt_fixed(out.calibrated_tokens_per_s, 1) : std::string(tr(Text::RealityNoCalibration, l)),
                     calibrated ? ratio(out.calibrated_tokens_per_s / p.tokens_per_s) : "—"})};
  if (calibrated) {
    const std::string gap = l == Lang::Zh ? "" : " ";
    out.finding.text += gap + tr(Text::RealityEndToEndBandwidth, l, {gpu, rate(c.hw.bandwidth), percent(c.hw.achieved.matmul_bandwidth),
                                                                      rate(c.hw.bandwidth * c.hw.achieved.matmul_bandwidth),
                                                                      std::string(p.source)});
    out.finding.text += gap + calibrated_gap(c, calibrated_step, 1 / p.tokens_per_s, l);
  }
  return out;
}

constexpr LayerCfg kLlama2_7B{4096, 32, 32, 128, 11008};

// gpt-fast's README, "Benchmarks" (A100-80GB, power-limited to 330 W; bf16, batch 1).
constexpr PublishedSpeed kPublished[] = {
    {"gpt_fast_llama_2_7b_a100", "Llama-2-7B", kLlama2_7B, 32, 32000, "a100", 104.9, 1397, 200,
     "gpt-fast README (github.com/pytorch-labs/gpt-fast)"},
    {"gpt_fast_llama_3_1_8b_a100", "Llama-3.1-8B", kLlama8B, 32, 128256, "a100", 93.89, 1411, 200,
     "gpt-fast README (github.com/pytorch-labs/gpt-fast)"},
};

}  // namespace

std::span<const PublishedSpeed> published_speeds() { return kPublished; }

RealityProfile check_profile(const ShippedProfile& s, Lang l) {
  RealityProfile out{&s, validate_profile(s.profile), {}};
  int64_t t_min = 0, t_max = 0;
  for (const ProfileRow& row : s.profile.rows) {
    t_min = t_min == 0 ? row.num_tokens : std::min(t_min, row.num_tokens);
    t_max = std::max(t_max, row.num_tokens);
  }
  out.findings.push_back(peak_finding(out.validation, t_max, l));
  out.findings.push_back(fixed_cost_finding(out.validation, t_min, l));
  if (std::optional<Observation> bw = bandwidth_finding(s.profile, out.validation, t_min, l)) out.findings.push_back(std::move(*bw));
  out.findings.push_back(steps_finding(out.validation, l));
  return out;
}

RealityReport reality_report(Lang lang) {
  RealityReport r;
  for (const ShippedProfile& s : shipped_profiles()) r.profiles.push_back(check_profile(s, lang));
  for (const PublishedSpeed& p : published_speeds()) r.end_to_end.push_back(check_end_to_end(p, lang));
  return r;
}

}  // namespace fl
