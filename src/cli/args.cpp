#include "cli/args.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/config_keys.h"
#include "core/enum_names.h"
#include "core/pipeline.h"

namespace fl::cli {

namespace {

constexpr size_t kGutter = 22, kWidth = 92;  // --help: options in the gutter, text to column 92

// `text` broken at spaces into lines that fit beside the gutter; CLI11
// indents each line after the first to the gutter.
std::string wrapped(std::string_view text) {
  constexpr size_t kLine = kWidth - kGutter;
  std::string out;
  size_t column = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find(' ', start), text.size());
    const std::string_view word = text.substr(start, end - start);
    if (column > 0 && column + 1 + word.size() > kLine) {
      out += '\n';
      column = 0;
    } else if (column > 0) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    start = end + 1;
  }
  return out;
}

std::string group_title(KeyGroup g) {
  const AnalysisConfig layer = AnalysisConfig::for_demo(2), small = AnalysisConfig::for_demo(1);
  switch (g) {
    case KeyGroup::Run: return "Options";
    case KeyGroup::Model:
      return "model (default " + layer.model_key + "; demo 1: " + small.model_key + " at T = " +
             std::to_string(small.tokens) + ")";
    case KeyGroup::Workload: return "workload";
    case KeyGroup::Hardware: return "hardware (default " + layer.hardware_key + ")";
  }
  return "Options";
}

// --help as the project writes it: "--kv-heads N" and its text, one blank
// line before each section.
class HelpFormat : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App* app, std::string name) const override {
    return CLI::Formatter::make_usage(app, std::move(name)) + "\n";
  }
  std::string make_group(std::string group, bool positional, std::vector<const CLI::Option*> opts) const override {
    std::string out = group + ":\n";
    for (const CLI::Option* opt : opts) out += make_option(opt, positional);
    return out;
  }
  std::string make_option_opts(const CLI::Option* opt) const override {
    return opt->get_type_size() == 0 ? "" : " " + opt->get_type_name();
  }
};

// A check that the value is one of `names`, listed in the option's text rather than beside its name.
CLI::Validator one_of(std::vector<std::string> names) { return CLI::IsMember(std::move(names)).description(""); }

// The command line as CLI11 reads it: the run's own options, then one option
// per configuration key (core/config_keys.h), each in its section.
struct CommandLine {
  CLI::App app{"Prints the lecture's four fusion demos, computed by the compiler core.", "fusionlab"};
  Options o;
  std::vector<std::string> key_values = std::vector<std::string>(config_keys().size());
  std::vector<CLI::Option*> key_options;
  std::string sweep_key;
  int64_t points = 0, from = 0, to = 0;
  CLI::Option *points_option, *from_option, *to_option, *run_option;

  CommandLine() {
    auto format = std::make_shared<HelpFormat>();
    format->column_width(kGutter);
    app.formatter(format);
    add_key_options(KeyGroup::Run);
    app.add_flag("--json", o.json, "one JSON object per demo instead of tables");
    app.add_option("--model-file", o.model_file,
                   wrapped("the decoder layer written in the model language (docs/model-language.md) instead of "
                           "the preset's: its sizes and code; every other option applies"))
        ->type_name("FILE");
    app.add_option("--print-model", o.print_model,
                   wrapped("prints a model preset's decoder layer in the model language, which --model-file reads "
                           "back, and exits"))
        ->type_name("NAME");
    app.add_flag("--ablation", o.ablation,
                 wrapped("our compiler's ablation instead of the demos: each switch (fusion, inlining, matmul "
                         "epilogues, attention matching, weight folding, CUDA Graphs) turned off alone, speed-up "
                         "over eager"));
    app.add_flag("--rules", o.rules,
                 wrapped("the fusion rules: for each kind of producer kernel and consumer, whether the consumer "
                         "joins and when, or why not (--json: as data)"));
    app.add_flag("--compare-compilers", o.compare_compilers,
                 wrapped("every torch.compile run measured on an H200 (data/measured/h200-inductor) beside our model "
                         "of its compiler: kernels, and one call's time predicted and measured, launched kernel by "
                         "kernel and as a CUDA graph, with the ratios and their medians"));
    run_option = app.add_option("--run", o.run,
                                wrapped("with --compare-compilers: one measured run's kernels, launch by launch, "
                                        "beside ours (its id, as the table lists it)"))
                     ->type_name("ID");
    app.add_option("--validate", o.validate,
                   wrapped("a measured per-op profile (the CSV format of data/measured/op-profiles: any GPU preset, "
                           "any layer shape) beside our roofline: for every row and op, the measured time and the "
                           "roofline time of the eager kernels that do it; the median and 90th percentile of "
                           "|roofline / measured - 1| per op"))
        ->type_name("FILE.csv");
    app.add_flag("--reality", o.reality,
                 wrapped("the reality check: every shipped profile (data/measured/op-profiles) beside the roofline "
                         "and the calibrated model, what the measurements show the roofline leaves out, and "
                         "published end-to-end decode speeds beside our whole model's"));
    app.add_flag("--lineup", o.lineup,
                 wrapped("with --demo 2 or 3: one layer under every compiler side by side (eager, the lecture's "
                         "rules, Inductor, gpt-fast): kernels, bytes and time, and for each step of the layer's "
                         "code the kernels that compute it under each"));
    std::vector<std::string> stages = enum_name_list(kStages, stage_name);
    stages.push_back("kernels");
    app.add_option("--emit", o.emit,
                   wrapped("print the prefill (or --phase decode) graph after a stage: " + enum_names(kStages, stage_name) +
                           ", or the fused kernels: kernels"))
        ->type_name("STAGE")
        ->check(one_of(stages));
    app.add_option("--phase", o.phase, "prefill or decode, for --emit (default prefill)")
        ->type_name("P")
        ->check(one_of({"prefill", "decode"}));
    app.add_option("--sweep", sweep_key,
                       wrapped("with --demo 2 or 3: the four partitions (and --compiler's kernels) at many values of "
                               "KEY (" + enum_names(kSweepKeys, sweep_key_name) + "), log-spaced"))
            ->type_name("KEY")
            ->check(one_of(enum_name_list(kSweepKeys, sweep_key_name)));
    points_option = app.add_option("--points", points, "points of the sweep (default 64)")->type_name("N");
    from_option = app.add_option("--from", from, "the sweep's first value (default 1)")->type_name("A");
    to_option = app.add_option("--to", to, "the sweep's last value (default the key's maximum)")->type_name("B");
    for (KeyGroup g : {KeyGroup::Model, KeyGroup::Workload, KeyGroup::Hardware}) add_key_options(g);
  }

