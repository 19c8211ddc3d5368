#include "core/demos/observations.h"

#include <algorithm>
#include <set>

#include "core/demos/demos.h"
#include "core/fusion.h"
#include "core/measured/comparison.h"
#include "core/measured/cost_model.h"
#include "core/units.h"

namespace fl::demos {

namespace {

double share(double part, double whole) { return whole > 0 ? part / whole : 0; }
double share(int64_t part, int64_t whole) { return share(static_cast<double>(part), static_cast<double>(whole)); }

bool has_attention_kernel(const Partition& p) {
  return std::any_of(p.kernels.begin(), p.kernels.end(), [](const Kernel& k) { return k.kind == KernelKind::Attention; });
}

// "pointwise ops and RMSNorm": what fusion keeps in registers outside attention.
std::string fused_intermediates(const LayerFacts& f, Lang l) {
  return f.norms.empty() ? std::string(tr(Text::PointwiseOnly, l)) : tr(Text::PointwiseAndNorms, l, {op_list(f.norms, l)});
}

// The score matrices (tensors of `numel` elements) a partition writes to
// memory, and their bytes written and read back.
struct ScoreTraffic {
  int tensors = 0;
  int64_t bytes = 0;
};
ScoreTraffic score_traffic(const Partition& p, int64_t numel, const Binding& bind) {
  ScoreTraffic t;
  for (const Kernel& k : p.kernels) {
    std::set<NodeId> counted;
    for (const KernelEdge& e : k.ends) {
      const Node& n = p.graph->node(e.tensor);
      if (eval_numel(n.shape, bind) != numel) continue;
      const int64_t bytes = numel * dtype_bytes(n.dtype);
      if (counted.insert(e.tensor).second) ++t.tensors, t.bytes += bytes;  // written once
      if (e.consumer >= 0) t.bytes += bytes;                               // read by each consumer
    }
  }
  return t;
}

// Bytes that fusion removes outside attention: the FlashAttention graph run
// unfused against fused, so that attention's scores are in neither.
int64_t fusion_saving_outside_attention(const Partition& flash, const std::vector<Kernel>& flash_unfused, const Hardware& hw) {
  return graph_cost(flash_unfused, hw).bytes - flash.cost.bytes;
}

Observation prefill_decomposed(const AnalysisConfig& c, const LayerFacts& f, const Partition& eager, const Partition& dec) {
  const std::vector<std::string> args{fmt_time(dec.cost.t_total), fmt_time(eager.cost.t_total), fb(eager.cost.bytes),
                                      fb(dec.cost.bytes)};
  // Few tokens: the tensors are small, and what decomposing adds is launches.
  const double slowdown = dec.cost.t_total - eager.cost.t_total, more_fixed = dec.cost.overhead - eager.cost.overhead;
  if (slowdown > 0 && more_fixed >= slowdown / 2) {
    std::vector<std::string> launch_args = args;
    launch_args.insert(launch_args.end(), {count(dec.cost.kernels), count(eager.cost.kernels), fmt_time(more_fixed),
                                           fmt_percent(share(more_fixed, slowdown))});
    return {"prefill_decomposed_slower_launches", tr(Text::ObsPrefillSlowerLaunches, c.lang, launch_args)};
  }
  if (dec.cost.t_total > eager.cost.t_total && !f.composites.empty()) {
    std::vector<std::string> named = args;
    named.insert(named.end(), {op_list(f.composites, c.lang), count(dec.cost.kernels), count(eager.cost.kernels)});
    const bool softmax = std::count(f.composites.begin(), f.composites.end(), Op::Softmax) > 0;
    return {softmax ? "prefill_decomposed_slower" : "prefill_decomposed_slower_no_softmax",
            tr(Text::ObsPrefillSlower, c.lang, named)};
  }
  if (dec.cost.t_total > eager.cost.t_total) return {"prefill_decomposed_slower", tr(Text::ObsPrefillSlowerPlain, c.lang, args)};
  return {"prefill_decomposed_not_slower", tr(Text::ObsPrefillNotSlower, c.lang, args)};
}

// What fusion saves, and what it leaves: attention's score matrix.
Observation prefill_traffic(const AnalysisConfig& c, const LayerFacts& f, const std::vector<Partition>& ps,
                            const std::function<std::vector<Kernel>()>& flash_unfused) {
  const Partition &dec = ps[1], &fused = ps[2], &flash = ps[3];
  const int64_t T = c.tokens, saved = dec.cost.bytes - fused.cost.bytes;
  if (share(saved, dec.cost.bytes) < Claim::kSmall) {
    const int64_t weights = parameter_bytes(*ps[0].graph);
    return {"prefill_fusion_barely_cuts_traffic",
            tr(Text::ObsPrefillFusionBarely, c.lang,
               {fb(dec.cost.bytes), fb(fused.cost.bytes), fmt_percent(share(weights, fused.cost.bytes))})};
  }
  if (has_attention_kernel(fused))  // the layer calls attention as one op
    return {"prefill_fusion_attention_one_op",
            tr(Text::ObsPrefillFusionAttentionOp, c.lang, {fb(dec.cost.bytes), fb(fused.cost.bytes)})};
  if (!f.attention)
    return {"prefill_fusion_no_attention", tr(Text::ObsPrefillFusionNoAttention, c.lang,
                                              {fb(dec.cost.bytes), fb(fused.cost.bytes), fused_intermediates(f, c.lang)})};
  if (!has_attention_kernel(flash)) {  // not the lecture's pattern
    const ScoreTraffic scores = score_traffic(fused, c.batch * c.model.H * T * T, c.binding());
    return {"prefill_fusion_leaves_scores_unmatched",
            tr(f.pytorch_form ? Text::ObsPrefillFusionUnmatched : Text::ObsPrefillFusionUnmatchedOther, c.lang,
               {fb(dec.cost.bytes), fb(fused.cost.bytes), head_count(c.batch * c.model.H, c.lang), count(T), count(scores.tensors),
                fb(scores.bytes)})};
  }
  const int64_t score_bytes = c.batch * c.model.H * T * T * dtype_bytes(c.act);
  const double outside = share(fusion_saving_outside_attention(flash, flash_unfused(), c.hw), saved);
  const bool pointwise = outside >= Claim::kMost;
  const std::vector<std::string> args{fb(dec.cost.bytes), fb(fused.cost.bytes), head_count(c.batch * c.model.H, c.lang), count(T),
                                      fb(score_bytes), fmt_percent(pointwise ? outside : 1 - outside),
                                      fused_intermediates(f, c.lang)};
  if (pointwise) return {"prefill_fusion_saves_pointwise", tr(Text::ObsPrefillFusionPointwise, c.lang, args)};
  return {"prefill_fusion_saves_scores", tr(Text::ObsPrefillFusionScores, c.lang, args)};
}

// What is left with FlashAttention: the matmuls, or the rest.
Observation prefill_flash(const AnalysisConfig& c, const LayerFacts& f, const Partition& fused, const Partition& flash) {
  double matmul_t = 0;
  for (const Kernel& k : flash.kernels)
    if (k.kind == KernelKind::MatMul || k.kind == KernelKind::Attention) matmul_t += kernel_time(k, c.hw);
  const double matmul_share = share(matmul_t, flash.cost.t);
  const std::vector<std::string> args{fb(flash.cost.bytes), fmt_percent(matmul_share), time_term(c.hw, c.lang)};
  if (has_attention_kernel(fused)) return {"prefill_attention_one_op", tr(Text::ObsPrefillFlashAlready, c.lang, args)};
  if (!f.attention) return {"prefill_no_attention", tr(Text::ObsPrefillNoAttention, c.lang, args)};
  if (!has_attention_kernel(flash))
    return {"prefill_attention_not_matched",
            tr(f.pytorch_form ? Text::ObsPrefillFlashNotMatched : Text::ObsPrefillFlashOtherForm, c.lang, args)};
  if (matmul_share >= Claim::kMost) return {"prefill_flash_leaves_matmuls", tr(Text::ObsPrefillFlashMatmuls, c.lang, args)};
  return {"prefill_flash_leaves_other_kernels", tr(Text::ObsPrefillFlashOther, c.lang, args)};
}

// Where prefill's matmuls sit against the ridge point, and what the fixed cost is.
Observation prefill_bound(const AnalysisConfig& c, const Partition& flash) {
  int matmuls = 0, compute_bound = 0;
  for (const Kernel& k : flash.kernels) {
    if (k.kind != KernelKind::MatMul) continue;
    ++matmuls;
    compute_bound += compute_time(k, c.hw) > memory_time(k, c.hw);
  }
  const double overhead = share(flash.cost.overhead, flash.cost.t_total);
  const std::vector<std::string> args{count(c.tokens), count(matmuls), count(compute_bound), fmt_percent(overhead)};
  if (compute_bound == 0) return {"prefill_matmuls_memory_bound", tr(Text::ObsPrefillMemoryBound, c.lang, args)};
  if (compute_bound < matmuls) return {"prefill_matmuls_partly_compute_bound", tr(Text::ObsPrefillPartlyBound, c.lang, args)};
  if (overhead >= Claim::kSmall)
    return {"prefill_compute_bound_overhead_matters", tr(Text::ObsPrefillBoundOverhead, c.lang, args)};
  return {"prefill_compute_bound", tr(Text::ObsPrefillComputeBound, c.lang, args)};
}

// What decode moves: weights, KV cache, or neither.
Observation decode_traffic(const AnalysisConfig& c, const Partition& flash, int64_t weights, int64_t kv) {
  const Lang L = c.lang;
  const std::string weights_text = tr(c.whole_model ? Text::WeightsWholeModel : Text::WeightsPerLayer, L, {fb(weights)});
  const int64_t bytes = flash.cost.bytes;
  const bool weights_most = weights >= kv;
  std::vector<std::string> args{weights_text, fb(kv), count(c.kv_len), fmt_percent(share(weights + kv, bytes)), fb(bytes),
                                fmt_percent(share(weights_most ? weights : kv, bytes)), count(c.batch),
                                std::string(tr(has_attention_kernel(flash) ? Text::FlashPartitionName : Text::FourthPartitionName, L))};
  const bool cache = kv > 0;  // a layer without attention has none
  if (share(weights + kv, bytes) < Claim::kAlmostAll)
    return {"decode_traffic_activations",
            tr(cache ? Text::ObsDecodeTrafficActivations : Text::ObsDecodeTrafficActivationsNoCache, L, args)};
  if (weights_most)
    return {"decode_traffic_weights", tr(cache ? Text::ObsDecodeTrafficWeights : Text::ObsDecodeTrafficWeightsNoCache, L, args)};
  return {"decode_traffic_kv_cache", tr(Text::ObsDecodeTrafficKv, L, args)};
}

// How far the four partitions differ in bytes and roofline time.
Observation decode_spread(const AnalysisConfig& c, const LayerFacts& f, const std::vector<Partition>& ps) {
  auto [t_lo, t_hi] = std::minmax({ps[0].cost.t, ps[1].cost.t, ps[2].cost.t, ps[3].cost.t});
  auto [b_lo, b_hi] = std::minmax({ps[0].cost.bytes, ps[1].cost.bytes, ps[2].cost.bytes, ps[3].cost.bytes});
  if (share(b_hi - b_lo, b_hi) < Claim::kAlike && share(t_hi - t_lo, t_hi) < Claim::kAlike)
    return {"decode_partitions_alike",
            tr(Text::ObsDecodeAlike, c.lang, {fb(b_hi), fb(b_lo), fmt_time((t_lo + t_hi) / 2), time_term(c.hw, c.lang)})};
  const int64_t heads = c.batch * c.model.H;
  const std::vector<std::string> args{fb(b_hi),     fb(b_lo),      fmt_time(t_hi),
                                      fmt_time(t_lo), count(heads),  count(c.kv_len),
                                      fb(heads * c.kv_len * dtype_bytes(c.act)), time_term(c.hw, c.lang),
                                      fused_intermediates(f, c.lang)};
  if (!f.attention) return {"decode_partitions_differ_no_attention", tr(Text::ObsDecodeDifferNoAttention, c.lang, args)};
  if (has_attention_kernel(ps[0]))  // the layer calls attention as one op: no partition writes scores
    return {"decode_partitions_differ_outside_attention", tr(Text::ObsDecodeDifferNoScores, c.lang, args)};
  return {"decode_partitions_differ", tr(Text::ObsDecodeDiffer, c.lang, args)};
}

// Whether the fixed cost per kernel, which fusion cuts, sets decode's latency.
Observation decode_kernels(const AnalysisConfig& c, const Partition& dec, const Partition& flash) {
  const double dec_share = share(dec.cost.overhead, dec.cost.t_total);
  std::vector<std::string> args{count(dec.cost.kernels), count(flash.cost.kernels), fmt_time(dec.cost.overhead),
                                fmt_percent(share(dec.cost.overhead, dec.cost.t)), fmt_time(flash.cost.overhead),
                                fmt_percent(share(flash.cost.overhead, flash.cost.t_total)), fmt_percent(dec_share),
                                fmt_time(dec.cost.t / std::max(1, dec.cost.kernels)), fmt_time(c.hw.launch),
                                time_term(c.hw, c.lang)};
  if (dec_share >= Claim::kSetsLatency)
    return {"decode_kernel_count_sets_latency", tr(Text::ObsDecodeKernelsSetLatency, c.lang, args)};
  if (dec_share >= Claim::kSmall) return {"decode_kernel_count_matters", tr(Text::ObsDecodeKernelsMatter, c.lang, args)};
  return {"decode_bytes_set_latency", tr(Text::ObsDecodeBytesSetLatency, c.lang, args)};
}

// What FlashAttention saves at decode: the scores are B·H × S numbers.
Observation decode_flash(const AnalysisConfig& c, const LayerFacts& f, const Partition& fused, const Partition& flash) {
  const int64_t heads = c.batch * c.model.H;
  const double saved = share(fused.cost.t_total - flash.cost.t_total, fused.cost.t_total);
  const std::vector<std::string> args{fmt_time(flash.cost.t_total), fmt_time(fused.cost.t_total), count(heads), count(c.kv_len),
                                      fb(heads * c.kv_len * dtype_bytes(c.act)), fmt_percent(saved)};
  if (has_attention_kernel(fused)) return {"decode_attention_one_op", tr(Text::ObsDecodeFlashAlready, c.lang, args)};
  if (!f.attention) return {"decode_no_attention", tr(Text::ObsDecodeNoAttention, c.lang, args)};
  if (!has_attention_kernel(flash))
    return {"decode_attention_not_matched",
            tr(f.pytorch_form ? Text::ObsDecodeFlashNotMatched : Text::ObsDecodeFlashOtherForm, c.lang, args)};
  if (saved < Claim::kSmall) return {"decode_flash_saves_little", tr(Text::ObsDecodeFlashLittle, c.lang, args)};
  return {"decode_flash_saves_much", tr(Text::ObsDecodeFlashMuch, c.lang, args)};
}

}  // namespace

std::optional<Observation> compiler_observation(const AnalysisConfig& c, const std::vector<Partition>& ps) {
  if (ps.size() <= std::size(kAllPartitions)) return std::nullopt;
  const Lang L = c.lang;
  const Partition &mine = ps.back(), &fused = ps[static_cast<size_t>(PartitionId::Fused)];
  std::string text = tr(Text::ObsCompiler, L,
                        {std::string(tr(partition_name(mine, c), L)), count(mine.cost.kernels),
                         fb(mine.cost.bytes), fmt_time(mine.cost.t_total),
                         std::string(tr(partition_name(fused, c), L)), count(fused.cost.kernels),
                         fb(fused.cost.bytes), fmt_time(fused.cost.t_total)});
  const char* gap = L == Lang::Zh ? "" : " ";  // between sentences
  // Copies: kernels that compute nothing but views, laying data out for an extern call.
  int copies = 0, repeats = 0;
  int64_t copy_bytes = 0;
  for (const Kernel& k : mine.kernels) {
    const bool views_only = !k.nodes.empty() && std::all_of(k.nodes.begin(), k.nodes.end(), [&](NodeId id) {
      return op_kind(mine.graph->node(id).op) == OpKind::View;
    });
    if (!views_only) continue;
    ++copies;
    copy_bytes += k.bytes();
    repeats += std::any_of(k.nodes.begin(), k.nodes.end(), [&](NodeId id) { return mine.graph->node(id).op == Op::RepeatKV; });
  }
  if (copies > 0) {
    std::string what;
    if (repeats > 0) what = tr(Text::ObsCopyRepeat, L);
    if (copies > repeats) what.append(what.empty() ? "" : tr(Text::ListAnd, L)).append(tr(Text::ObsCopyTranspose, L));
    text.append(gap).append(tr(Text::ObsCompilerCopies, L, {count(copies), what, fb(copy_bytes)}));
  }
  // Matmul epilogues: the lecture's rules fuse them; a cuBLAS call takes none.
  auto matmuls = [](const Partition& p, bool with_more) {
    return std::count_if(p.kernels.begin(), p.kernels.end(),
                         [&](const Kernel& k) { return k.kind == KernelKind::MatMul && (!with_more || k.nodes.size() > 1); });
  };
  const auto calls = matmuls(mine, false), epilogues = matmuls(fused, true);
  if (calls > 0 && matmuls(mine, true) == 0 && epilogues > 0)
    text.append(gap).append(tr(Text::ObsCompilerNoEpilogue, L, {count(calls), count(epilogues)}));
  return Observation{"compiler_vs_lecture", text};
}

std::optional<Observation> measured_observation(const AnalysisConfig& c, bool decode, const std::vector<Partition>& ps) {
  if (ps.size() <= std::size(kAllPartitions)) return std::nullopt;
  const MeasuredRun* run = measured_run_for(c, decode);
  if (!run) return std::nullopt;
  const RunComparison r = compare_run(*run, c, ps.back());
  const Lang L = c.lang;
  std::string text = tr(Text::ObsCompilerMeasured, L,
                        {count(r.measured_kernels), fmt_time(r.measured_s), fmt_time(r.measured_graph_s), count(r.kernels),
                         fmt_time(r.predicted_s), fmt_time(r.predicted_graph_s), fmt_fixed(r.ratio(), 2),
                         fmt_fixed(r.graph_ratio(), 2)});
  const char* gap = L == Lang::Zh ? "" : " ";  // between sentences
  const bool short_both = r.ratio() < 1 && r.graph_ratio() < 1;
  const bool calibrated = cost_model_of(c.hw) == CostModel::Calibrated;
  if (short_both) text.append(gap).append(tr(calibrated ? Text::ObsMeasuredBelowCalibrated : Text::ObsMeasuredBelow, L));
  if (r.ratio() >= 1) text.append(gap).append(tr(Text::ObsMeasuredAboveLaunch, L, {fmt_time(c.hw.launch)}));
  if (r.graph_ratio() >= 1) text.append(gap).append(tr(Text::ObsMeasuredAboveGraph, L, {fmt_time(c.hw.graph_launch)}));
  if (!r.kernel_rows.empty())
    text.append(gap).append(tr(calibrated ? Text::ObsMeasuredSplitCalibrated : Text::ObsMeasuredSplit, L,
                               {fmt_time(r.triton_measured_us * 1e-6), fmt_time(r.triton_predicted_us * 1e-6),
                                fmt_time(r.extern_measured_us * 1e-6), fmt_time(r.extern_predicted_us * 1e-6)}));
  return Observation{short_both ? "compiler_measured_roofline_short" : "compiler_measured_roofline_over", text};
}

Observation memory_observation(const MemoryReport& memory) {
  return {memory.fits ? "memory_fits" : "memory_too_big", memory.text};
}

std::vector<Observation> prefill_observations(const AnalysisConfig& c, const std::vector<Partition>& ps,
                                              const std::function<std::vector<Kernel>()>& flash_unfused) {
  const LayerFacts f = layer_facts(*ps[0].graph);  // eager runs the traced graph
  return {prefill_decomposed(c, f, ps[0], ps[1]), prefill_traffic(c, f, ps, flash_unfused), prefill_flash(c, f, ps[2], ps[3]),
          prefill_bound(c, ps[3])};
}

std::vector<Observation> decode_observations(const AnalysisConfig& c, const std::vector<Partition>& ps, int64_t weights,
                                             int64_t kv) {
  const LayerFacts f = layer_facts(*ps[0].graph);  // eager runs the traced graph
  return {decode_traffic(c, ps[3], weights, kv), decode_spread(c, f, ps), decode_kernels(c, ps[1], ps[3]),
          decode_flash(c, f, ps[2], ps[3])};
}

}  // namespace fl::demos
