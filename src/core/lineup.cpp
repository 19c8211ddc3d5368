#include "core/lineup.h"

#include <algorithm>

#include "core/demos/demos.h"
#include "core/measured/comparison.h"
#include "core/units.h"

namespace fl {

namespace {

// The steps a kernel's own nodes do (see kernel_steps), marked in `seen`.
void mark_steps(const Graph& g, const Kernel& k, std::vector<char>& seen) {
  auto note = [&](const Node& n) {
    for (Origin o : origin_steps(n.origin)) seen[static_cast<size_t>(o)] = 1;
  };
  bool computes = false;
  for (NodeId id : k.nodes)
    if (op_kind(g.node(id).op) != OpKind::Source && op_kind(g.node(id).op) != OpKind::View) {
      note(g.node(id));
      computes = true;
    }
  // A kernel of views only is a copy: it does the step of the view it writes.
  if (!computes && !k.nodes.empty()) note(g.node(k.nodes.back()));
}

}  // namespace

std::vector<Origin> kernel_steps(const Graph& g, const std::vector<Kernel>& kernels, size_t i) {
  std::vector<char> seen(std::size(kOrigins), 0);
  mark_steps(g, kernels[i], seen);
  // A kernel the compiler adds for an op, running none of the graph's nodes
  // (SDPA's mask turned into a float bias), does the step of the kernels it feeds.
  if (kernels[i].nodes.empty())
    for (const KernelEdge& e : kernels[i].ends)
      if (e.consumer >= 0) mark_steps(g, kernels[static_cast<size_t>(e.consumer)], seen);
  std::vector<Origin> out;
  for (Origin o : kOrigins)
    if (seen[static_cast<size_t>(o)]) out.push_back(o);
  return out;
}

Text lineup_column_text(PartitionId id) {
  switch (id) {
    case PartitionId::Eager: return Text::LineupColEager;
    case PartitionId::Inductor: return Text::LineupColInductor;
    case PartitionId::GptFast: return Text::LineupColGptFast;
    default: return Text::LineupColLecture;  // the lecture's rules: its best partition
  }
}

std::string lineup_cell(const std::vector<int>& kernels, Lang l) {
  if (kernels.empty()) return std::string(tr(Text::LineupNone, l));
  std::string out;
  for (int k : kernels) out.append(out.empty() ? "" : ", ").append(std::to_string(k));
  return out;
}

namespace {

// "RMSNorm before the MLP and residual add after the MLP": the other steps kernel `k` of column `col` does.
std::string companions(const LineupReport& r, size_t col, int k, Origin step, Lang l) {
  std::vector<std::string> others;
  for (const LineupRow& row : r.rows)
    if (row.step != step && std::find(row.kernels[col].begin(), row.kernels[col].end(), k) != row.kernels[col].end())
      others.push_back(row.text);
  return list_text(others, l);
}

// Where `row`'s step went under each column, in one sentence.
Observation where_it_went(const LineupReport& r, const LineupRow& row, Lang l) {
  std::string places;
  for (size_t col = 0; col < row.kernels.size(); ++col) {
    const std::vector<int>& ks = row.kernels[col];
    std::string where;
    if (ks.empty()) {
      where = tr(Text::LineupWhereNone, l);
    } else if (ks.size() == 1) {
      const std::string with = companions(r, col, ks.front(), row.step, l);
      where = with.empty() ? tr(Text::LineupWhereOwn, l, {std::to_string(ks.front())})
                           : tr(Text::LineupWhereWith, l, {std::to_string(ks.front()), with});
    } else {
      std::string each;
      for (int k : ks) {
        const std::string with = companions(r, col, k, row.step, l);
        each.append(each.empty() ? "" : (l == Lang::Zh ? "，" : ", "))
            .append(with.empty() ? tr(Text::LineupWhereSeveralOwn, l, {std::to_string(k)})
                                 : tr(Text::LineupWhereSeveralWith, l, {std::to_string(k), with}));
      }
      where = tr(Text::LineupWhereSeveral, l, {std::to_string(ks.size()), each});
    }
    places.append(places.empty() ? "" : (l == Lang::Zh ? "；" : "; "))
        .append(tr(Text::LineupWhereIn, l, {std::string(tr(lineup_column_text(r.columns[col].id), l)), where}));
  }
  return {"where_" + std::string(origin_key(row.step)), tr(Text::LineupWhere, l, {row.text, places})};
}

}  // namespace

LineupReport lineup_report(const AnalysisConfig& config) {
  if (config.demo != 2 && config.demo != 3)
    throw ConfigError("demo", Text::ErrLineupDemo, {std::to_string(config.demo)});
  AnalysisConfig c = config;
  c.whole_model = false;
  validate(c);
  const bool decode = c.demo == 3;
  const Graph traced = c.traced_graph(decode);
  std::vector<Partition> parts;
  for (PartitionId id : kLineupPartitions) parts.push_back(make_partition(id, traced, c.binding(), c.hw));

  LineupReport r;
  r.demo = c.demo;
  r.config = c;
  r.title = tr(decode ? Text::LineupTitleDecode : Text::LineupTitlePrefill, c.lang,
               {demos::workload_name(c, c.lang), demos::costed_hardware_name(c, c.lang),
                demos::token_count(decode ? c.kv_len : c.tokens, c.lang), demos::count(c.batch)});
  r.columns = demos::partition_reports(parts, c, decode ? c.batch : c.tokens * c.batch);

  std::vector<std::vector<std::vector<int>>> cells(std::size(kOrigins), std::vector<std::vector<int>>(parts.size()));
  for (size_t col = 0; col < parts.size(); ++col)
    for (size_t k = 0; k < parts[col].kernels.size(); ++k)
      for (Origin o : kernel_steps(*parts[col].graph, parts[col].kernels, k))
        cells[static_cast<size_t>(o)][col].push_back(static_cast<int>(k));
  for (Origin o : kOrigins) {
    auto& row = cells[static_cast<size_t>(o)];
    const bool runs = std::any_of(row.begin(), row.end(), [](const std::vector<int>& ks) { return !ks.empty(); });
    if (o == Origin::None || o == Origin::Attention || !runs) continue;
    r.rows.push_back({o, std::string(tr(origin_text(o), c.lang)), std::move(row)});
  }
  for (size_t col = 0; col < parts.size(); ++col) {
    const std::optional<Compiler> compiler = partition_compiler(parts[col].id);
    if (!compiler) continue;
    AnalysisConfig as_run = c;
    as_run.compiler = *compiler;
    const MeasuredRun* run = measured_run_for(as_run, decode);
    if (!run) continue;
    const RunComparison cmp = compare_run(*run, as_run, parts[col]);
    LineupMeasured m{parts[col].id, run->id, cmp.measured_kernels, 0, cmp.measured_graph_s, cmp.predicted_graph_s, {}};
    for (const KernelComparison& k : cmp.kernel_rows) m.same_names += k.name == k.launch;
    m.text = tr(Text::LineupMeasured, c.lang,
                {r.columns[col].name, std::to_string(m.launches), std::to_string(cmp.kernels), std::to_string(m.same_names),
                 fmt_time(m.measured_graph_s), fmt_time(m.predicted_graph_s), fmt_fixed(cmp.graph_ratio(), 2), run->id});
    r.measured.push_back(std::move(m));
  }
  for (Origin step : kLineupTold)
    for (const LineupRow& row : r.rows)
      if (row.step == step) r.observations.push_back(where_it_went(r, row, c.lang));
  return r;
}

}  // namespace fl
