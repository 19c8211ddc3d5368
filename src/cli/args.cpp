#include "cli/args.h"

#include <algorithm>
#include <charconv>

namespace fl::cli {

namespace {

std::string dashed(std::string key) {
  std::replace(key.begin(), key.end(), '_', '-');
  return "--" + key;
}

}  // namespace

std::string usage() {
  return R"(usage: fusionlab [options]
Prints the lecture's four fusion demos, computed by the compiler core.

  --demo N            1..4 (default: all four)
  --json              one JSON object per demo instead of tables
  --ablation          our compiler's ablation instead of the demos: each switch (fusion,
                      inlining, matmul epilogues, attention matching, weight folding,
                      CUDA Graphs) turned off alone, speed-up over eager
  --rules             the fusion rules: for each kind of producer kernel and consumer,
                      whether the consumer joins and when, or why not (--json: as data)
  --lang zh|en        language of tables and observations (default zh)
  --emit STAGE        print the prefill (or --phase decode) graph after a stage:
                      traced, match_attention, decompose, cse, constant_fold,
                      simplify, fold_norm_weight, or kernels
  --phase P           prefill or decode, for --emit (default prefill)
  --sweep KEY         with --demo 2 or 3: the four partitions (and --compiler's kernels)
                      at many values of KEY (tokens for prefill, kv_len for decode,
                      or batch), log-spaced
  --points N          points of the sweep (default 64)
  --from A  --to B    the sweep's range (default 1 to the key's maximum)
model (default Llama-3.1-8B; demo 1: the small config 128, 8, 2, 16, 344 at T = 16):
  --model NAME        small, llama-3.2-1b, llama-3.2-3b, llama-3.1-8b, llama-3.1-70b,
                      llama-3.1-405b, mistral-7b, qwen2.5-7b
  --d N  --heads N  --kv-heads N  --head-dim N  --ffn N     (override the model's layer)
  --layers one|all|N  one decoder layer (default), or the whole model: embedding, all
                      (or N) layers, final norm, LM head; tokens/s then comes from it
  --model-layers N    the model's decoder layers (default: the model's; tokens/s counts them)
  --vocab N           vocabulary size, for the embedding and the LM head (default: the model's)
  --tied-embeddings 0|1  the LM head reuses the embedding table (default: the model's)
  --tokens T          prefill tokens per sequence (default 2048)
  --kv-len S          decode KV length (default 4096)
  --batch B           sequences (default 1)
  --dtype D           activations and KV cache: bf16, fp16, fp32 (default bf16)
  --weights-dtype D   weight matrices: bf16, fp16, fp8, fp32 (default: as --dtype)
  --attention F       demos 2 and 3: how the layer writes attention: lecture (default), math (as
                      PyTorch code does: / sqrt(dh), masked_fill with a boolean mask, softmax in
                      float32) or sdpa (F.scaled_dot_product_attention, one op)
  --compiler C        demos 2 and 3, one layer: lecture (default: the four partitions),
                      inductor (also a model of torch.compile's default mode, as a fifth
                      partition named "inductor", its kernels named as Inductor names them)
                      or gpt-fast (the same with gpt-fast's setting: decode GEMVs as Triton
                      reductions; fifth partition "gpt_fast")
hardware (default H100):
  --hardware NAME     a100, h100, h200, b200, mi300x, l40s, rtx4090
  --matmul-tflops X  --other-tflops X  --bandwidth-tbs X  --launch-us X  --memory-gb X
  --graph-launch-us X  fixed cost per kernel replayed from a CUDA Graph (ablation, timeline)
)";
}

namespace {

int64_t sweep_number(const std::string& opt, const std::string& v) {
  int64_t out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || end != v.data() + v.size() || v.empty())
    throw UsageError(opt + ": must be an integer (got '" + v.substr(0, 40) + "')");
  return out;
}

}  // namespace

Options parse_args(const std::vector<std::string>& args) {
  Options o;
  std::vector<std::pair<std::string, std::string>> pending_sweep;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string opt = args[i], value;
    bool inline_value = false;
    if (auto eq = opt.find('='); opt.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = opt.substr(eq + 1);
      opt = opt.substr(0, eq);
      inline_value = true;
    }
    auto take = [&]() -> std::string {
      if (inline_value) return value;
      if (i + 1 >= args.size()) throw UsageError(opt + ": missing value");
      return args[++i];
    };
    std::string key = opt.rfind("--", 0) == 0 ? opt.substr(2) : opt;
    std::replace(key.begin(), key.end(), '-', '_');
    auto keys = setting_keys();
    if (opt == "--json") o.json = true;
    else if (opt == "--ablation") o.ablation = true;
    else if (opt == "--rules") o.rules = true;
    else if (opt == "--help" || opt == "-h") o.help = true;
    else if (opt == "--emit") o.emit = take();
    else if (opt == "--sweep") {
      const std::string name = take();
      if (!o.sweep) o.sweep = SweepRequest{};
      const std::optional<SweepKey> key = sweep_key_named(name);
      if (!key) throw UsageError("--sweep: unknown key '" + name + "' (tokens, kv_len or batch)");
      o.sweep->key = *key;
    } else if (opt == "--points" || opt == "--from" || opt == "--to") {
      const std::string v = take();
      pending_sweep.push_back({opt, v});
    }
    else if (opt == "--phase") {
      o.phase = take();
      if (o.phase != "prefill" && o.phase != "decode") throw UsageError("--phase: must be prefill or decode");
    } else if (opt.rfind("--", 0) == 0 && std::find(keys.begin(), keys.end(), key) != keys.end()) {
      o.settings.push_back({key, take()});
    } else {
      throw UsageError(opt + ": unknown option (see --help)");
    }
  }
  for (const auto& [opt, v] : pending_sweep) {
    if (!o.sweep) throw UsageError(opt + ": only with --sweep");
    const int64_t n = sweep_number(opt, v);
    if (opt == "--points") o.sweep->points = static_cast<int>(std::clamp<int64_t>(n, -1, kMaxSweepPoints + 1));
    else if (opt == "--from") o.sweep->from = n;
    else o.sweep->to = n;
  }
  // Check every demo's configuration now, so that a bad option fails before anything prints.
  try {
    for (const auto& [key, v] : o.settings) {
      if (key == "lang") o.lang = config_from_settings({{key, v}}).lang;
      if (key == "demo") o.demos = {config_from_settings({{key, v}}).demo}, o.demo_given = true;
    }
    for (int demo : o.demos) o.config_for(demo);
  } catch (const ConfigError& e) {
    throw UsageError(dashed(e.field) + ": " + e.message(Lang::En));
  }
  return o;
}

AnalysisConfig Options::config_for(int demo) const {
  std::vector<Setting> s;
  for (const Setting& kv : settings)
    if (kv.first != "demo") s.push_back(kv);
  s.insert(s.begin(), {"demo", std::to_string(demo)});
  return config_from_settings(s, demo);
}

}  // namespace fl::cli
