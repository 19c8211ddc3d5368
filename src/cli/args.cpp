#include "cli/args.h"

#include <algorithm>
#include <charconv>

#include "core/config_keys.h"

namespace fl::cli {

namespace {

std::string dashed(std::string key) {
  std::replace(key.begin(), key.end(), '_', '-');
  return "--" + key;
}

}  // namespace

std::string usage() {
  const AnalysisConfig layer = AnalysisConfig::for_demo(2), small = AnalysisConfig::for_demo(1);
  return "usage: fusionlab [options]\n"
         "Prints the lecture's four fusion demos, computed by the compiler core.\n\n" +
         keys_usage(KeyGroup::Run) +
         R"(  --json              one JSON object per demo instead of tables
  --ablation          our compiler's ablation instead of the demos: each switch (fusion,
                      inlining, matmul epilogues, attention matching, weight folding,
                      CUDA Graphs) turned off alone, speed-up over eager
  --rules             the fusion rules: for each kind of producer kernel and consumer,
                      whether the consumer joins and when, or why not (--json: as data)
  --emit STAGE        print the prefill (or --phase decode) graph after a stage:
                      traced, match_attention, decompose, cse, constant_fold,
                      simplify, fold_norm_weight, or kernels
  --phase P           prefill or decode, for --emit (default prefill)
  --sweep KEY         with --demo 2 or 3: the four partitions (and --compiler's kernels)
                      at many values of KEY (tokens for prefill, kv_len for decode,
                      or batch), log-spaced
  --points N          points of the sweep (default 64)
  --from A  --to B    the sweep's range (default 1 to the key's maximum)
)" + "model (default " + layer.model_key + "; demo 1: " + small.model_key + " at T = " + std::to_string(small.tokens) +
         "):\n" + keys_usage(KeyGroup::Model) + "workload:\n" + keys_usage(KeyGroup::Workload) + "hardware (default " +
         layer.hardware_key + "):\n" + keys_usage(KeyGroup::Hardware);
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
