// fusionlab: the lecture's four fusion demos on the command line.
//
// Every table is rendered from the same JSON object that `--json` prints and
// the web page draws, so the three can never disagree.
#include <cstdio>
#include <future>
#include <iostream>

#include "cli/args.h"
#include "cli/table.h"
#include "core/demos/demos.h"
#include "core/report_json.h"
#include "core/fusion/rules.h"
#include "core/model.h"
#include "core/partitions.h"
#include "core/pipeline.h"
#include "core/crossings.h"
#include "core/sweep.h"
#include "core/units.h"

namespace fl::cli {

namespace {

using nlohmann::json;

std::string T(Text id, Lang l) { return std::string(tr(id, l)); }
std::string bytes(const json& v) { return fmt_bytes(v.get<double>()); }
std::string secs(const json& v) { return fmt_time(v.get<double>()); }

std::vector<std::string> strings(const json& arr) {
  std::vector<std::string> out;
  for (const auto& s : arr) out.push_back(s.get<std::string>());
  return out;
}

std::string render_demo(const json& j, Lang l) {
  int demo = j["demo"];
  std::string out = render_header(j["title"]);
  std::vector<std::vector<std::string>> rows;
  if (demo == 1) {
    for (const auto& k : j["kernels"])
      rows.push_back({std::to_string(k["index"].get<int>()), k["kind"], k["label"], std::to_string(k["nodes"].get<int>()),
                      bytes(k["reads"]), bytes(k["writes"])});
    out += render_table({T(Text::ColIndex, l), T(Text::ColKind, l), T(Text::ColOps, l), T(Text::ColNodes, l),
                         T(Text::ColReads, l), T(Text::ColWrites, l)}, rows);
    out += "\n" + j["summary"].get<std::string>() + "\n";
  } else if (demo == 2) {
    for (const auto& p : j["partitions"])
      rows.push_back({p["name"], std::to_string(p["kernels"].get<int>()), bytes(p["bytes"]),
                      fmt_fixed(p["flops"].get<double>() / 1e9, 0), secs(p["t"]), secs(p["t_total"]), fmt_ratio(p["speedup"])});
    out += render_table({T(Text::ColPartition, l), T(Text::ColKernels, l), T(Text::ColHbm, l), T(Text::ColGflops, l),
                         T(Text::ColRoofline, l), T(Text::ColTotal, l), T(Text::ColSpeedup, l)}, rows);
    std::vector<std::vector<std::string>> slow;
    for (const auto& k : j["slowest"]) slow.push_back({k["kind"], k["label"], bytes(k["reads"]), bytes(k["writes"]), secs(k["t"])});
    out += "\n" + T(Text::Demo2Slowest, l) + "\n";
    out += render_table({T(Text::ColKind, l), T(Text::ColOps, l), T(Text::ColReads, l), T(Text::ColWrites, l), T(Text::ColTime, l)}, slow);
  } else if (demo == 3) {
    for (const auto& p : j["partitions"])
      rows.push_back({p["name"], std::to_string(p["kernels"].get<int>()), bytes(p["bytes"]), secs(p["t"]), secs(p["overhead"]),
                      fmt_percent(p["overhead_share"]), fmt_fixed(p["tokens_per_s"], 0)});
    out += render_table({T(Text::ColPartition, l), T(Text::ColKernels, l), T(Text::ColHbm, l), T(Text::ColRoofline, l),
                         T(Text::ColOverhead, l), T(Text::ColShare, l),
                         tr(Text::ColTokens, l, {std::to_string(j["config"]["layers"].get<int>())})}, rows);
  } else {
    for (const auto& r : j["rows"]) rows.push_back({r["setting"], fmt_ratio(r["inference"]), fmt_ratio(r["training"])});
    out += render_table(strings(j["columns"]), rows);
    out += "\n" + j["source"].get<std::string>() + "\n";
  }
  if (demo != 4) out += "\n" + T(Text::RooflineNote, l) + "\n";
  return out + render_observations(T(Text::Observations, l), observation_texts(j["observations"]));
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

// --sweep: the four partitions' totals at each point, as a table or JSON.
int print_sweep(const Options& o) {
  if (!o.demo_given || (o.demos.front() != 2 && o.demos.front() != 3))
    throw UsageError("--sweep: needs --demo 2 (prefill) or --demo 3 (decode)");
  Sweep s;
  try {
    s = sweep(o.config_for(o.demos.front()), *o.sweep);
  } catch (const ConfigError& e) {
    throw UsageError("--sweep: " + e.message(Lang::En));
  }
  if (o.json) {
    std::cout << sweep_json(s).dump() << "\n";
    return 0;
  }
  std::vector<std::string> columns{std::string(sweep_key_name(s.key))};
  for (PartitionId id : kAllPartitions) columns.push_back(std::string(partition_key(id)));
  std::vector<std::vector<std::string>> rows;
  for (const SweepPoint& p : s.points) {
    std::vector<std::string> row{std::to_string(p.value)};
    for (const GraphCost& g : p.partitions) row.push_back(fmt_time(g.t_total));
    rows.push_back(std::move(row));
  }
  std::cout << render_table(columns, rows) << "\n";
  for (const Crossing& c : crossings(s)) std::cout << crossing_sentence(c, s.key, o.lang, s.hw) << "\n";
  std::cout << T(Text::RooflineNote, o.lang) << "\n";
  return 0;
}

// --rules: the merge rules table, as the grouping step reads it.
int print_rules(const Options& o) {
  using namespace fusion;
  if (o.json) {
    json rules = json::array();
    for (const MergeRule& r : merge_rules()) {
      json row = {{"producer", kernel_kind_name(r.producer)}, {"consumer", consumer_kind_name(r.consumer)}, {"allowed", r.allowed}};
      if (r.allowed) row["space"] = space_match_name(r.space), row["needs"] = merge_switch_name(r.needs);
      else row["refused"] = boundary_name(r.refused);
      rules.push_back(row);
    }
    std::cout << json{{"rules", rules}}.dump() << "\n";
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

int run(const std::vector<std::string>& args) {
  Options o = parse_args(args);
  if (o.help) {
    std::cout << usage();
    return 0;
  }
  if (!o.emit.empty()) return emit(o);
  if (o.rules) return print_rules(o);
  if (o.sweep) return print_sweep(o);
  if (o.ablation) {
    const OurAblationReport r = our_ablation_report(o.config_for(2));
    if (o.json) {
      std::cout << to_json(r).dump() << "\n";
    } else {
      std::vector<std::vector<std::string>> rows;
      for (const OurAblationRow& row : r.rows) rows.push_back({row.setting, fmt_ratio(row.prefill), fmt_ratio(row.decode)});
      std::cout << render_header(r.title) << render_table(r.columns, rows) << "\n"
                << T(Text::RooflineNote, o.lang) << "\n";
    }
    return 0;
  }
  // The demos are independent: computed and rendered concurrently (a whole
  // 405B model's demo 1 alone takes a few hundred ms), printed in order. An
  // exception in one reaches the caller through get().
  std::vector<std::future<std::string>> outputs;
  for (int demo : o.demos)
    outputs.push_back(std::async(std::launch::async, [&o, demo] {
      json j = analyze(o.config_for(demo));
      return o.json ? j.dump() + "\n" : render_demo(j, o.lang);
    }));
  for (auto& out : outputs) std::cout << out.get();
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
