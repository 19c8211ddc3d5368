// Command-line options of `fusionlab`. Every configuration option goes
// through the core's one way in (core/settings.h), as the page's do.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model_lang/model.h"
#include "core/settings.h"
#include "core/sweep.h"

namespace fl::cli {

// A bad option: the message names it. The tool exits with status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  std::vector<int> demos{1, 2, 3, 4};
  bool json = false;
  bool ablation = false;
  bool rules = false;             // --rules: the merge rules instead of the demos
  bool compare_compilers = false; // --compare-compilers: measured torch.compile runs beside our model
  std::string run;                // --run ID: one run's kernels, launch by launch
  std::string validate;           // --validate FILE.csv: a measured per-op profile beside our roofline
  bool reality = false;           // --reality: the shipped profiles and published speeds beside our models
  bool lineup = false;            // --lineup: one layer under every compiler, step by step
  bool help = false;
  std::string emit;               // "", a pipeline stage, or "kernels"
  std::string phase = "prefill";  // for --emit
  bool demo_given = false;        // --demo N
  std::optional<SweepRequest> sweep;  // --sweep KEY [--points N] [--from A] [--to B]
  Lang lang = Lang::Zh;
  std::vector<Setting> settings;  // --kv-heads 2 → {"kv_heads", "2"}
  std::string model_file;         // --model-file FILE: the layer as source
  std::shared_ptr<const lang::Model> model_source;  // read from it
  std::string print_model;        // --print-model NAME: a preset's layer as source

  // The configuration of one demo: its defaults, overridden by the options.
  AnalysisConfig config_for(int demo) const;
};

Options parse_args(const std::vector<std::string>& args);  // throws UsageError
std::string usage();

}  // namespace fl::cli
