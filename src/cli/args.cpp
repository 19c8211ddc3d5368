#include "cli/args.h"

#include <charconv>
#include <cmath>
#include <map>

#include "core/presets.h"

namespace fl::cli {

namespace {

int64_t parse_int(const std::string& opt, const std::string& v) {
  int64_t out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec == std::errc::result_out_of_range) throw UsageError(opt + ": " + v + " is too large");
  if (ec != std::errc() || end != v.data() + v.size()) throw UsageError(opt + ": expected an integer, got '" + v + "'");
  return out;
}

double parse_real(const std::string& opt, const std::string& v) {
  size_t used = 0;
  double out = 0;
  try {
    out = std::stod(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size() || !std::isfinite(out)) throw UsageError(opt + ": expected a number, got '" + v + "'");
  return out;
}

DType parse_dtype(const std::string& opt, const std::string& v) {
  for (DType t : {DType::BF16, DType::FP16, DType::FP32, DType::FP8})
    if (dtype_name(t) == v) return t;
  throw UsageError(opt + ": unknown dtype '" + v + "' (bf16, fp16, fp8, fp32)");
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
  --lang zh|en        language of tables and observations (default zh)
  --emit STAGE        print the prefill (or --phase decode) graph after a stage:
                      traced, match_attention, decompose, cse, constant_fold,
                      simplify, fold_norm_weight, or kernels
  --phase P           prefill or decode, for --emit (default prefill)
model (default Llama-3.1-8B; demo 1: the small config 128, 8, 2, 16, 344 at T = 16):
  --model NAME        small, llama-3.2-1b, llama-3.2-3b, llama-3.1-8b, llama-3.1-70b,
                      llama-3.1-405b, mistral-7b, qwen2.5-7b
  --d N  --heads N  --kv-heads N  --head-dim N  --ffn N     (override the model's layer)
  --layers N|all      trace the whole model (embedding, N layers, final norm, LM head)
                      instead of one layer; tokens/s then comes from the whole model
  --tokens T          prefill tokens per sequence (default 2048)
  --kv-len S          decode KV length (default 4096)
  --batch B           sequences (default 1)
  --dtype D           activations and KV cache: bf16, fp16, fp32 (default bf16)
  --weights-dtype D   weight matrices: bf16, fp16, fp8, fp32 (default: as --dtype)
hardware (default H100):
  --hardware NAME     a100, h100, h200, b200, mi300x, l40s, rtx4090
  --matmul-tflops X  --other-tflops X  --bandwidth-tbs X  --launch-us X  --memory-gb X
)";
}

Options parse_args(const std::vector<std::string>& args) {
  Options o;
  std::map<std::string, std::optional<int64_t>*> ints = {
      {"--d", &o.d},           {"--heads", &o.heads},   {"--kv-heads", &o.kv_heads}, {"--head-dim", &o.head_dim},
      {"--ffn", &o.ffn},       {"--tokens", &o.tokens}, {"--kv-len", &o.kv_len},     {"--batch", &o.batch}};
  std::map<std::string, std::optional<std::string>*> words = {{"--model", &o.model},
                                                              {"--hardware", &o.hardware},
                                                              {"--layers", &o.layers},
                                                              {"--dtype", &o.dtype},
                                                              {"--weights-dtype", &o.weights_dtype}};
  std::map<std::string, std::optional<double>*> reals = {{"--matmul-tflops", &o.matmul_tflops},
                                                         {"--other-tflops", &o.other_tflops},
                                                         {"--bandwidth-tbs", &o.bandwidth_tbs},
                                                         {"--launch-us", &o.launch_us},
                                                         {"--memory-gb", &o.memory_gb}};
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
    if (opt == "--json") o.json = true;
    else if (opt == "--ablation") o.ablation = true;
    else if (opt == "--help" || opt == "-h") o.help = true;
    else if (opt == "--demo") {
      int64_t n = parse_int(opt, take());
      if (n < 1 || n > 4) throw UsageError("--demo: must be 1, 2, 3 or 4 (got " + std::to_string(n) + ")");
      o.demos = {static_cast<int>(n)};
    } else if (opt == "--lang") {
      std::string l = take();
      if (l != "zh" && l != "en") throw UsageError("--lang: must be zh or en (got '" + l + "')");
      o.lang = l == "zh" ? Lang::Zh : Lang::En;
    } else if (opt == "--emit") {
      o.emit = take();
    } else if (opt == "--phase") {
      o.phase = take();
      if (o.phase != "prefill" && o.phase != "decode") throw UsageError("--phase: must be prefill or decode");
    } else if (auto wt = words.find(opt); wt != words.end()) {
      *wt->second = take();
    } else if (auto it = ints.find(opt); it != ints.end()) {
      *it->second = parse_int(opt, take());
    } else if (auto rt = reals.find(opt); rt != reals.end()) {
      *rt->second = parse_real(opt, take());
    } else {
      throw UsageError(opt + ": unknown option (see --help)");
    }
  }
  // Check every option now, so that a bad one fails before anything prints.
  if (o.model && !find_model(*o.model)) throw UsageError("--model: unknown model '" + *o.model + "' (see --help)");
  if (o.hardware && !find_hardware(*o.hardware))
    throw UsageError("--hardware: unknown hardware '" + *o.hardware + "' (see --help)");
  if (o.layers && *o.layers != "all") parse_int("--layers", *o.layers);
  if (o.dtype) parse_dtype("--dtype", *o.dtype);
  if (o.weights_dtype) parse_dtype("--weights-dtype", *o.weights_dtype);
  for (int demo : o.demos) {
    AnalysisConfig c = o.config_for(demo);
    try {
      validate(c);
    } catch (const ConfigError& e) {
      throw UsageError("--" + e.field + ": " + e.message(Lang::En));
    }
  }
  return o;
}

AnalysisConfig Options::config_for(int demo) const {
  AnalysisConfig c = AnalysisConfig::for_demo(demo);
  c.lang = lang;
  if (model) c.use_model(*model);
  c.model.d = d.value_or(c.model.d);
  c.model.H = heads.value_or(c.model.H);
  c.model.G = kv_heads.value_or(c.model.G);
  c.model.dh = head_dim.value_or(c.model.dh);
  c.model.f = ffn.value_or(c.model.f);
  c.tokens = tokens.value_or(c.tokens);
  c.kv_len = kv_len.value_or(c.kv_len);
  c.batch = batch.value_or(c.batch);
  if (layers) {
    c.whole_model = true;
    if (*layers != "all") c.layers = parse_int("--layers", *layers);
  }
  if (dtype) c.act = c.weights = parse_dtype("--dtype", *dtype);
  if (weights_dtype) c.weights = parse_dtype("--weights-dtype", *weights_dtype);
  if (hardware) c.use_hardware(*hardware);
  if (matmul_tflops) c.hw.matmul_flops = *matmul_tflops * 1e12;
  if (other_tflops) c.hw.other_flops = *other_tflops * 1e12;
  if (bandwidth_tbs) c.hw.bandwidth = *bandwidth_tbs * 1e12;
  if (launch_us) c.hw.launch = *launch_us * 1e-6;
  if (memory_gb) c.hw.memory = *memory_gb * 1e9;
  return c;
}

}  // namespace fl::cli
