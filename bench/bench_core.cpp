// Benchmarks of the compiler core (Google Benchmark). Run:
//   build/native/bench/fusionlab_bench --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "core/analysis.h"
#include "core/compiled.h"
#include "core/sweep.h"
#include "core/model.h"
#include "core/partitions.h"
#include "core/passes/passes.h"
#include "core/pipeline.h"
#include "core/report.h"
#include "core/settings.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

using namespace fl;

static void BM_TracePrefillLayer(benchmark::State& s) {
  for (auto _ : s) benchmark::DoNotOptimize(prefill_layer(kLlama8B, 2048, 0, ParamMode::shapes()));
}
BENCHMARK(BM_TracePrefillLayer);

static void BM_PipelinePrefillLayer(benchmark::State& s) {
  Graph g = prefill_layer(kLlama8B, 2048, 0, ParamMode::shapes());
  for (auto _ : s) benchmark::DoNotOptimize(optimize(g, true));
}
BENCHMARK(BM_PipelinePrefillLayer);

static void BM_FusePrefillLayer(benchmark::State& s) {
  Graph g = optimize(prefill_layer(kLlama8B, 2048, 0, ParamMode::shapes()), true);
  for (auto _ : s) benchmark::DoNotOptimize(fuse(g));
}
BENCHMARK(BM_FusePrefillLayer);

// Trace, four pipelines, four partitions and their costs: one live recompute.
static void BM_FourPartitions(benchmark::State& s) {
  bool decode = s.range(0) == 1;
  for (auto _ : s) {
    Graph g = decode ? decode_layer(kLlama8B, ParamMode::shapes()) : prefill_layer(kLlama8B, 2048, 0, ParamMode::shapes());
    benchmark::DoNotOptimize(four_partitions(g, {{"S", 4096}}, kH100));
  }
  s.SetLabel(decode ? "decode S=4096" : "prefill T=2048");
}
BENCHMARK(BM_FourPartitions)->Arg(0)->Arg(1);

// What the page and `fusionlab --json` do: the above plus JSON and observations.
static void BM_Analyze(benchmark::State& s) {
  AnalysisConfig c = AnalysisConfig::for_demo(static_cast<int>(s.range(0)));
  for (auto _ : s) benchmark::DoNotOptimize(analyze(c));
}
BENCHMARK(BM_Analyze)->DenseRange(1, 4);

// Whole Llama-3.1-405B-shaped models of N layers: trace, both pipelines,
// four partitions and their costs (decode: the graph is the same size).
static void BM_WholeModel(benchmark::State& s) {
  TraceOptions o;
  o.layers = s.range(0);
  o.vocab = 128256;
  const LayerCfg layer{16384, 128, 8, 128, 53248};
  size_t nodes = 0;
  for (auto _ : s) {
    Graph g = prefill_layer(layer, 2048, 0, ParamMode::shapes(), o);
    nodes = g.size();
    benchmark::DoNotOptimize(four_partitions(g, {}, kH100));
  }
  s.counters["nodes"] = static_cast<double>(nodes);
  s.SetComplexityN(s.range(0));
}
BENCHMARK(BM_WholeModel)->Arg(1)->Arg(8)->Arg(32)->Arg(80)->Arg(126)->Complexity()->Unit(benchmark::kMillisecond);

// Each step on its own, for one layer (0) and for whole 405B-shaped models of
// N layers (prefill, T = 2048): trace, every pass of the standard pipeline
// (FlashAttention matched), fuse and cost. Arguments: {step, layers}.
enum Step { kTrace, kMatchAttention, kDecompose, kCse, kConstantFold, kSimplify, kFoldNormWeight, kFuse, kCost, kSteps };
constexpr const char* kStepNames[] = {"trace",    "match_attention", "decompose", "cse", "constant_fold",
                                      "simplify", "fold_norm_weight", "fuse",     "cost"};
using PassFn = PassResult (*)(const Graph&);
constexpr PassFn kPasses[] = {match_attention, decompose, cse, constant_fold, simplify, fold_norm_weight};

static Graph model_graph(int64_t layers) {
  const LayerCfg layer{16384, 128, 8, 128, 53248};
  if (layers == 0) return prefill_layer(layer, 2048, 0, ParamMode::shapes());
  TraceOptions o;
  o.layers = layers;
  o.vocab = 128256;
  return prefill_layer(layer, 2048, 0, ParamMode::shapes(), o);
}

static void BM_Step(benchmark::State& s) {
  const auto step = static_cast<Step>(s.range(0));
  const int64_t layers = s.range(1);
  s.SetLabel(std::string(kStepNames[step]) + (layers ? ", " + std::to_string(layers) + " layers" : ", one layer"));
  Graph g = model_graph(layers);
  for (int i = kMatchAttention; i < std::min<int>(step, kFuse); ++i) g = kPasses[i - kMatchAttention](g).graph;
  const std::vector<Kernel> kernels = step == kCost ? fuse(g) : std::vector<Kernel>{};
  for (auto _ : s) {
    if (step == kTrace) benchmark::DoNotOptimize(model_graph(layers));
    else if (step == kFuse) benchmark::DoNotOptimize(fuse(g));
    else if (step == kCost) benchmark::DoNotOptimize(graph_cost(kernels, kH100));
    else benchmark::DoNotOptimize(kPasses[step - kMatchAttention](g));
  }
  s.counters["nodes"] = static_cast<double>(g.size());
}
BENCHMARK(BM_Step)
    ->ArgsProduct({benchmark::CreateDenseRange(kTrace, kCost, 1), {0, 1, 8, 32, 80, 126}})
    ->Unit(benchmark::kMicrosecond);