  void add_key_options(KeyGroup group) {
    key_options.resize(key_values.size());
    for (size_t i = 0; i < config_keys().size(); ++i) {
      const ConfigKey& k = config_keys()[i];
      if (k.group != group || !k.on_cli) continue;
      key_options[i] = app.add_option(cli_flag(k.key), key_values[i], wrapped(key_usage(k)))
                           ->type_name(std::string(k.metavar))
                           ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
                           ->group(group_title(group));
    }
  }

  // The options read, as the configuration's settings and the sweep's request.
  void collect() {
    for (const CLI::Option* opt : {points_option, from_option, to_option})
      if (opt->count() > 0 && sweep_key.empty()) throw UsageError(opt->get_name() + ": only with --sweep");
    if (run_option->count() > 0 && !o.compare_compilers) throw UsageError("--run: only with --compare-compilers");
    for (size_t i = 0; i < key_options.size(); ++i)
      if (key_options[i] && key_options[i]->count() > 0) o.settings.push_back({std::string(config_keys()[i].key), key_values[i]});
    if (!sweep_key.empty()) {
      o.sweep = SweepRequest{};
      o.sweep->key = *sweep_key_named(sweep_key);
      if (points_option->count() > 0) o.sweep->points = static_cast<int>(std::clamp<int64_t>(points, -1, kMaxSweepPoints + 1));
      if (from_option->count() > 0) o.sweep->from = from;
      if (to_option->count() > 0) o.sweep->to = to;
    }
  }
};

// --model-file: the file read and its layer checked now; a source error names its line and column.
void read_model_file(Options& o) {
  for (const Setting& kv : o.settings)
    for (const char* size : lang::kSizeNames)
      if (kv.first == size) throw UsageError(cli_flag(kv.first) + ": the layer's sizes come from --model-file");
  std::ifstream in(o.model_file, std::ios::binary);
  if (!in) throw UsageError("--model-file: cannot read '" + o.model_file + "'");
  std::stringstream text;
  text << in.rdbuf();
  try {
    o.model_source = std::make_shared<const lang::Model>(text.str(), std::filesystem::path(o.model_file).filename().string());
  } catch (const lang::SourceError& e) {
    throw UsageError(o.model_file + ":" + e.what());
  }
}

}  // namespace

std::string usage() { return CommandLine().app.help(); }

Options parse_args(const std::vector<std::string>& args) {
  CommandLine line;
  try {
    line.app.parse(std::vector<std::string>(args.rbegin(), args.rend()));  // CLI11 takes them last first
  } catch (const CLI::CallForHelp&) {
    line.o.help = true;
    return line.o;
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  line.collect();
  Options& o = line.o;
  if (!o.model_file.empty()) read_model_file(o);
  // Check every demo's configuration now, so that a bad option fails before anything prints.
  try {
    for (const auto& [key, v] : o.settings) {
      if (key == "lang") o.lang = config_from_settings({{key, v}}).lang;
      if (key == "demo") o.demos = {config_from_settings({{key, v}}).demo}, o.demo_given = true;
    }
    for (int demo : o.demos) {
      const AnalysisConfig c = o.config_for(demo);
      if (!o.model_source) continue;
      try {  // a layer from source traced once in each phase: its errors before anything prints
        c.traced_graph(false);
        c.traced_graph(true);
      } catch (const lang::SourceError& e) {
        throw UsageError(o.model_file + ":" + e.what());
      }
    }
  } catch (const ConfigError& e) {
    throw UsageError(cli_flag(e.field) + ": " + e.message(Lang::En));
  }
  return o;
}

AnalysisConfig Options::config_for(int demo) const {
  std::vector<Setting> s;
  for (const Setting& kv : settings)
    if (kv.first != "demo") s.push_back(kv);
  s.insert(s.begin(), {"demo", std::to_string(demo)});
  AnalysisConfig c = config_from_settings(s, demo);
  if (model_source) {
    c.source = model_source;
    c.model = model_source->layer();
    c.model_key = "custom";
    try {
      fl::validate(c.model);
    } catch (const ConfigError& e) {
      throw UsageError(model_file + ": " + e.message(Lang::En));
    }
  }
  return c;
}

}  // namespace fl::cli
