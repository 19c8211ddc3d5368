// fuzz_pipeline_config: bytes → a small valid layer configuration → prefill and
// decode traced with random weights → the whole pipeline, checked pass by pass.
//
// Sizes stay small (d ≤ 64, f ≤ 64, H·dh ≤ 64, T ≤ 8, S ≤ 8, batch ≤ 2, one layer or a whole
// model of ≤ 2 layers and ≤ 32 tokens of vocabulary) so the reference interpreter runs
// every stage of the pipeline (with or without attention matching, as the
// input says). For every stage: verify() holds, the interpreter's outputs equal
// the traced graph's within 1e-3 (relative to the output's largest value),
// and fusion on and off gives valid partitions. Passes that should be
// idempotent are: run again on their own output they rewrite nothing.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>

#include "core/model.h"
#include "core/partitions.h"
#include "core/passes/passes.h"
#include "core/pipeline.h"
#include "fuzz_common.h"

using namespace fl;

namespace {

constexpr double kTolerance = 1e-3;

struct Case {
  LayerCfg cfg;
  int64_t T, pos0, S, P;
  TraceOptions opt;
  bool attention;  // the pipeline with attention matching, or without
  uint64_t seed;
};

std::string case_str(const Case& c) {
  std::ostringstream os;
  os << "d=" << c.cfg.d << " H=" << c.cfg.H << " G=" << c.cfg.G << " dh=" << c.cfg.dh << " f=" << c.cfg.f << " T=" << c.T
     << " pos0=" << c.pos0 << " S=" << c.S << " P=" << c.P << " batch=" << c.opt.batch << " act=" << dtype_name(c.opt.act)
     << " weights=" << dtype_name(c.opt.weights) << " layers=" << c.opt.layers << " vocab=" << c.opt.vocab
     << " tied=" << c.opt.tied_embeddings << " attention=" << c.attention << " seed=" << c.seed;
  return os.str();
}

Case make_case(FuzzedDataProvider& in) {
  Case c{};
  const int64_t G = in.ConsumeIntegralInRange<int64_t>(1, 4);
  const int64_t rep = in.ConsumeIntegralInRange<int64_t>(1, 4);
  c.cfg = {in.ConsumeIntegralInRange<int64_t>(1, 64), G * rep, G, 2 * in.ConsumeIntegralInRange<int64_t>(1, 8),
           in.ConsumeIntegralInRange<int64_t>(1, 64)};
  while (c.cfg.H * c.cfg.dh > 64 && c.cfg.dh > 2) c.cfg.dh -= 2;  // H·dh ≤ 64 keeps the interpreter quick
  c.T = in.ConsumeIntegralInRange<int64_t>(1, 8);
  c.pos0 = in.ConsumeIntegralInRange<int64_t>(0, 100);
  c.S = in.ConsumeIntegralInRange<int64_t>(1, 8);
  c.P = in.ConsumeIntegralInRange<int64_t>(0, c.S - 1);
  c.opt.batch = in.ConsumeIntegralInRange<int64_t>(1, 2);
  // The interpreter computes in float32 whatever the dtypes; they change bytes.
  const DType acts[] = {DType::BF16, DType::FP16, DType::FP32};
  const DType weights[] = {DType::BF16, DType::FP16, DType::FP32, DType::FP8};
  c.opt.act = acts[in.ConsumeIntegralInRange<size_t>(0, 2)];
  c.opt.weights = weights[in.ConsumeIntegralInRange<size_t>(0, 3)];
  // Sometimes the whole model: embedding, 1 or 2 layers, final norm, LM head.
  c.opt.layers = in.ConsumeIntegralInRange<int64_t>(0, 2);
  c.opt.vocab = c.opt.layers ? in.ConsumeIntegralInRange<int64_t>(2, 32) : 0;
  c.opt.tied_embeddings = c.opt.layers && in.ConsumeBool();
  c.attention = in.ConsumeBool();
  c.seed = in.ConsumeIntegral<uint16_t>();
  return c;
}

using PassFn = PassResult (*)(const Graph&);

PassFn pass_of(Stage s) {
  switch (s) {
    case Stage::MatchAttention: return match_attention;
    case Stage::Decompose: return decompose;
    case Stage::Cse: return cse;
    case Stage::ConstantFold: return constant_fold;
    case Stage::Simplify: return simplify;
    case Stage::FoldNormWeight: return fold_norm_weight;
    default: return nullptr;
  }
}

void check_pipeline(const Graph& traced, const Binding& bind, const Case& c, const char* phase) {
  const std::string where = std::string(phase) + " " + case_str(c);
  try {
    verify(traced);
  } catch (const GraphError& e) {
    fl::fuzz::fail(where + ": the traced graph does not verify: " + e.what());
  }
  const Feeds feeds = fl::fuzz::random_feeds(traced, bind, static_cast<uint32_t>(c.seed) + 1);
  const std::vector<TensorValue> reference = run(traced, feeds, bind);
  {  // one pipeline per input (the interpreter is the slow part), each as likely
    const bool attention = c.attention;
    std::vector<StageResult> stages;
    try {
      stages = run_pipeline(traced, {attention, kLastStage, /*verify_each=*/true});
    } catch (const std::exception& e) {
      fl::fuzz::fail(where + (attention ? " (attention)" : "") + ": the pipeline threw: " + e.what());
    }
    for (const StageResult& s : stages) {
      const std::string at = where + " stage " + std::string(stage_name(s.stage)) + (attention ? " (attention)" : "");
      std::vector<TensorValue> out;
      try {
        out = s.stage == Stage::Traced ? reference : run(s.graph, feeds, bind);
      } catch (const std::exception& e) {
        fl::fuzz::fail(at + ": the interpreter threw: " + e.what());
      }
      const std::string diff = fl::fuzz::compare(reference, out, kTolerance);
      FL_FUZZ_CHECK(diff.empty(), at << ": outputs changed: " << diff);
      if (PassFn pass = pass_of(s.stage); pass && s.stage != Stage::MatchAttention) {
        PassResult again = pass(s.graph);
        FL_FUZZ_CHECK(again.rewrites == 0, at << ": a second run rewrites " << again.rewrites << "\n" << dump(s.graph));
      }
      // Every ablation of the fusion rules on the traced and the final graph.
      fl::fuzz::check_fusion(s.graph, bind, kH100, at, s.stage == Stage::Traced || s.stage == kLastStage);
    }
  }
  // The four partitions the page shows, on the same graph.
  const std::vector<Partition> ps = four_partitions(traced, bind, kH100);
  FL_FUZZ_CHECK(ps.size() == 4, where);
  FL_FUZZ_CHECK(ps[2].cost.bytes <= ps[1].cost.bytes && ps[2].cost.kernels <= ps[1].cost.kernels,
                where << ": fused " << ps[2].cost.bytes << " B / " << ps[2].cost.kernels << " kernels, decomposed "
                      << ps[1].cost.bytes << " B / " << ps[1].cost.kernels);
  FL_FUZZ_CHECK(ps[3].cost.bytes <= ps[2].cost.bytes,
                where << ": FlashAttention " << ps[3].cost.bytes << " B, without " << ps[2].cost.bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const Case c = make_case(in);
  try {
    validate(c.cfg);
  } catch (const ConfigError& e) {
    fl::fuzz::fail(case_str(c) + ": a valid configuration is refused: " + e.what());
  }
  Graph prefill, decode;
  try {
    prefill = prefill_layer(c.cfg, c.T, c.pos0, ParamMode::random(c.seed), c.opt);
    decode = decode_layer(c.cfg, ParamMode::random(c.seed), c.opt);
  } catch (const std::exception& e) {
    fl::fuzz::fail(case_str(c) + ": tracing threw: " + e.what());
  }
  check_pipeline(prefill, {}, c, "prefill");
  check_pipeline(decode, {{"S", c.S}, {"P", c.P}}, c, "decode");
  return 0;
}