// The same through analyze(): JSON and observations for demo 2 of the whole 405B.
static void BM_AnalyzeWhole405B(benchmark::State& s) {
  AnalysisConfig c = AnalysisConfig::for_demo(static_cast<int>(s.range(0)));
  c.use_model("llama-3.1-405b");
  c.whole_model = true;
  for (auto _ : s) benchmark::DoNotOptimize(analyze(c));
}
BENCHMARK(BM_AnalyzeWhole405B)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond);

// A sweep of one Llama-3.1-8B layer over 64 values of T (prefill) or S
// (decode): compiled once and costed at each point (the sweep chart, `--sweep`),
// against tracing and optimising again at each point (how sweeps ran before).
static void BM_Sweep64(benchmark::State& s) {
  const bool decode = s.range(0) == 1, once = s.range(1) == 1;
  AnalysisConfig c = AnalysisConfig::for_demo(decode ? 3 : 2);
  const SweepKey key = decode ? SweepKey::KvLen : SweepKey::Tokens;
  const std::vector<int64_t> values = sweep_values(c, {key, 64, 1, 0});
  for (auto _ : s) {
    PhaseCompiler compiler;
    for (int64_t v : values) {
      swept_field(c, key) = v;
      if (once) {
        benchmark::DoNotOptimize(cost_phase(compiler.phase(c, decode), c));
      } else {
        benchmark::DoNotOptimize(four_partitions(c.traced_graph(decode), c.binding(), c.hw));
      }
    }
  }
  s.SetLabel(std::string(decode ? "S" : "T") + (once ? ", compiled once" : ", traced at each point"));
}
BENCHMARK(BM_Sweep64)->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond);

// Prefill of the whole Llama-3.1-405B after an edit of T: compiled once, then
// fused and costed (1), against tracing and optimising again (0).
static void BM_Whole405BNewT(benchmark::State& s) {
  const bool once = s.range(0) == 1;
  AnalysisConfig c = AnalysisConfig::for_demo(2);
  c.use_model("llama-3.1-405b");
  c.whole_model = true;
  const CompiledPhase compiled = compile_phase(c, false);
  int64_t T = 1;
  for (auto _ : s) {
    c.tokens = T = T % 8192 + 1;
    if (once) {
      benchmark::DoNotOptimize(cost_phase(compiled, c));
    } else {
      benchmark::DoNotOptimize(four_partitions(c.traced_graph(false), c.binding(), c.hw));
    }
  }
  s.SetLabel(once ? "compiled once" : "traced again");
}
BENCHMARK(BM_Whole405BNewT)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// What the page computes after an edit of T on the whole 405B: the planned
// kernels measured again and the prefill view's report made from them.
static void BM_Whole405BReport(benchmark::State& s) {
  AnalysisConfig c = AnalysisConfig::for_demo(2);
  c.use_model("llama-3.1-405b");
  c.whole_model = true;
  const CompiledPhase compiled = compile_phase(c, false);
  int64_t T = 1;
  for (auto _ : s) {
    c.tokens = T = T % 8192 + 1;
    benchmark::DoNotOptimize(prefill_report(c, compiled));
  }
}
BENCHMARK(BM_Whole405BReport)->Unit(benchmark::kMillisecond);

// Compiling the whole 405B's prefill (T and the batch symbols): the passes
// over all 126 layers (0), or over the model with two and three layers, the
// rest repeated from them (1: regional compilation, what the CLI and the page do).
static void BM_Compile405B(benchmark::State& s) {
  AnalysisConfig c = AnalysisConfig::for_demo(2);
  c.use_model("llama-3.1-405b");
  c.whole_model = true;
  TraceOptions o = c.trace_options();
  o.symbolic_batch = true;
  o.batch = 1;
  for (auto _ : s) {
    if (s.range(0) == 1) benchmark::DoNotOptimize(compile_graphs(c.model, false, o));
    else benchmark::DoNotOptimize(optimize_partitions(prefill_layer_symbolic(c.model, o)));
  }
  s.SetLabel(s.range(0) == 1 ? "regional" : "all layers");
}
BENCHMARK(BM_Compile405B)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// What the page computes after an edit the trace depends on (d, heads, a
// dtype, ...) on the whole 405B: its prefill compiled (graphs and fusion
// plans, regionally), then costed and reported at the current T.
static void BM_Edit405B(benchmark::State& s) {
  AnalysisConfig c = AnalysisConfig::for_demo(2);
  c.use_model("llama-3.1-405b");
  c.whole_model = true;
  for (auto _ : s) {
    const CompiledPhase compiled = compile_phase(c, false);
    benchmark::DoNotOptimize(prefill_report(c, compiled));
  }
}
BENCHMARK(BM_Edit405B)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();

// One keystroke in the source view: the edited source read and checked as the
// configuration key (0), and then its prefill compiled and reported (1).
static void BM_SourceEdit(benchmark::State& s) {
  const AnalysisConfig base = AnalysisConfig::for_demo(2);
  std::ifstream file(std::string(FUSIONLAB_SOURCE_DIR) + "/examples/models/gpt2.fl");
  const std::string source((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  int edit = 0;
  for (auto _ : s) {
    const AnalysisConfig c = edit_config(base, {{"source", source + "# edit " + std::to_string(edit++) + "\n"}});
    if (s.range(0) == 1) benchmark::DoNotOptimize(analyze(c));
    else benchmark::DoNotOptimize(c);
  }
  s.SetLabel(s.range(0) == 1 ? "GPT-2's block: read, checked, compiled, reported" : "GPT-2's block: read and checked");
}
BENCHMARK(BM_SourceEdit)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
