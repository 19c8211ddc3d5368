#include "core/measured/op_profile.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>

#include "core/cost.h"
#include "core/measured/percentile.h"
#include "core/partitions.h"
#include "core/presets.h"
#include "core/settings.h"

namespace fl {

std::string_view profiled_op_name(ProfiledOp op) {
  switch (op) {
    case ProfiledOp::Emb: return "emb";
    case ProfiledOp::InputLayernorm: return "input_layernorm";
    case ProfiledOp::AttnPreProj: return "attn_pre_proj";
    case ProfiledOp::AttnRope: return "attn_rope";
    case ProfiledOp::AttnPostProj: return "attn_post_proj";
    case ProfiledOp::PostAttentionLayernorm: return "post_attention_layernorm";
    case ProfiledOp::MlpUpProj: return "mlp_up_proj";
    case ProfiledOp::MlpAct: return "mlp_act";
    case ProfiledOp::MlpDownProj: return "mlp_down_proj";
    case ProfiledOp::Add: return "add";
  }
  return "?";
}

namespace {

std::vector<std::string> split(std::string_view line) {
  std::vector<std::string> out;
  for (size_t start = 0;;) {
    const size_t comma = line.find(',', start);
    out.emplace_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

int64_t integer_at(int line, const std::string& column, const std::string& v) {
  int64_t out = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || end != v.data() + v.size() || out <= 0)
    throw ProfileError(line, column + ": not a positive integer: '" + v + "'");
  return out;
}

double time_at(int line, const std::string& column, const std::string& v) {
  char* end = nullptr;
  const double out = v.empty() ? NAN : std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || !std::isfinite(out))
    throw ProfileError(line, column + ": not a number: '" + v + "'");
  if (out < 0) throw ProfileError(line, column + ": a negative time: " + v);
  return out;
}

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The shape columns, which every row must repeat.
constexpr const char* kShapeColumns[] = {"gpu", "model", "n_head", "n_kv_head", "n_embd", "n_expanded_embd", "use_gated_mlp"};

AnalysisConfig config_of_shape(int line, const std::map<std::string, std::string>& f) {
  const std::string gpu = lower(f.at("gpu"));
  if (!find_hardware(gpu)) {
    std::string known;
    for (const HardwarePreset& h : hardware_presets()) known.append(known.empty() ? "" : ", ").append(h.key);
    throw ProfileError(line, "gpu: unknown GPU '" + f.at("gpu") + "' (one of: " + known + ")");
  }
  if (const std::string gated = lower(f.at("use_gated_mlp")); gated != "true" && gated != "1")
    throw ProfileError(line, "use_gated_mlp: only a gated MLP (SwiGLU) is modelled (got '" + f.at("use_gated_mlp") + "')");
  const int64_t heads = integer_at(line, "n_head", f.at("n_head"));
  const int64_t d = integer_at(line, "n_embd", f.at("n_embd"));
  if (d % heads != 0) throw ProfileError(line, "n_embd (" + f.at("n_embd") + ") is not a multiple of n_head (" + f.at("n_head") + ")");
  std::vector<Setting> s{{"hardware", gpu},
                         {"d", std::to_string(d)},
                         {"heads", std::to_string(heads)},
                         {"kv_heads", std::to_string(integer_at(line, "n_kv_head", f.at("n_kv_head")))},
                         {"head_dim", std::to_string(d / heads)},
                         {"ffn", std::to_string(integer_at(line, "n_expanded_embd", f.at("n_expanded_embd")))},
                         {"layers", "1"}};  // embedding, one layer, final norm, LM head: the emb column needs the embedding
  if (auto v = f.find("vocab_size"); v != f.end()) s.emplace_back("vocab", std::to_string(integer_at(line, "vocab_size", v->second)));
  try {
    return config_from_settings(s, 2);
  } catch (const ConfigError& e) {
    throw ProfileError(line, e.message(Lang::En));
  }
}

}  // namespace

OpProfile parse_op_profile(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  if (lines.empty()) throw ProfileError(1, "empty file: no header line");
  const std::vector<std::string> header = split(lines[0]);
  auto column = [&](const std::string& name) { return std::find(header.begin(), header.end(), name) != header.end(); };
  std::vector<std::string> needed(std::begin(kShapeColumns), std::end(kShapeColumns));
  needed.push_back("num_tokens");
  for (ProfiledOp op : kProfiledOps) needed.push_back(std::string(profiled_op_name(op)) + "_us");
  for (const std::string& name : needed)
    if (!column(name)) throw ProfileError(1, "missing column '" + name + "'");
  if (lines.size() < 2) throw ProfileError(2, "no rows: the header is all there is");

  OpProfile p;
  std::map<std::string, std::string> first;
  for (size_t i = 1; i < lines.size(); ++i) {
    const int line = static_cast<int>(i) + 1;
    const std::vector<std::string> values = split(lines[i]);
    if (values.size() != header.size())
      throw ProfileError(line, std::to_string(values.size()) + " fields where the header has " + std::to_string(header.size()));
    std::map<std::string, std::string> f;
    for (size_t c = 0; c < header.size(); ++c) f[header[c]] = values[c];
    if (i == 1) {
      first = f;
      p.gpu = f.at("gpu");
      p.model = f.at("model");
      p.config = config_of_shape(line, f);
    } else {
      for (const char* name : kShapeColumns)
        if (f.at(name) != first.at(name))
          throw ProfileError(line, std::string(name) + ": '" + f.at(name) + "' where line 2 has '" + first.at(name) + "': one layer a file");
    }
    ProfileRow row;
    row.line = line;
    row.num_tokens = integer_at(line, "num_tokens", f.at("num_tokens"));
    if (row.num_tokens > Limits::kMaxTokens)
      throw ProfileError(line, "num_tokens: " + f.at("num_tokens") + " is more than " + std::to_string(Limits::kMaxTokens));
    for (size_t o = 0; o < std::size(kProfiledOps); ++o) {
      const std::string name = std::string(profiled_op_name(kProfiledOps[o])) + "_us";
      row.measured_us[o] = time_at(line, name, f.at(name));
    }
    p.rows.push_back(row);
  }
  return p;
}

namespace {

// The node a view (reshape, transpose) shows, followed to the tensor it reads.
NodeId through_views(const Graph& g, NodeId id) {
  while (op_kind(g.node(id).op) == OpKind::View && !g.node(id).inputs.empty()) id = g.node(id).inputs[0];
  return id;
}

// A weight's name without the layer's prefix: "layers.0.wq" -> "wq".
std::string_view weight_of(const Graph& g, const Kernel& k) {
  for (NodeId id : k.nodes)
    for (NodeId in : g.node(id).inputs) {
      const Node& n = g.node(through_views(g, in));
      if (n.op == Op::Param) {
        std::string_view name = n.attrs.name;
        if (const size_t dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
        return name;
      }
    }
  return "";
}

// RoPE's tables: cos and sin of the positions (prefill), or the inputs that hold them (decode).
bool is_rope_table(const Graph& g, NodeId id) {
  const Node& n = g.node(through_views(g, id));
  return n.op == Op::Cos || n.op == Op::Sin || (n.op == Op::Input && (n.attrs.name == "cos" || n.attrs.name == "sin"));
}

bool is_rope_node(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  if (n.op == Op::RotPairs) return true;
  if (n.op == Op::Mul) return std::any_of(n.inputs.begin(), n.inputs.end(), [&](NodeId in) { return is_rope_table(g, in); });
  if (n.op == Op::Add)  // x·cos + rot_pairs(x)·sin
    return std::all_of(n.inputs.begin(), n.inputs.end(), [&](NodeId in) {
      const Node& m = g.node(in);
      return m.op == Op::Mul && std::any_of(m.inputs.begin(), m.inputs.end(), [&](NodeId t) { return is_rope_table(g, t); });
    });
  return false;
}

std::optional<ProfiledOp> op_of(const Graph& g, const Kernel& k) {
  const Node& first = g.node(k.nodes.front());
  const std::string_view w = weight_of(g, k);
  switch (first.op) {
    case Op::Embedding: return ProfiledOp::Emb;
    case Op::RMSNorm:
      if (w == "attn_norm") return ProfiledOp::InputLayernorm;
      if (w == "mlp_norm") return ProfiledOp::PostAttentionLayernorm;
      return std::nullopt;  // the final norm
    case Op::MatMul:
      if (w == "wq" || w == "wk" || w == "wv") return ProfiledOp::AttnPreProj;
      if (w == "wo") return ProfiledOp::AttnPostProj;
      if (w == "w_gate" || w == "w_up") return ProfiledOp::MlpUpProj;
      if (w == "w_down") return ProfiledOp::MlpDownProj;
      return std::nullopt;  // attention's matmuls, the LM head
    case Op::SiLU: return ProfiledOp::MlpAct;
    default: break;
  }
  if (std::all_of(k.nodes.begin(), k.nodes.end(), [&](NodeId id) { return is_rope_node(g, id); })) return ProfiledOp::AttnRope;
  if (first.op == Op::Mul &&
      std::any_of(first.inputs.begin(), first.inputs.end(), [&](NodeId in) { return g.node(in).op == Op::SiLU; }))
    return ProfiledOp::MlpAct;  // SiLU(gate) · up
  if (first.op == Op::Add && k.nodes.size() == 1) return ProfiledOp::Add;  // a residual add
  return std::nullopt;
}

}  // namespace

std::vector<ProfiledTime> profiled_times(const OpProfile& p) {
  std::vector<ProfiledTime> out;
  for (const ProfileRow& row : p.rows) {
    AnalysisConfig c = p.config;
    c.tokens = row.num_tokens;
    const Partition eager = make_partition(PartitionId::Eager, c.traced_graph(false), c.binding(), c.hw);
    std::array<double, std::size(kProfiledOps)> roofline{};
    std::array<int, std::size(kProfiledOps)> kernels{};
    std::array<KernelSides, std::size(kProfiledOps)> as_one{};
    for (const Kernel& k : eager.kernels) {
      const std::optional<ProfiledOp> op = op_of(*eager.graph, k);
      if (!op) continue;
      const size_t o = static_cast<size_t>(*op);
      roofline[o] += kernel_time(k, c.hw);
      // The column times one residual add: the first of the layer's two.
      if (*op != ProfiledOp::Add || kernels[o] == 0) {
        const KernelSides sides = kernel_sides(k, c.hw);
        as_one[o].matmul_s += sides.matmul_s;
        as_one[o].vector_s += sides.vector_s;
        as_one[o].memory_s += sides.memory_s;
      }
      ++kernels[o];
    }
    const size_t add = static_cast<size_t>(ProfiledOp::Add);
    if (kernels[add] > 1) roofline[add] /= kernels[add];
    for (size_t o = 0; o < std::size(kProfiledOps); ++o) {
      TimedOp timed;
      if (kernels[o] > 0) timed.kernels.push_back(as_one[o]);
      timed.measured_s = row.measured_us[o] * 1e-6;
      out.push_back({row.num_tokens, kProfiledOps[o], kernels[o], roofline[o], std::move(timed)});
    }
  }
  return out;
}

namespace {

// data/measured/op-profiles/*.csv as CMakeLists.txt generates them: {file, text}.
struct ProfileText {
  std::string_view file, text;
};
constexpr ProfileText kShippedProfileTexts[] = {
#include "op_profiles.inc"
};

}  // namespace

const std::vector<ShippedProfile>& shipped_profiles() {
  static const std::vector<ShippedProfile> profiles = [] {
    std::vector<ShippedProfile> out;
    for (const ProfileText& p : kShippedProfileTexts) out.push_back({p.file, parse_op_profile(p.text)});
    return out;
  }();
  return profiles;
}

namespace {

std::optional<FittedCalibration> fit_for(std::string_view hardware_key) {
  std::vector<TimedOp> ops;
  FittedCalibration fitted;
  for (const ShippedProfile& s : shipped_profiles()) {
    if (s.profile.config.hardware_key != hardware_key) continue;
    fitted.files.push_back(s.file);
    for (ProfiledTime& t : profiled_times(s.profile)) {
      if (t.op != ProfiledOp::AttnRope) ops.push_back(std::move(t.timed));
      else if (!fitted.rope_kernels) fitted.rope_kernels = t.eager_kernels;
    }
  }
  if (fitted.files.empty()) return std::nullopt;
  fitted.calibration = fit_calibration(ops);
  return fitted;
}

}  // namespace

// Fitted once per GPU (each fit traces a layer per profile row): the shipped
// profiles do not change while the program runs.
std::optional<FittedCalibration> calibration_for(std::string_view hardware_key) {
  static std::mutex mutex;
  static std::map<std::string, std::optional<FittedCalibration>, std::less<>> fitted;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = fitted.find(hardware_key);
  if (it == fitted.end()) it = fitted.emplace(std::string(hardware_key), fit_for(hardware_key)).first;
  return it->second;
}

ProfileValidation validate_profile(const OpProfile& p) {
  ProfileValidation out;
  out.calibration = calibration_for(p.config.hardware_key);
  std::array<std::vector<double>, std::size(kProfiledOps)> errors, calibrated_errors;
  for (const ProfiledTime& t : profiled_times(p)) {
    OpValidation v{t.num_tokens, t.op, t.timed.measured_s * 1e6, t.roofline_s * 1e6, std::nullopt, 0, 0};
    for (const KernelSides& k : t.timed.kernels) v.memory_us += k.memory_s * 1e6, v.compute_us += (k.matmul_s + k.vector_s) * 1e6;
    if (out.calibration) v.calibrated_us = out.calibration->calibration.seconds(t.timed) * 1e6;
    const size_t o = static_cast<size_t>(t.op);
    if (v.measured_us > 0) {
      errors[o].push_back(std::abs(v.roofline_us / v.measured_us - 1));
      if (v.calibrated_us) calibrated_errors[o].push_back(std::abs(*v.calibrated_us / v.measured_us - 1));
    }
    out.rows.push_back(v);
  }
  for (size_t o = 0; o < std::size(kProfiledOps); ++o) {
    OpSummary s{kProfiledOps[o], static_cast<int>(errors[o].size()), percentile(errors[o], 0.5), percentile(errors[o], 0.9),
                std::nullopt, std::nullopt};
    if (out.calibration) {
      s.calibrated_median_error = percentile(calibrated_errors[o], 0.5);
      s.calibrated_p90_error = percentile(calibrated_errors[o], 0.9);
    }
    out.summary.push_back(s);
  }
  return out;
}

}  // namespace fl
