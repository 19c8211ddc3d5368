#include "core/report_json.h"

#include "core/demos/demos.h"
#include "core/measured/cost_model.h"

namespace fl {

using nlohmann::json;

json to_json(const AnalysisConfig& c) {
  json j = {{"d", c.model.d},
          {"heads", c.model.H},
          {"kv_heads", c.model.G},
          {"head_dim", c.model.dh},
          {"ffn", c.model.f},
          {"tokens", c.tokens},
          {"kv_len", c.kv_len},
          {"batch", c.batch},
          {"layers", c.layers},
          {"whole_model", c.whole_model},
          {"vocab", c.vocab},
          {"dtype", dtype_name(c.act)},
          {"weights_dtype", dtype_name(c.weights)},
          {"attention", attention_form_key(c.traced_attention())},
          {"model", c.model_key},
          {"model_name", demos::model_name(c, c.lang)},
          {"hardware", c.hardware_key},
          {"hardware_name", demos::hardware_name(c, c.lang)},
          {"hw", {{"matmul_flops", c.hw.matmul_flops}, {"other_flops", c.hw.other_flops}, {"bandwidth", c.hw.bandwidth},
                  {"launch", c.hw.launch}, {"graph_launch", c.hw.graph_launch}, {"memory", c.hw.memory}}}};
  if (c.shown_compiler() != Compiler::Lecture) j["compiler"] = compiler_key(c.shown_compiler());  // the lecture's JSON as before
  if (c.cost != CostModel::Roofline) {  // the roofline's JSON as before
    j["cost"] = cost_model_key(c.cost);
    j["cost_used"] = cost_model_key(cost_model_of(c.hw));  // the roofline where the GPU has no calibration
    j["cost_note"] = cost_model_note(c, c.lang);
    const Achieved& a = c.hw.achieved;
    j["hw"]["achieved"] = {{"matmul", a.matmul}, {"vector", a.vector}, {"bandwidth", a.bandwidth},
                           {"matmul_bandwidth", a.matmul_bandwidth}, {"kernel_s", a.kernel_s}, {"matmul_kernel_s", a.matmul_kernel_s}};
  }
  return j;
}

json to_json(const KernelReport& k) {
  // Built key by key in sorted order (each insert lands at the end of the
  // map): a whole model has ~10k kernels, and an initializer list copies
  // every value once more.
  json j(json::value_t::object);
  json::object_t& o = *j.get_ptr<json::object_t*>();
  auto put = [&o](const char* key, json value) { o.emplace_hint(o.end(), key, std::move(value)); };
  if (k.detail) {
    put("code", k.code);
    json ends = json::array();
    for (const KernelEndReport& e : k.ends)
      ends.push_back({{"tensor", e.tensor}, {"consumer", e.consumer}, {"why", boundary_name(e.why)}, {"text", e.text}});
    put("ends", std::move(ends));
  }
  put("flops", k.flops);
  put("index", k.index);
  put("kind", kernel_kind_name(k.kind));
  put("label", k.label);
  if (!k.name.empty()) put("name", k.name);
  if (k.detail) put("node_list", k.node_list);
  put("nodes", k.nodes);
  put("reads", k.reads);
  put("t", k.t);
  put("t_compute", k.t_compute);
  put("t_memory", k.t_memory);
  put("writes", k.writes);
  return j;
}

json to_json(const PartitionReport& p) {
  json list = json::array();
  for (const KernelReport& k : p.kernels) list.push_back(to_json(k));
  return {{"id", partition_key(p.id)},
          {"name", p.name},
          {"kernels", p.cost.kernels},
          {"bytes", p.cost.bytes},
          {"flops", p.cost.flops},
          {"t", p.cost.t},
          {"overhead", p.cost.overhead},
          {"t_total", p.cost.t_total},
          {"overhead_share", p.overhead_share},
          {"speedup", p.speedup},
          {"tokens_per_s", p.tokens_per_s},
          {"kernel_list", std::move(list)}};
}

json to_json(const MemoryReport& m) {
  return {{"weights", m.weights}, {"kv_cache", m.kv_cache}, {"total", m.total}, {"capacity", m.capacity},
          {"fits", m.fits},       {"gpus", m.gpus},         {"text", m.text}};
}

json to_json(const std::vector<Observation>& observations) {
  json out = json::array();
  for (const Observation& o : observations) out.push_back({{"id", o.id}, {"text", o.text}});
  return out;
}

json to_json(const PhaseReport& r) {
  json partitions = json::array();
  for (const PartitionReport& p : r.partitions) partitions.push_back(to_json(p));
  json j = {{"demo", r.demo},
            {"title", r.title},
            {"phase", r.decode() ? "decode" : "prefill"},
            {"config", to_json(r.config)},
            {"partitions", std::move(partitions)},
            {"memory", to_json(r.memory)},
            {"observations", to_json(r.observations)}};
  if (r.decode()) {
    j["weight_bytes"] = r.weight_bytes;
    j["kv_cache_bytes"] = r.kv_cache_bytes;
  } else {
    json slowest = json::array();
    for (const KernelReport& k : r.slowest) slowest.push_back(to_json(k));
    j["slowest"] = std::move(slowest);
    j["score_bytes"] = r.score_bytes;
  }
  return j;
}

namespace {

json to_json(const GraphNodeReport& n) {
  // Key by key in sorted order, each insert at the map's end: a whole model
  // has ~50k nodes over its stages.
  json j(json::value_t::object);
  json::object_t& o = *j.get_ptr<json::object_t*>();
  auto put = [&o](const char* key, json value) { o.emplace_hint(o.end(), key, std::move(value)); };
  put("change", node_change_name(n.change));
  put("id", n.id);
  json inputs(json::value_t::array);
  for (NodeId in : n.inputs) inputs.push_back(in);
  put("inputs", std::move(inputs));
  put("kernel", n.kernel);
  put("op", op_name(n.op));
  put("source", n.source());
  put("text", n.text);
  put("view", n.view());
  return j;
}

json to_json(const StageReport& s) {
  json nodes = json::array();
  nodes.get_ref<json::array_t&>().reserve(s.nodes.size());
  for (const GraphNodeReport& n : s.nodes) nodes.push_back(to_json(n));
  return {{"stage", stage_name(s.stage)}, {"nodes", std::move(nodes)}, {"node_count", s.nodes.size()},
          {"rewrites", s.rewrites},       {"added", s.added},            {"rewritten", s.rewritten},
          {"removed", s.removed}};
}

}  // namespace

namespace {

// Demo 1's report with `stages` as given.
json kernels_report_json(const KernelsReport& r, json stages) {
  json kernels = json::array();
  for (const KernelReport& k : r.kernels) kernels.push_back(to_json(k));
  return {{"demo", 1},
          {"title", r.title},
          {"config", to_json(r.config)},
          {"kernels", std::move(kernels)},
          {"stages", std::move(stages)},
          {"unfused", {{"kernels", r.unfused.kernels}, {"bytes", r.unfused.bytes}}},
          {"fused", {{"kernels", r.fused.kernels}, {"bytes", r.fused.bytes}}},
          {"summary", r.summary},
          {"observations", to_json(r.observations)}};
}

}  // namespace

json to_json(const KernelsReport& r) {
  json stages = json::array();
  for (const StageReport& s : r.stages) stages.push_back(to_json(s));
  return kernels_report_json(r, std::move(stages));
}

void append_json(std::string& out, const KernelsReport& r) {
  // The report with no stages, then the stages written in where their empty
  // array is. The key cannot occur elsewhere in that text: a string's quotes
  // are escaped, and no other object has a "stages" key.
  const std::string rest = kernels_report_json(r, json::array()).dump();
  constexpr std::string_view kEmptyStages = "\"stages\":[]";
  const size_t at = rest.find(kEmptyStages);
  out.append(rest, 0, at).append("\"stages\":[");
  for (size_t i = 0; i < r.stages.size(); ++i) {
    if (i) out += ',';
    out += to_json(r.stages[i]).dump();
  }
  out.append("]").append(rest, at + kEmptyStages.size());
}

namespace {
json to_json(const std::optional<MeasuredAblationCell>& m) {
  if (!m) return nullptr;
  return {{"speedup", m->speedup}, {"launches", m->launches}, {"compiled_ms", m->compiled_ms}, {"eager_ms", m->eager_ms}};
}
}  // namespace

json to_json(const OurAblationReport& r) {
  json rows = json::array();
  for (const OurAblationRow& o : r.rows) {
    json row;
    if (!o.not_modelled.empty()) {  // a row the model cannot compute: listed, with why
      row = {{"id", o.id}, {"setting", o.setting}, {"prefill", nullptr}, {"decode", nullptr}, {"not_modelled", o.not_modelled}};
    } else {
      row = {{"id", o.id},
             {"setting", o.setting},
             {"prefill", o.prefill},
             {"decode", o.decode},
             {"prefill_kernels", o.prefill_kernels},
             {"decode_kernels", o.decode_kernels},
             {"prefill_bytes", o.prefill_bytes},
             {"decode_bytes", o.decode_bytes}};
    }
    if (!r.measured_source.empty()) {  // under the Inductor model: the measured row, or null
      row["measured"] = {{"prefill", to_json(o.measured_prefill)}, {"decode", to_json(o.measured_decode)}};
      if (!o.versus_measured.empty()) row["versus_measured"] = o.versus_measured;
    }
    rows.push_back(std::move(row));
  }
  json out = {{"title", r.title}, {"columns", r.columns}, {"rows", std::move(rows)}};
  if (!r.measured_source.empty()) {
    out["measured_source"] = r.measured_source;
    out["measured_notes"] = r.measured_notes;
  }
  return out;
}

json to_json(const AblationReport& r) {
  json rows = json::array();
  for (const PaperAblationRow& p : r.rows)
    rows.push_back({{"id", p.id}, {"setting", p.setting}, {"inference", p.inference}, {"training", p.training}});
  return {{"demo", 4},
          {"title", r.title},
          {"source", r.source},
          {"columns", r.columns},
          {"rows", std::move(rows)},
          {"ours", to_json(r.ours)},
          {"torch_compile", r.torch_compile ? to_json(*r.torch_compile) : json(nullptr)},
          {"observations", to_json(r.observations)}};
}

namespace {
json kernel_rows_json(const RunComparison& r) {
  json rows = json::array();
  for (const KernelComparison& k : r.kernel_rows) {
    json row = {{"launch", k.launch}, {"name", k.name}, {"label", k.label}, {"predicted_us", k.predicted_us}};
    row["measured_us"] = k.measured_us ? json(*k.measured_us) : json(nullptr);
    json ends = json::array();
    for (const KernelEdge& e : k.ends)
      ends.push_back({{"consumer", e.consumer}, {"why", boundary_name(e.why)}, {"sizes", e.sizes}});  // consumer -1: the caller
    row["ends"] = std::move(ends);
    rows.push_back(std::move(row));
  }
  return rows;
}
}  // namespace

json to_json(const RunComparison& r) {
  return {{"id", r.run->id},
          {"compiler", r.compiler},
          {"kernels", r.kernels},
          {"measured_kernels", r.measured_kernels},
          {"roofline_us", r.roofline_s * 1e6},
          {"predicted_us", r.predicted_s * 1e6},
          {"measured_us", r.measured_s * 1e6},
          {"ratio", r.ratio()},
          {"predicted_graph_us", r.predicted_graph_s * 1e6},
          {"measured_graph_us", r.measured_graph_s * 1e6},
          {"graph_ratio", r.graph_ratio()},
          {"calibrated_us", r.calibrated_s ? json(*r.calibrated_s * 1e6) : json(nullptr)},
          {"calibrated_ratio", r.calibrated_s ? json(*r.calibrated_ratio()) : json(nullptr)},
          {"triton_predicted_us", r.triton_predicted_us},
          {"triton_measured_us", r.triton_measured_us},
          {"extern_predicted_us", r.extern_predicted_us},
          {"extern_measured_us", r.extern_measured_us},
          {"kernel_list", kernel_rows_json(r)}};
}

namespace {
json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
}  // namespace

json to_json(const CompilerComparison& c) {
  json runs = json::array();
  for (const RunComparison& r : c.runs) runs.push_back(to_json(r));
  return {{"source", kH200InductorSource},
          {"runs", runs},
          {"median_ratio", c.median_ratio},
          {"median_graph_ratio", c.median_graph_ratio},
          {"median_calibrated_ratio", optional_json(c.median_calibrated_ratio)},
          {"median_calibrated_prefill", optional_json(c.median_calibrated_prefill)},
          {"median_calibrated_decode", optional_json(c.median_calibrated_decode)},
          {"decode_fixed_per_kernel_us", c.decode_fixed_per_kernel * 1e6},
          {"decode_graph_fixed_per_kernel_us", c.decode_graph_fixed_per_kernel * 1e6},
          {"launch_us", c.launch_s * 1e6},
          {"graph_launch_us", c.graph_launch_s * 1e6},
          {"not_modelled", c.not_modelled}};
}

json to_json(const OpProfile& p, const ProfileValidation& v) {
  json rows = json::array(), summary = json::object();
  for (const OpValidation& r : v.rows) {
    rows.push_back({{"num_tokens", r.num_tokens}, {"op", profiled_op_name(r.op)}, {"measured_us", r.measured_us},
                    {"roofline_us", r.roofline_us}});
    if (r.calibrated_us) rows.back()["calibrated_us"] = *r.calibrated_us;
  }
  for (const OpSummary& s : v.summary) {
    json& op = summary[std::string(profiled_op_name(s.op))];
    op = {{"rows", s.rows}, {"roofline", {{"median", s.median_error}, {"p90", s.p90_error}}}};
    if (s.calibrated_median_error) op["calibrated"] = {{"median", *s.calibrated_median_error}, {"p90", *s.calibrated_p90_error}};
  }
  json calibration = nullptr;  // a GPU without a shipped profile has none
  if (v.calibration) {
    const Calibration& c = v.calibration->calibration;
    // null for an efficiency the data could not fit (no kernel bound by that side)
    auto efficiency = [](double e, bool fitted) { return fitted ? json(e) : json(nullptr); };
    calibration = {{"matmul_efficiency", efficiency(c.matmul_efficiency, c.matmul_fitted)},
                   {"vector_efficiency", efficiency(c.vector_efficiency, c.vector_fitted)},
                   {"bandwidth_efficiency", efficiency(c.bandwidth_efficiency, c.bandwidth_fitted)},
                   {"gemm_bandwidth_efficiency", efficiency(c.matmul_bandwidth_efficiency, c.matmul_bandwidth_fitted)},
                   {"fixed_us", c.fixed_s * 1e6},
                   {"gemm_fixed_us", c.matmul_fixed_fitted ? json(c.matmul_fixed_s * 1e6) : json(nullptr)},
                   {"at_peak", {{"matmul", c.matmul_at_peak}, {"vector", c.vector_at_peak}, {"bandwidth", c.bandwidth_at_peak},
                               {"gemm_bandwidth", c.matmul_bandwidth_at_peak}}},
                   {"samples", c.samples},
                   {"fitted_to", v.calibration->files},
                   {"left_out", {"attn_rope"}}};
  }
  return {{"gpu", p.gpu}, {"model", p.model}, {"rows", rows}, {"summary", summary}, {"calibration", calibration}};
}

json to_json(const RealityReport& r) {
  json profiles = json::array(), speeds = json::array();
  for (const RealityProfile& p : r.profiles) {
    json j = to_json(p.shipped->profile, p.validation);
    j["file"] = p.shipped->file;
    j["findings"] = to_json(p.findings);
    profiles.push_back(std::move(j));
  }
  for (const EndToEndCheck& e : r.end_to_end) {
    const PublishedSpeed& p = *e.published;
    speeds.push_back({{"id", p.id}, {"model", p.model_name}, {"hardware", p.hardware}, {"kv_len", p.kv_len},
                      {"measured_tokens_per_s", p.tokens_per_s}, {"measured_gb_s", p.achieved_gb_s}, {"source", p.source},
                      {"roofline_tokens_per_s", e.roofline_tokens_per_s},
                      {"calibrated_tokens_per_s", e.calibrated_tokens_per_s}, {"text", e.finding.text}});
  }
  return {{"profiles", profiles}, {"end_to_end", speeds}};
}

json to_json(const LineupReport& r) {
  json columns = json::array();
  for (const PartitionReport& p : r.columns) columns.push_back(to_json(p));
  json rows = json::array();
  for (const LineupRow& row : r.rows) {
    json cells = json::object();
    for (size_t i = 0; i < row.kernels.size(); ++i) cells[std::string(partition_key(r.columns[i].id))] = row.kernels[i];
    rows.push_back({{"id", origin_key(row.step)}, {"step", row.text}, {"kernels", std::move(cells)}});
  }
  json measured = json::array();
  for (const LineupMeasured& m : r.measured)
    measured.push_back({{"column", partition_key(m.column)}, {"run", m.run}, {"launches", m.launches},
                        {"same_names", m.same_names}, {"measured_graph_us", m.measured_graph_s * 1e6},
                        {"predicted_graph_us", m.predicted_graph_s * 1e6}, {"text", m.text}});
  return {{"demo", r.demo},
          {"title", r.title},
          {"phase", r.demo == 3 ? "decode" : "prefill"},
          {"config", to_json(r.config)},
          {"columns", std::move(columns)},
          {"rows", std::move(rows)},
          {"measured", std::move(measured)},
          {"observations", to_json(r.observations)}};
}

}  // namespace fl
