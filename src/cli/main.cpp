// fusionlab: the lecture's four fusion demos on the command line.
//
// Every table is rendered from the same typed report that `--json` serializes
// and the web page draws, so the three can never disagree.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/args.h"
#include "cli/table.h"
#include "core/demos/demos.h"
#include "core/ends_by_reason.h"
#include "core/report_json.h"
#include "core/fusion/rules.h"
#include "core/measured/comparison.h"
#include "core/measured/cost_model.h"
#include "core/measured/op_profile.h"
#include "core/measured/reality.h"
#include "core/model.h"
#include "core/model_lang/llama_source.h"
#include "core/presets.h"
#include "core/partitions.h"
#include "core/pipeline.h"
#include "core/crossings.h"
#include "core/sweep.h"
#include "core/units.h"

namespace fl::cli {

namespace {

std::string T(Text id, Lang l) { return std::string(tr(id, l)); }
std::string bytes(int64_t v) { return fmt_bytes(static_cast<double>(v)); }

std::string observations(const std::vector<Observation>& obs, Lang l) {
  std::vector<std::string> texts;
  for (const Observation& o : obs) texts.push_back(o.text);
  return render_observations(T(Text::Observations, l), texts);
}

// Demo 1: the fused layer's kernels.
std::string render(const KernelsReport& r, Lang l) {
  std::vector<std::vector<std::string>> rows;
  for (const KernelReport& k : r.kernels)
    rows.push_back({std::to_string(k.index), std::string(kernel_kind_name(k.kind)), k.label, std::to_string(k.nodes),
                    bytes(k.reads), bytes(k.writes)});
  return render_header(r.title) +
         render_table({T(Text::ColIndex, l), T(Text::ColKind, l), T(Text::ColOps, l), T(Text::ColNodes, l),
                       T(Text::ColReads, l), T(Text::ColWrites, l)}, rows) +
         "\n" + r.summary + "\n\n" + cost_model_note(r.config, l) + "\n" + observations(r.observations, l);
}

// Demos 2 and 3: the four partitions (prefill: and the slowest fused kernels).
std::string render(const PhaseReport& r, Lang l) {
  std::string out = render_header(r.title);
  std::vector<std::vector<std::string>> rows;
  if (!r.decode()) {
    for (const PartitionReport& p : r.partitions)
      rows.push_back({p.name, std::to_string(p.cost.kernels), bytes(p.cost.bytes), fmt_gflops(p.cost.flops),
                      fmt_time(p.cost.t), fmt_time(p.cost.t_total), fmt_ratio(p.speedup)});
    out += render_table({T(Text::ColPartition, l), T(Text::ColKernels, l), T(Text::ColHbm, l), T(Text::ColGflops, l),
                         time_term(r.config.hw, l), T(Text::ColTotal, l), T(Text::ColSpeedup, l)}, rows);
    std::vector<std::vector<std::string>> slow;
    for (const KernelReport& k : r.slowest)
      slow.push_back({std::string(kernel_kind_name(k.kind)), k.label, bytes(k.reads), bytes(k.writes), fmt_time(k.t)});
    out += "\n" + tr(Text::Demo2Slowest, l, {std::to_string(r.slowest.size()), r.partition(PhaseReport::slowest_of).name}) + "\n";
    out += render_table({T(Text::ColKind, l), T(Text::ColOps, l), T(Text::ColReads, l), T(Text::ColWrites, l), T(Text::ColTime, l)}, slow);
  } else {
    for (const PartitionReport& p : r.partitions)
      rows.push_back({p.name, std::to_string(p.cost.kernels), bytes(p.cost.bytes), fmt_time(p.cost.t), fmt_time(p.cost.overhead),
                      fmt_percent(p.overhead_share), fmt_fixed(p.tokens_per_s, 0)});
    out += render_table({T(Text::ColPartition, l), T(Text::ColKernels, l), T(Text::ColHbm, l), time_term(r.config.hw, l),
                         T(Text::ColOverhead, l), T(Text::ColShare, l), tr(Text::ColTokens, l, {std::to_string(r.config.layers)})},
                        rows);
  }
  return out + "\n" + cost_model_note(r.config, l) + "\n" + observations(r.observations, l);
}

// Demo 4: the paper's ablation.
std::string render(const AblationReport& r, Lang l) {
  std::vector<std::vector<std::string>> rows;
  for (const PaperAblationRow& row : r.rows) rows.push_back({row.setting, fmt_ratio(row.inference), fmt_ratio(row.training)});
  return render_header(r.title) + render_table(r.columns, rows) + "\n" + r.source + "\n" + observations(r.observations, l);
}

// One demo as its typed report, written as JSON (what analyze() returns) or as tables.
template <class Report>
std::string write(const Report& r, const Options& o) {
  return o.json ? json_text(r) + "\n" : render(r, o.lang);
}

std::string run_demo(const AnalysisConfig& c, const Options& o) {
  validate(c);
  switch (c.demo) {
    case 1: return write(kernels_report(c), o);
    case 2: return write(prefill_report(c), o);
    case 3: return write(decode_report(c), o);
    default: return write(ablation_report(c), o);
  }
}

// --emit: the graph after one pipeline stage, or the fused kernels.
int emit(const Options& o) {
  AnalysisConfig c = o.config_for(o.phase == "decode" ? 3 : 2);
  // The same graph demos 2 and 3 build: batch, dtypes and --layers included.
  const Graph g = c.traced_graph(o.phase == "decode");
  const Binding bind = c.binding();
  if (o.emit == "kernels") {
    Partition p = make_partition(PartitionId::FusedFlash, g, bind, c.hw);
    for (size_t i = 0; i < p.kernels.size(); ++i) {
      const Kernel& k = p.kernels[i];
      std::printf("kernel %zu  %s  %s  read %s  written %s  %s\n", i, std::string(kernel_kind_name(k.kind)).c_str(),
                  k.label.c_str(), fmt_bytes(static_cast<double>(k.reads)).c_str(),
                  fmt_bytes(static_cast<double>(k.writes)).c_str(), fmt_time(kernel_time(k, c.hw)).c_str());
      for (NodeId id : k.nodes) std::printf("    %s\n", node_str(*p.graph, id).c_str());
      for (const KernelEdge& e : k.ends)
        std::printf("    -> %%%d to %s: %s\n", e.tensor, e.consumer < 0 ? "output" : ("kernel " + std::to_string(e.consumer)).c_str(),
                    std::string(boundary_name(e.why)).c_str());
    }
    return 0;
  }
  for (const StageResult& s : run_pipeline(g))
    if (stage_name(s.stage) == o.emit) {
      std::printf("# %s: %zu nodes, %d rewrites\n%s", o.emit.c_str(), s.graph.size(), s.rewrites, dump(s.graph).c_str());
      return 0;
    }
  throw UsageError("--emit: unknown stage '" + o.emit + "' (see --help)");
}

// --sweep: the partitions' totals at each point (the four, then --compiler's), as a table or JSON.
int print_sweep(const Options& o) {
  if (!o.demo_given || (o.demos.front() != 2 && o.demos.front() != 3))
    throw UsageError("--sweep: needs --demo 2 (prefill) or --demo 3 (decode)");
  Sweep s;
  const AnalysisConfig c = o.config_for(o.demos.front());
  try {
    s = sweep(c, *o.sweep);
  } catch (const ConfigError& e) {
    throw UsageError("--sweep: " + e.message(Lang::En));
  }
  if (o.json) {
    std::cout << json_text(s) << "\n";
    return 0;
  }
  std::vector<std::string> columns{std::string(sweep_key_name(s.key))};
  for (PartitionId id : s.partitions) columns.push_back(std::string(partition_key(id)));
  std::vector<std::vector<std::string>> rows;
  for (const SweepPoint& p : s.points) {
    std::vector<std::string> row{std::to_string(p.value)};
    for (const GraphCost& g : p.partitions) row.push_back(fmt_time(g.t_total));
    rows.push_back(std::move(row));
  }
  std::cout << render_table(columns, rows) << "\n";
  const std::vector<Crossing> found = crossings(s);
  for (const Crossing& x : found) std::cout << crossing_sentence(x, s, o.lang) << "\n";
  for (PartitionId id : s.partitions)
    if (std::none_of(found.begin(), found.end(), [id](const Crossing& x) { return x.partition == id; }))
      std::cout << no_crossing_sentence(s, id, o.lang) << "\n";
  std::cout << cost_model_note(c, o.lang) << "\n";
  return 0;
}

// A profile's per-op errors, roofline and calibrated, and its GPU's calibration.
std::string render(const OpProfile& profile, const ProfileValidation& v, Lang l) {
  std::vector<std::vector<std::string>> table;
  for (const OpSummary& s : v.summary) {
    table.push_back({std::string(profiled_op_name(s.op)), std::to_string(s.rows), fmt_percent(s.median_error), fmt_percent(s.p90_error)});
    if (v.calibration) {
      table.back().push_back(fmt_percent(*s.calibrated_median_error));
      table.back().push_back(fmt_percent(*s.calibrated_p90_error));
    }
  }
  std::vector<std::string> columns{T(Text::ValColOp, l), T(Text::ValColRows, l), T(Text::ValColMedian, l), T(Text::ValColP90, l)};
  if (v.calibration) {
    columns.push_back(T(Text::ValColCalMedian, l));
    columns.push_back(T(Text::ValColCalP90, l));
  }
  return render_header(tr(Text::ValTitle, l, {profile.gpu, profile.model, std::to_string(profile.rows.size())})) +
         render_table(columns, table) + "\n" + T(Text::ValNote, l) + "\n" +
         calibration_sentence(v.calibration, profile.config.hardware_key, l) + "\n";
}

// --compare-compilers: every measured torch.compile run beside our model of its compiler.
// --validate FILE.csv: a measured per-op profile beside our roofline. The
// whole file is read and checked before anything prints.
int print_validation(const Options& o) {
  std::ifstream in(o.validate, std::ios::binary);
  if (!in) throw UsageError("--validate: cannot read '" + o.validate + "'");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  OpProfile profile;
  try {
    profile = parse_op_profile(text);
  } catch (const ProfileError& e) {
    std::cerr << o.validate << ":" << e.line << ": " << e.what() << "\n";
    return 2;
  }
  const ProfileValidation v = validate_profile(profile);
  if (o.json) {
    std::cout << json_text(ValidatedProfile{profile, v}) << "\n";
    return 0;
  }
  std::cout << render(profile, v, o.lang);
  return 0;
}

// --reality: every shipped profile beside our models, what they show, and published end-to-end speeds.
int print_reality(const Options& o) {
  const RealityReport r = reality_report(o.lang);
  if (o.json) {
    std::cout << json_text(r) << "\n";
    return 0;
  }
  for (const RealityProfile& p : r.profiles)
    std::cout << render(p.shipped->profile, p.validation, o.lang) << observations(p.findings, o.lang);
  std::vector<Observation> speeds;
  for (const EndToEndCheck& e : r.end_to_end) speeds.push_back(e.finding);
  std::cout << "\n" << observations(speeds, o.lang);
  return 0;
}

// --lineup: one layer under every compiler, each step of its code beside the kernels that compute it.
int print_lineup(const Options& o) {
  if (!o.demo_given || (o.demos.front() != 2 && o.demos.front() != 3))
    throw UsageError("--lineup: needs --demo 2 (prefill) or --demo 3 (decode)");
  const LineupReport r = lineup_report(o.config_for(o.demos.front()));
  if (o.json) {
    std::cout << json_text(r) << "\n";
    return 0;
  }
  std::vector<std::string> head{T(Text::ColPartition, o.lang), T(Text::ColKernels, o.lang), T(Text::ColHbm, o.lang),
                                time_term(r.config.hw, o.lang), T(Text::ColTotal, o.lang)};
  std::vector<std::vector<std::string>> totals;
  for (const PartitionReport& p : r.columns)
    totals.push_back({std::string(partition_key(p.id)) + "  " + p.name, std::to_string(p.cost.kernels),
                      bytes(p.cost.bytes), fmt_time(p.cost.t), fmt_time(p.cost.t_total)});
  std::vector<std::string> steps{T(Text::LineupStep, o.lang)};
  for (const PartitionReport& p : r.columns) steps.push_back(std::string(partition_key(p.id)));
  std::vector<std::vector<std::string>> rows;
  for (const LineupRow& row : r.rows) {
    std::vector<std::string> cells{row.text};
    for (const std::vector<int>& ks : row.kernels) cells.push_back(lineup_cell(ks, o.lang));
    rows.push_back(std::move(cells));
  }
  std::cout << render_header(r.title) << render_table(head, totals) << "\n" << render_table(steps, rows) << "\n";
  for (const LineupMeasured& m : r.measured) std::cout << m.text << "\n";
  std::cout << cost_model_note(r.config, o.lang) << "\n" << observations(r.observations, o.lang);
  return 0;
}

// Why a kernel's values leave it, reason by reason: "extern → 1, 3; output".
std::string ends_cell(const std::vector<KernelEdge>& ends) {
  std::string out;
  for (const EndsOfReason& r : ends_by_reason(ends)) {
    std::string_view name = boundary_name(r.why);
    if (name.starts_with("inductor_")) name.remove_prefix(9);
    out.append(out.empty() ? "" : "; ").append(name);
    for (size_t i = 0; i < r.readers.size(); ++i) out.append(i == 0 ? " → " : ", ").append(std::to_string(r.readers[i]));
  }
  return out;
}

// --compare-compilers --run ID: one run's launches beside our kernels.
int print_run(const CompilerComparison& c, const Options& o) {
  const auto r = std::find_if(c.runs.begin(), c.runs.end(), [&](const RunComparison& r) { return r.run->id == o.run; });
  if (r == c.runs.end()) {
    std::string ids;
    for (const RunComparison& x : c.runs) ids.append(ids.empty() ? "" : ", ").append(x.run->id);
    throw UsageError("--run: no modelled run '" + o.run + "' (one of: " + ids + ")");
  }
  if (o.json) {
    std::cout << json_text(*r) << "\n";
    return 0;
  }
  const Lang l = o.lang;
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r->kernel_rows.size(); ++i) {
    const KernelComparison& k = r->kernel_rows[i];
    rows.push_back({std::to_string(i), k.launch, k.label, fmt_time(k.predicted_us * 1e-6),
                    k.measured_us ? fmt_time(*k.measured_us * 1e-6) : "-", ends_cell(k.ends)});
  }
  std::cout << render_header(r->run->id)
            << render_table({T(Text::ColIndex, l), T(Text::CmpColLaunch, l), T(Text::ColOps, l), T(Text::ColRoofline, l),
                             T(Text::CmpColMeasured, l), T(Text::CmpColEnds, l)},
                            rows)
            << "\n"
            << tr(Text::ObsMeasuredSplit, l,
                  {fmt_time(r->triton_measured_us * 1e-6), fmt_time(r->triton_predicted_us * 1e-6),
                   fmt_time(r->extern_measured_us * 1e-6), fmt_time(r->extern_predicted_us * 1e-6)})
            << "\n"
            << tr(Text::CmpSource, l, {std::string(kH200InductorSource)}) << "\n";
  return 0;
}

int print_comparison(const Options& o) {
  const CompilerComparison c = compare_with_measured();
  if (!o.run.empty()) return print_run(c, o);
  if (o.json) {
    std::cout << json_text(c) << "\n";
    return 0;
  }
  const Lang l = o.lang;
  std::vector<std::vector<std::string>> rows;
  for (const RunComparison& r : c.runs)
    rows.push_back({r.run->id, r.compiler, std::to_string(r.kernels) + " / " + std::to_string(r.measured_kernels),
                    fmt_time(r.predicted_s), fmt_time(r.measured_s), fmt_fixed(r.ratio(), 2), fmt_time(r.predicted_graph_s),
                    fmt_time(r.measured_graph_s), fmt_fixed(r.graph_ratio(), 2),
                    r.calibrated_s ? fmt_time(*r.calibrated_s) : "-", r.calibrated_s ? fmt_fixed(*r.calibrated_ratio(), 2) : "-"});
  std::cout << render_header(T(Text::CmpTitle, l))
            << render_table({T(Text::CmpColRun, l), T(Text::CmpColCompiler, l), T(Text::CmpColKernels, l),
                             T(Text::CmpColPredicted, l), T(Text::CmpColMeasured, l), T(Text::CmpColRatio, l),
                             T(Text::CmpColGraphPredicted, l), T(Text::CmpColGraphMeasured, l), T(Text::CmpColRatio, l),
                             T(Text::CmpColCalibrated, l), T(Text::CmpColCalibratedRatio, l)},
                            rows)
            << "\n"
            << tr(Text::CmpMedian, l, {fmt_fixed(c.median_ratio, 2), fmt_fixed(c.median_graph_ratio, 2), std::to_string(c.runs.size())})
            << "\n";
  if (c.median_calibrated_ratio)
    if (const std::optional<FittedCalibration> fitted = calibration_for(c.hardware_key)) {
      const Calibration& cal = fitted->calibration;
      std::cout << tr(Text::CmpCalibrated, l, {c.hardware_key, fmt_percent(cal.matmul_efficiency), fmt_percent(cal.matmul_bandwidth_efficiency),
                                               fmt_time(cal.fixed_s), fmt_fixed(*c.median_calibrated_ratio, 2),
                                               c.median_calibrated_prefill ? fmt_fixed(*c.median_calibrated_prefill, 2) : "-",
                                               c.median_calibrated_decode ? fmt_fixed(*c.median_calibrated_decode, 2) : "-",
                                               fmt_percent(cal.bandwidth_efficiency), fmt_time(cal.matmul_fixed_s)})
                << "\n";
    }
  if (c.decode_fixed_per_kernel > 0)
    std::cout << tr(Text::CmpFixedMore, l, {fmt_time(c.decode_fixed_per_kernel), fmt_time(c.decode_graph_fixed_per_kernel),
                                            fmt_time(c.launch_s), fmt_time(c.graph_launch_s)});
  else
    std::cout << tr(Text::CmpFixedNone, l, {fmt_time(c.decode_fixed_per_kernel)});
  std::cout << "\n";
  if (!c.not_modelled.empty()) {
    std::string ids;
    for (const std::string& id : c.not_modelled) ids.append(ids.empty() ? "" : ", ").append(id);
    std::cout << tr(Text::CmpNotModelled, l, {ids}) << "\n";
  }
  std::cout << tr(Text::CmpSource, l, {std::string(kH200InductorSource)}) << "\n";
  return 0;
}

// --rules: the merge rules table, as the grouping step reads it.
int print_rules(const Options& o) {
  using namespace fusion;
  if (o.json) {
    std::cout << merge_rules_json() << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const MergeRule& r : merge_rules())
    rows.push_back({std::string(kernel_kind_name(r.producer)), std::string(consumer_kind_name(r.consumer)),
                    r.allowed ? tr(Text::RuleJoins, o.lang, {T(space_match_text(r.space), o.lang), T(merge_switch_text(r.needs), o.lang)})
                              : tr(Text::RuleNever, o.lang, {T(boundary_text(r.refused), o.lang)})});
  std::cout << render_header(T(Text::RulesTitle, o.lang))
            << render_table({T(Text::ColProducerKernel, o.lang), T(Text::ColConsumer, o.lang), T(Text::ColVerdict, o.lang)}, rows)
            << "\n" << T(Text::RulesOrder, o.lang) << "\n";
  return 0;
}

// `--ablation`'s table: a row the model cannot compute says why beside its name.
std::string our_ablation_table(const OurAblationReport& r, Lang lang) {
  AblationTable t = ablation_table(r, lang);
  for (size_t i = 0; i < r.rows.size(); ++i)
    if (!r.rows[i].not_modelled.empty()) t.rows[i][0] += " (" + r.rows[i].not_modelled + ")";
  return render_table(t.columns, t.rows);
}

// --print-model NAME: the preset's layer as source, which --model-file reads back.
int print_model(const Options& o) {
  const ModelPreset* m = find_model(o.print_model);
  if (!m) {
    std::string names;
    for (const ModelPreset& p : model_presets()) names.append(names.empty() ? "" : ", ").append(p.key);
    throw UsageError("--print-model: no model '" + o.print_model + "' (one of: " + names + ")");
  }
  std::cout << lang::llama_source(m->layer, std::string(m->name) + ": " + std::string(m->source));
  return 0;
}

int run(const std::vector<std::string>& args) {
  Options o = parse_args(args);
  if (o.help) {
    std::cout << usage();
    return 0;
  }
  if (!o.print_model.empty()) return print_model(o);
  if (!o.emit.empty()) return emit(o);
  if (o.rules) return print_rules(o);
  if (o.compare_compilers) return print_comparison(o);
  if (!o.validate.empty()) return print_validation(o);
  if (o.reality) return print_reality(o);
  if (o.lineup) return print_lineup(o);
  if (o.sweep) return print_sweep(o);
  if (o.ablation) {
    const AnalysisConfig c = o.config_for(2);
    const OurAblationReport r = our_ablation_report(c);
    if (o.json) {
      std::cout << json_text(r) << "\n";
    } else {
      std::cout << render_header(r.title) << our_ablation_table(r, o.lang) << "\n";
      if (!r.measured_source.empty()) {
        std::cout << r.measured_source << "\n";
        for (const std::string& note : r.measured_notes) std::cout << "- " << note << "\n";
        for (const OurAblationRow& row : r.rows)
          if (!row.versus_measured.empty()) std::cout << "- " << row.setting << ": " << row.versus_measured << "\n";
        std::cout << "\n";
      }
      std::cout << cost_model_note(c, o.lang) << "\n";
    }
    return 0;
  }
  // One demo at a time, each printed and let go before the next: a whole
  // model's demos computed together held all their graphs at once (whole
  // 405B: 102 MB at once, 44 MB one by one, for 0.55 s -> 0.8 s).
  for (int demo : o.demos) std::cout << run_demo(o.config_for(demo), o) << std::flush;
  return 0;
}

}  // namespace
}  // namespace fl::cli

int main(int argc, char** argv) {
  try {
    return fl::cli::run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const fl::cli::UsageError& e) {
    std::fprintf(stderr, "fusionlab: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fusionlab: error: %s\n", e.what());
    return 1;
  }
}
