#include "core/report_json.h"

#include <map>

#include "core/crossings.h"
#include "core/demos/demos.h"
#include "core/fusion/rules.h"
#include "core/measured/cost_model.h"

// Every object below lists its keys in byte order (JsonWriter checks it): the
// order a sorted map gives, in which `--json` has always printed them.

namespace fl {

// Functions of this file's own are static, not in an unnamed namespace, so
// that list() finds them by argument-dependent lookup.
namespace {

template <class T>
void list(JsonWriter& w, std::string_view key, const std::vector<T>& items) {
  w.key(key);
  w.array([&] {
    for (const T& item : items) write_json(w, item);
  });
}

}  // namespace

void write_json(JsonWriter& w, const AnalysisConfig& c) {
  const bool calibrated = c.cost != CostModel::Roofline;  // the roofline's JSON as before
  w.object([&] {
    w.field("attention", attention_form_key(c.traced_attention()));
    w.field("batch", c.batch);
    if (c.shown_compiler() != Compiler::Lecture) w.field("compiler", compiler_key(c.shown_compiler()));  // the lecture's JSON as before
    if (calibrated) {
      w.field("cost", cost_model_key(c.cost));
      w.field("cost_note", cost_model_note(c, c.lang));
      w.field("cost_used", cost_model_key(cost_model_of(c.hw)));  // the roofline where the GPU has no calibration
    }
    w.field("d", c.model.d);
    w.field("dtype", dtype_name(c.act));
    w.field("ffn", c.model.f);
    w.field("hardware", c.hardware_key);
    w.field("hardware_name", demos::hardware_name(c, c.lang));
    w.field("head_dim", c.model.dh);
    w.field("heads", c.model.H);
    w.key("hw");
    w.object([&] {
      if (calibrated) {
        const Achieved& a = c.hw.achieved;
        w.key("achieved");
        w.object([&] {
          w.field("bandwidth", a.bandwidth);
          w.field("kernel_s", a.kernel_s);
          w.field("matmul", a.matmul);
          w.field("matmul_bandwidth", a.matmul_bandwidth);
          w.field("matmul_kernel_s", a.matmul_kernel_s);
          w.field("vector", a.vector);
        });
      }
      w.field("bandwidth", c.hw.bandwidth);
      w.field("graph_launch", c.hw.graph_launch);
      w.field("launch", c.hw.launch);
      w.field("matmul_flops", c.hw.matmul_flops);
      w.field("memory", c.hw.memory);
      w.field("other_flops", c.hw.other_flops);
    });
    w.field("kv_heads", c.model.G);
    w.field("kv_len", c.kv_len);
    w.field("layers", c.layers);
    w.field("model", c.model_key);
    w.field("model_name", demos::model_name(c, c.lang));
    w.field("tokens", c.tokens);
    w.field("vocab", c.vocab);
    w.field("weights_dtype", dtype_name(c.weights));
    w.field("whole_model", c.whole_model);
  });
}

static void write_json(JsonWriter& w, const KernelEndReport& e) {
  w.object([&] {
    w.field("consumer", e.consumer);
    w.field("tensor", e.tensor);
    w.field("text", e.text);
    w.field("why", boundary_name(e.why));
  });
}

void write_json(JsonWriter& w, const KernelReport& k) {
  w.object([&] {
    if (k.detail) {
      w.field("code", k.code);
      list(w, "ends", k.ends);
    }
    w.field("flops", k.flops);
    w.field("index", k.index);
    w.field("kind", kernel_kind_name(k.kind));
    w.field("label", k.label);
    if (!k.name.empty()) w.field("name", k.name);
    if (k.detail) w.field("node_list", k.node_list);
    w.field("nodes", k.nodes);
    w.field("reads", k.reads);
    w.field("t", k.t);
    w.field("t_compute", k.t_compute);
    w.field("t_memory", k.t_memory);
    w.field("writes", k.writes);
  });
}

void write_json(JsonWriter& w, const PartitionReport& p) {
  w.object([&] {
    w.field("bytes", p.cost.bytes);
    w.field("flops", p.cost.flops);
    w.field("id", partition_key(p.id));
    list(w, "kernel_list", p.kernels);
    w.field("kernels", p.cost.kernels);
    w.field("name", p.name);
    w.field("overhead", p.cost.overhead);
    w.field("overhead_share", p.overhead_share);
    w.field("speedup", p.speedup);
    w.field("t", p.cost.t);
    w.field("t_total", p.cost.t_total);
    w.field("tokens_per_s", p.tokens_per_s);
  });
}

void write_json(JsonWriter& w, const MemoryReport& m) {
  w.object([&] {
    w.field("capacity", m.capacity);
    w.field("fits", m.fits);
    w.field("gpus", m.gpus);
    w.field("kv_cache", m.kv_cache);
    w.field("text", m.text);
    w.field("total", m.total);
    w.field("weights", m.weights);
  });
}

void write_json(JsonWriter& w, const Observation& o) {
  w.object([&] {
    w.field("id", o.id);
    w.field("text", o.text);
  });
}

void write_json(JsonWriter& w, const PhaseReport& r) {
  w.object([&] {
    w.key("config");
    write_json(w, r.config);
    w.field("demo", r.demo);
    if (r.decode()) w.field("kv_cache_bytes", r.kv_cache_bytes);
    w.key("memory");
    write_json(w, r.memory);
    list(w, "observations", r.observations);
    list(w, "partitions", r.partitions);
    w.field("phase", r.decode() ? "decode" : "prefill");
    if (!r.decode()) {
      w.field("score_bytes", r.score_bytes);
      list(w, "slowest", r.slowest);
    }
    w.field("title", r.title);
    if (r.decode()) w.field("weight_bytes", r.weight_bytes);
  });
}

static void write_json(JsonWriter& w, const GraphNodeReport& n) {
  w.object([&] {
    w.field("change", node_change_name(n.change));
    w.field("id", n.id);
    w.field("inputs", n.inputs);
    w.field("kernel", n.kernel);
    w.field("op", op_name(n.op));
    w.field("source", n.source());
    w.field("text", n.text);
    w.field("view", n.view());
  });
}

static void write_json(JsonWriter& w, const StageReport& s) {
  w.object([&] {
    w.field("added", s.added);
    w.field("node_count", s.nodes.size());
    list(w, "nodes", s.nodes);
    w.field("removed", s.removed);
    w.field("rewrites", s.rewrites);
    w.field("rewritten", s.rewritten);
    w.field("stage", stage_name(s.stage));
  });
}

static void write_json(JsonWriter& w, const KernelCount& k) {
  w.object([&] {
    w.field("bytes", k.bytes);
    w.field("kernels", k.kernels);
  });
}

void write_json(JsonWriter& w, const KernelsReport& r) {
  w.object([&] {
    w.key("config");
    write_json(w, r.config);
    w.field("demo", 1);
    w.key("fused");
    write_json(w, r.fused);
    list(w, "kernels", r.kernels);
    list(w, "observations", r.observations);
    list(w, "stages", r.stages);
    w.field("summary", r.summary);
    w.field("title", r.title);
    w.key("unfused");
    write_json(w, r.unfused);
  });
}

static void write_json(JsonWriter& w, const std::optional<MeasuredAblationCell>& m) {
  if (!m) return w.null();
  w.object([&] {
    w.field("compiled_ms", m->compiled_ms);
    w.field("eager_ms", m->eager_ms);
    w.field("launches", m->launches);
    w.field("speedup", m->speedup);
  });
}

// One row of our ablation; `measured`: the report sets the measured rows beside ours.
static void write_row(JsonWriter& w, const OurAblationRow& o, bool measured) {
  const bool computed = o.not_modelled.empty();  // else listed, with why, and null figures
  w.object([&] {
    if (computed) {
      w.field("decode", o.decode);
      w.field("decode_bytes", o.decode_bytes);
      w.field("decode_kernels", o.decode_kernels);
    } else {
      w.field("decode", nullptr);
    }
    w.field("id", o.id);
    if (measured) {  // under the Inductor model: the measured row, or null
      w.key("measured");
      w.object([&] {
        w.key("decode");
        write_json(w, o.measured_decode);
        w.key("prefill");
        write_json(w, o.measured_prefill);
      });
    }
    if (computed) {
      w.field("prefill", o.prefill);
      w.field("prefill_bytes", o.prefill_bytes);
      w.field("prefill_kernels", o.prefill_kernels);
    } else {
      w.field("not_modelled", o.not_modelled);
      w.field("prefill", nullptr);
    }
    w.field("setting", o.setting);
    if (measured && !o.versus_measured.empty()) w.field("versus_measured", o.versus_measured);
  });
}

void write_json(JsonWriter& w, const OurAblationReport& r) {
  const bool measured = !r.measured_source.empty();
  w.object([&] {
    w.field("columns", r.columns);
    if (measured) {
      w.field("measured_notes", r.measured_notes);
      w.field("measured_source", r.measured_source);
    }
    w.key("rows");
    w.array([&] {
      for (const OurAblationRow& o : r.rows) write_row(w, o, measured);
    });
    w.field("title", r.title);
  });
}

static void write_json(JsonWriter& w, const PaperAblationRow& p) {
  w.object([&] {
    w.field("id", p.id);
    w.field("inference", p.inference);
    w.field("setting", p.setting);
    w.field("training", p.training);
  });
}

void write_json(JsonWriter& w, const AblationReport& r) {
  w.object([&] {
    w.field("columns", r.columns);
    w.field("demo", 4);
    list(w, "observations", r.observations);
    w.key("ours");
    write_json(w, r.ours);
    list(w, "rows", r.rows);
    w.field("source", r.source);
    w.field("title", r.title);
    w.key("torch_compile");
    if (r.torch_compile) write_json(w, *r.torch_compile);
    else w.null();
  });
}

static void write_json(JsonWriter& w, const KernelEdge& e) {
  w.object([&] {
    w.field("consumer", e.consumer);  // -1: the caller
    w.key("sizes");
    w.array([&] {
      for (int64_t s : e.sizes) w.value(s);
    });
    w.field("why", boundary_name(e.why));
  });
}

static void write_json(JsonWriter& w, const KernelComparison& k) {
  w.object([&] {
    list(w, "ends", k.ends);
    w.field("label", k.label);
    w.field("launch", k.launch);
    w.field("measured_us", k.measured_us);
    w.field("name", k.name);
    w.field("predicted_us", k.predicted_us);
  });
}

static std::optional<double> in_us(const std::optional<double>& s) {
  if (!s) return std::nullopt;
  return *s * 1e6;
}

void write_json(JsonWriter& w, const RunComparison& r) {
  w.object([&] {
    w.field("calibrated_ratio", r.calibrated_s ? r.calibrated_ratio() : std::nullopt);
    w.field("calibrated_us", in_us(r.calibrated_s));
    w.field("compiler", r.compiler);
    w.field("extern_measured_us", r.extern_measured_us);
    w.field("extern_predicted_us", r.extern_predicted_us);
    w.field("graph_ratio", r.graph_ratio());
    w.field("id", r.run->id);
    list(w, "kernel_list", r.kernel_rows);
    w.field("kernels", r.kernels);
    w.field("measured_graph_us", r.measured_graph_s * 1e6);
    w.field("measured_kernels", r.measured_kernels);
    w.field("measured_us", r.measured_s * 1e6);
    w.field("predicted_graph_us", r.predicted_graph_s * 1e6);
    w.field("predicted_us", r.predicted_s * 1e6);
    w.field("ratio", r.ratio());
    w.field("roofline_us", r.roofline_s * 1e6);
    w.field("triton_measured_us", r.triton_measured_us);
    w.field("triton_predicted_us", r.triton_predicted_us);
  });
}

void write_json(JsonWriter& w, const CompilerComparison& c) {
  w.object([&] {
    w.field("decode_fixed_per_kernel_us", c.decode_fixed_per_kernel * 1e6);
    w.field("decode_graph_fixed_per_kernel_us", c.decode_graph_fixed_per_kernel * 1e6);
    w.field("graph_launch_us", c.graph_launch_s * 1e6);
    w.field("launch_us", c.launch_s * 1e6);
    w.field("median_calibrated_decode", c.median_calibrated_decode);
    w.field("median_calibrated_prefill", c.median_calibrated_prefill);
    w.field("median_calibrated_ratio", c.median_calibrated_ratio);
    w.field("median_graph_ratio", c.median_graph_ratio);
    w.field("median_ratio", c.median_ratio);
    w.field("not_modelled", c.not_modelled);
    list(w, "runs", c.runs);
    w.field("source", kH200InductorSource);
  });
}

static void write_json(JsonWriter& w, const OpValidation& r) {
  w.object([&] {
    if (r.calibrated_us) w.field("calibrated_us", *r.calibrated_us);
    w.field("measured_us", r.measured_us);
    w.field("num_tokens", r.num_tokens);
    w.field("op", profiled_op_name(r.op));
    w.field("roofline_us", r.roofline_us);
  });
}

static void write_error(JsonWriter& w, double median, double p90) {
  w.object([&] {
    w.field("median", median);
    w.field("p90", p90);
  });
}

static void write_json(JsonWriter& w, const OpSummary& s) {
  w.object([&] {
    if (s.calibrated_median_error) {
      w.key("calibrated");
      write_error(w, *s.calibrated_median_error, *s.calibrated_p90_error);
    }
    w.key("roofline");
    write_error(w, s.median_error, s.p90_error);
    w.field("rows", s.rows);
  });
}

static void write_json(JsonWriter& w, const FittedCalibration& f) {
  const Calibration& c = f.calibration;
  // null for an efficiency the data could not fit (no kernel bound by that side)
  auto efficiency = [](double e, bool fitted) { return fitted ? std::optional<double>(e) : std::nullopt; };
  w.object([&] {
    w.key("at_peak");
    w.object([&] {
      w.field("bandwidth", c.bandwidth_at_peak);
      w.field("gemm_bandwidth", c.matmul_bandwidth_at_peak);
      w.field("matmul", c.matmul_at_peak);
      w.field("vector", c.vector_at_peak);
    });
    w.field("bandwidth_efficiency", efficiency(c.bandwidth_efficiency, c.bandwidth_fitted));
    w.field("fitted_to", f.files);
    w.field("fixed_us", c.fixed_s * 1e6);
    w.field("gemm_bandwidth_efficiency", efficiency(c.matmul_bandwidth_efficiency, c.matmul_bandwidth_fitted));
    w.field("gemm_fixed_us", c.matmul_fixed_fitted ? std::optional<double>(c.matmul_fixed_s * 1e6) : std::nullopt);
    w.key("left_out");
    w.array([&] { w.value("attn_rope"); });
    w.field("matmul_efficiency", efficiency(c.matmul_efficiency, c.matmul_fitted));
    w.field("samples", c.samples);
    w.field("vector_efficiency", efficiency(c.vector_efficiency, c.vector_fitted));
  });
}

// The profile's fields, in an object the caller opens (--reality adds its own).
static void write_profile_fields(JsonWriter& w, const OpProfile& p, const ProfileValidation& v, const RealityProfile* reality) {
  w.key("calibration");
  if (v.calibration) write_json(w, *v.calibration);  // a GPU without a shipped profile has none
  else w.null();
  if (reality) {
    w.field("file", reality->shipped->file);
    list(w, "findings", reality->findings);
  }
  w.field("gpu", p.gpu);
  w.field("model", p.model);
  list(w, "rows", v.rows);
  std::map<std::string_view, const OpSummary*> by_op;  // keyed by the op's name, the last of a name kept
  for (const OpSummary& s : v.summary) by_op[profiled_op_name(s.op)] = &s;
  w.key("summary");
  w.object([&] {
    for (const auto& [op, s] : by_op) {
      w.key(op);
      write_json(w, *s);
    }
  });
}

void write_json(JsonWriter& w, const ValidatedProfile& p) {
  w.object([&] { write_profile_fields(w, p.profile, p.validation, nullptr); });
}

static void write_json(JsonWriter& w, const RealityProfile& p) {
  w.object([&] { write_profile_fields(w, p.shipped->profile, p.validation, &p); });
}

static void write_json(JsonWriter& w, const EndToEndCheck& e) {
  const PublishedSpeed& p = *e.published;
  w.object([&] {
    w.field("calibrated_tokens_per_s", e.calibrated_tokens_per_s);
    w.field("hardware", p.hardware);
    w.field("id", p.id);
    w.field("kv_len", p.kv_len);
    w.field("measured_gb_s", p.achieved_gb_s);
    w.field("measured_tokens_per_s", p.tokens_per_s);
    w.field("model", p.model_name);
    w.field("roofline_tokens_per_s", e.roofline_tokens_per_s);
    w.field("source", p.source);
    w.field("text", e.finding.text);
  });
}

void write_json(JsonWriter& w, const RealityReport& r) {
  w.object([&] {
    list(w, "end_to_end", r.end_to_end);
    list(w, "profiles", r.profiles);
  });
}

static void write_json(JsonWriter& w, const LineupMeasured& m) {
  w.object([&] {
    w.field("column", partition_key(m.column));
    w.field("launches", m.launches);
    w.field("measured_graph_us", m.measured_graph_s * 1e6);
    w.field("predicted_graph_us", m.predicted_graph_s * 1e6);
    w.field("run", m.run);
    w.field("same_names", m.same_names);
    w.field("text", m.text);
  });
}

void write_json(JsonWriter& w, const LineupReport& r) {
  w.object([&] {
    list(w, "columns", r.columns);
    w.key("config");
    write_json(w, r.config);
    w.field("demo", r.demo);
    list(w, "measured", r.measured);
    list(w, "observations", r.observations);
    w.field("phase", r.demo == 3 ? "decode" : "prefill");
    w.key("rows");
    w.array([&] {
      for (const LineupRow& row : r.rows) {
        std::map<std::string_view, const std::vector<int>*> cells;  // by column id, sorted
        for (size_t i = 0; i < row.kernels.size(); ++i) cells[partition_key(r.columns[i].id)] = &row.kernels[i];
        w.object([&] {
          w.field("id", origin_key(row.step));
          w.key("kernels");
          w.object([&] {
            for (const auto& [column, kernels] : cells) w.field(column, *kernels);
          });
          w.field("step", row.text);
        });
      }
    });
    w.field("title", r.title);
  });
}

static void write_json(JsonWriter& w, const Crossing& c) {
  w.object([&] {
    w.field("id", crossing_key(c.kind));
    w.field("partition", partition_key(c.partition));
    w.field("rising", c.rising);
    w.field("value", c.value);
  });
}

static void write_point(JsonWriter& w, const Sweep& s, const SweepPoint& p) {
  const std::string_view key = sweep_key_name(s.key);  // sorted among the point's keys
  constexpr std::string_view kPartitions = "partitions";
  w.object([&] {
    if (key < kPartitions) w.field(key, p.value);
    w.key(kPartitions);
    w.array([&] {
      for (size_t i = 0; i < p.partitions.size(); ++i) {
        const GraphCost& g = p.partitions[i];
        w.object([&] {
          w.field("bytes", g.bytes);
          w.field("flops", g.flops);
          w.field("id", partition_key(s.partitions[i]));
          w.field("kernels", g.kernels);
          w.field("overhead", g.overhead);
          w.field("t", g.t);
          w.field("t_total", g.t_total);
        });
      }
    });
    if (key > kPartitions) w.field(key, p.value);
  });
}

std::string merge_rules_json() {
  using namespace fusion;
  std::string out;
  JsonWriter w(out);
  w.object([&] {
    w.key("rules");
    w.array([&] {
      for (const MergeRule& r : merge_rules()) {
        w.object([&] {
          w.field("allowed", r.allowed);
          w.field("consumer", consumer_kind_name(r.consumer));
          if (r.allowed) w.field("needs", merge_switch_name(r.needs));
          w.field("producer", kernel_kind_name(r.producer));
          if (!r.allowed) w.field("refused", boundary_name(r.refused));
          if (r.allowed) w.field("space", space_match_name(r.space));
        });
      }
    });
  });
  return out;
}

void write_json(JsonWriter& w, const Sweep& s) {
  w.object([&] {
    w.key("sweep");
    w.object([&] {
      const std::vector<Crossing> found = crossings(s);
      list(w, "crossings", found);
      w.field("key", sweep_key_name(s.key));
      w.field("phase", s.decode ? "decode" : "prefill");
      w.key("points");
      w.array([&] {
        for (const SweepPoint& p : s.points) write_point(w, s, p);
      });
    });
  });
}

}  // namespace fl
