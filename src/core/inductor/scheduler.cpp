#include "core/inductor/scheduler.h"

#include <algorithm>
#include <cstdlib>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "core/fusion/grouping.h"
#include "core/inductor/layout.h"

namespace fl::inductor {

std::string_view kernel_kind_name(KernelKind k) {
  switch (k) {
    case KernelKind::Pointwise: return "poi";
    case KernelKind::Looped: return "red";
    case KernelKind::Persistent: return "per";
    case KernelKind::Mm: return "mm";
    case KernelKind::Bmm: return "bmm";
    case KernelKind::Sdpa: return "sdpa";
    case KernelKind::Template: return "tem";
  }
  return "?";
}

// Inductor's inner_reduction_splits (ir.py / choices.py): about 32 elements a thread
// when the whole reduction is small for the GPU, up to 512 when it is large,
// a part's length rounded to a divisor of the row when one is close.
int64_t inner_split_parts(int64_t row, int64_t rows, int sms) {
  constexpr int64_t kMinPerThread = 32, kMaxPerThread = 512, kThreadsPerSm = 2048;
  constexpr int64_t kThreads = 32 * 8;  // num_warps = 8
  const int64_t elements = row * rows, min_device = kMinPerThread * sms * kThreadsPerSm,
                max_device = kMaxPerThread * sms * kThreadsPerSm;
  auto closest_divisor = [&](int64_t target) {
    int64_t best = 1;
    for (int64_t d = 1; d * d <= row; ++d)
      if (row % d == 0)
        for (int64_t c : {d, row / d})
          if (std::llabs(c - target) < std::llabs(best - target)) best = c;
    return best;
  };
  int64_t part = kMaxPerThread;  // elements a thread sums
  if (elements <= min_device) {
    part = kMinPerThread;
  } else if (elements < max_device) {
    const int64_t target_blocks = sms * kThreadsPerSm / (2 * kThreads);
    const int64_t blocks_per_row = (target_blocks + rows - 1) / rows;
    const int64_t tmp = (row + kThreads * blocks_per_row - 1) / (kThreads * blocks_per_row);
    const int64_t closest = closest_divisor(tmp);
    part = std::llabs(closest - tmp) < 30 ? std::max(closest, kMinPerThread) : tmp;
  } else if (const int64_t closest = closest_divisor(kMaxPerThread); std::llabs(closest - kMaxPerThread) < 50) {
    part = closest;
  }
  return (row + part * kThreads - 1) / (part * kThreads);
}

namespace {

// Inductor's limits (torch/_inductor/config.py and choices.py), by name.
constexpr size_t kRealizeReadsThreshold = 4;   // realize_reads_threshold
constexpr int64_t kPersistentMaxRow = 1024;     // an inner reduction's row kept in registers
constexpr int64_t kPersistentMaxOtherRow = 64;  // any other reduction's (choices.py)
constexpr int64_t kOuterSplitParts = 32;        // a GEMV over a strided axis: partial sums, as measured for p·v
constexpr int64_t kSplitMinRow = 8192;          // rows longer than this may be reduced in two kernels
constexpr int64_t kMinSharedBytes = 10;         // score_fusion_memory_threshold

enum class Role { Source, View, Pointwise, Reduction, Extern, Mutation };

Role role_of(Op op) {
  switch (op_kind(op)) {
    case OpKind::Source: return Role::Source;
    case OpKind::View: return Role::View;
    case OpKind::Reduction: return Role::Reduction;
    case OpKind::MatMul: return Role::Extern;
    case OpKind::Opaque:
      if (op == Op::Attention) return Role::Extern;
      if (op == Op::KVWrite) return Role::Mutation;  // index_put into the cache, in place
      return Role::Pointwise;                        // the embedding: an indirect load
    default: return Role::Pointwise;
  }
}

// A load of a pointwise body: a buffer, read through one node (a view or the
// buffer itself), `part` telling apart two loads of the same one (rot_pairs).
using Load = std::tuple<NodeId, NodeId, int>;

// One scheduler node: a realized node with its inlined producers, a copy of
// a view, or one of a split reduction's two kernels. Externs are units too.
struct Unit {
  bool triton = true;
  bool templated = false;       // a matmul as a Triton template (max-autotune)
  bool copy = false;
  bool mask_bias = false;       // a boolean mask turned into SDPA's float bias
  std::vector<NodeId> also_named_after;  // see Kernel::also_named_after
  std::vector<NodeId> named_for;         // see Kernel::named_for
  NodeId anchor = 0;            // the node it realizes (for a copy: the view it lays out)
  std::pair<int, int> registered{0, 0};  // when lowering gives it a buffer: (program position, argument)
  std::vector<NodeId> body;     // nodes whose code it runs
  std::set<int64_t> reads, writes;  // buffer keys (buffer_key below)
  std::set<int64_t> shifted;        // buffers it reads at other indices than its own (rotated, transposed)
  int64_t numel = 0, rnumel = 1;    // loops: output elements, row length (1: pointwise)
  bool inner = true;                // a reduction over contiguous rows (ReductionHint.INNER); a GEMV's is not
  KernelKind extern_kind = KernelKind::Mm;
};

class Scheduler {
 public:
  Scheduler(const Graph& g, const Binding& bind, const Options& opt)
      : g_(g), opt_(opt), numel_(fusion::node_numels(g, bind)), users_(g.size()), output_(g.size(), 0),
        realized_(g.size(), 0), loads_(g.size()), realized_for_(g.size(), -1) {
    for (const Node& n : g.nodes()) shape_.push_back(eval_shape(n.shape, bind));
    for (size_t i = 0; i < g.size(); ++i)
      for (NodeId in : g.nodes()[i].inputs) users_[static_cast<size_t>(in)].push_back(static_cast<NodeId>(i));
    for (NodeId o : g.outputs()) output_[static_cast<size_t>(o)] = 1;
  }

  std::vector<Kernel> run() {
    choose_templates();
    pos_ = program_position();
    realize();
    build_units();
    fuse();
    return emit(order());
  }

 private:
  const Graph& g_;
  Options opt_;
  std::vector<int64_t> numel_;
  std::vector<std::vector<int64_t>> shape_;
  std::vector<std::vector<NodeId>> users_;
  std::vector<char> output_, realized_;
  std::vector<std::set<Load>> loads_;  // of each pointwise node's body, its unrealized producers inlined
  std::vector<NodeId> realized_for_;   // the GEMV whose lowering stored a pointwise value to re-read it, or -1
  std::vector<Unit> units_;
  std::vector<char> templated_;          // matmuls max-autotune makes Triton templates
  std::vector<int> pos_;                 // program position of each node (program_position)
  std::vector<std::pair<int, int>> registered_;  // of each realized node (Unit::registered)
  std::map<NodeId, int64_t> copy_key_;  // view read by an extern -> its copy's buffer key
  std::map<NodeId, int64_t> bias_key_;  // SDPA with a boolean mask -> the float bias it reads instead
  std::map<int64_t, int64_t> extra_bytes_;  // the size of each buffer that is no node's: copies, partial sums
  std::map<int64_t, std::array<int64_t, 2>> split_rows_;  // a split reduction's partial sums -> its row, its rows

  Role role(NodeId id) const {
    const Role r = role_of(g_.node(id).op);
    return r == Role::Extern && gemv(id) ? Role::Reduction : r;
  }
  // A matmul of one row (M = 1) that gpt-fast's setting turns into a reduction.
  bool gemv(NodeId id) const {
    const std::vector<int64_t>& out = shape_[static_cast<size_t>(id)];
    return opt_.gemv_as_reduction && g_.node(id).op == Op::MatMul && out.size() >= 2 && out[out.size() - 2] == 1;
  }
  // Whether reading `in` (a view chain over its storage) visits the storage
  // in its own order: a reshape of contiguous data, a transpose of size-1 axes.
  bool same_index(NodeId in) const {
    if (role(in) != Role::View) return true;
    const std::optional<Layout> l = view_layout(g_, in, Layout::contiguous(shape_[static_cast<size_t>(storage(in))]), shape_);
    return l && l->strides == Layout::contiguous(l->sizes).strides;
  }
  NodeId storage(NodeId id) const {
    while (role(id) == Role::View) id = g_.node(id).inputs[0];
    return id;
  }
  bool scalar(NodeId id) const { return shape_[static_cast<size_t>(id)].empty(); }
  bool inlined(NodeId s) const { return role(s) == Role::Pointwise && !realized_[static_cast<size_t>(s)]; }
  int64_t buffer_key(NodeId id) const { return id; }

  // Whether an extern reading `in` (a view or a buffer) needs a copy first.
  bool needs_copy(NodeId in) const {
    if (role(in) != Role::View) return false;
    const NodeId s = storage(in);
    if (g_.node(s).op == Op::Attention) return false;  // SDPA lays its output out for merging heads
    return !view_layout(g_, in, Layout::contiguous(shape_[static_cast<size_t>(s)]), shape_).has_value();
  }
  // SDPA reads the KV heads of grouped-query attention in place (enable_gqa).
  bool needs_copy(NodeId in, NodeId reader) const {
    if (g_.node(reader).op == Op::Attention && g_.node(in).op == Op::RepeatKV) return needs_copy(g_.node(in).inputs[0]);
    return needs_copy(in);
  }

  // The views a copy lays out: from the storage up to the first one strides
  // cannot express (the views after it read the copy in place).
  std::vector<NodeId> copied_views(NodeId in) const {
    std::vector<NodeId> chain;
    for (NodeId v = in; role(v) == Role::View; v = g_.node(v).inputs[0]) chain.push_back(v);
    std::reverse(chain.begin(), chain.end());
    const Layout base = Layout::contiguous(shape_[static_cast<size_t>(storage(in))]);
    for (size_t i = 0; i < chain.size(); ++i)
      if (!view_layout(g_, chain[i], base, shape_)) {
        chain.resize(i + 1);
        break;
      }
    return chain;
  }

  // The readers of `id`'s value, through views: (reader, the node it reads).
  void readers(NodeId id, std::vector<std::pair<NodeId, NodeId>>& out) const {
    for (NodeId u : users_[static_cast<size_t>(id)]) {
      if (role(u) == Role::View) readers(u, out);
      else out.push_back({u, id});
    }
  }

  // max-autotune's choice, asked once for each matmul that stays a matmul.
  void choose_templates() {
    templated_.assign(g_.size(), 0);
    if (!opt_.use_template) return;
    for (NodeId id = 0; id < static_cast<NodeId>(g_.size()); ++id) {
      if (g_.node(id).op != Op::MatMul || gemv(id)) continue;
      const std::vector<int64_t>& out = shape_[static_cast<size_t>(id)];
      Gemm gemm{id};
      gemm.n = out.back();
      gemm.k = shape_[static_cast<size_t>(g_.node(id).inputs[0])].back();
      const bool linear = g_.node(storage(g_.node(id).inputs[1])).op == Op::Param;  // nn.Linear: rows of every batch in one mm
      gemm.m = linear ? numel_[static_cast<size_t>(id)] / gemm.n : out[out.size() - 2];
      gemm.batch = numel_[static_cast<size_t>(id)] / (gemm.m * gemm.n);
      templated_[static_cast<size_t>(id)] = opt_.use_template(gemm);
    }
  }

  // 1. Lowering: which pointwise values get a buffer (graph.py, ir.py StorageBox).
  // A buffer is registered when lowering realizes it: a reduction, an extern
  // or a mutation where it stands; a pointwise value when the first reader
  // that needs it is lowered (an extern, in the order of its arguments; a
  // repeat's expand; its own line when several readers make it worth storing).
  void realize() {
    std::vector<std::pair<NodeId, NodeId>> rs;
    registered_.assign(g_.size(), {0, 0});
    constexpr int kAfterArguments = 1 << 20;
    for (NodeId id = 0; id < static_cast<NodeId>(g_.size()); ++id) {
      const Role r = role(id);
      registered_[static_cast<size_t>(id)] = {pos_[static_cast<size_t>(id)], kAfterArguments};
      if (r == Role::Reduction || r == Role::Extern || r == Role::Mutation) realized_[static_cast<size_t>(id)] = 1;
      if (r != Role::Pointwise) continue;
      std::set<Load>& loads = loads_[static_cast<size_t>(id)];
      const Node& n = g_.node(id);
      for (NodeId in : n.inputs) {
        const NodeId s = storage(in);
        if (scalar(s)) continue;  // an immediate in the code
        if (inlined(s)) {
          loads.insert(loads_[static_cast<size_t>(s)].begin(), loads_[static_cast<size_t>(s)].end());
        } else {
          if (n.op == Op::RotPairs) {  // each element loads its pair's other half: two shifted loads
            loads.insert({s, in, 1});
            loads.insert({s, in, 2});
          } else {
            loads.insert({s, in, 0});
          }
        }
      }
      rs.clear();
      readers(id, rs);
      const bool many_loads = loads.size() > kRealizeReadsThreshold;
      std::pair<int, int> when{1 << 30, 0};
      if (output_[static_cast<size_t>(id)]) when = {static_cast<int>(g_.size()), 0};
      if (rs.size() > 1 && many_loads) when = {pos_[static_cast<size_t>(id)], kAfterArguments};
      for (auto [u, via] : rs) {
        if (gemv(u) && many_loads) when = std::min(when, {pos_[static_cast<size_t>(u)], 0});  // re-read per output, stored as the GEMV is lowered
        if (role(u) != Role::Extern) continue;
        const int arg = static_cast<int>(std::find(g_.node(u).inputs.begin(), g_.node(u).inputs.end(), via) - g_.node(u).inputs.begin());
        if (!needs_copy(via, u)) when = std::min(when, {pos_[static_cast<size_t>(u)], arg});  // an extern reads a buffer
        else if (many_loads) when = std::min(when, {pos_[static_cast<size_t>(via)], 0});      // a repeat re-reads it (mark_reuse)
      }
      realized_[static_cast<size_t>(id)] = when.first < (1 << 30);
      registered_[static_cast<size_t>(id)] = when;
      for (auto [u, via] : rs)
        if (gemv(u) && when == std::pair{pos_[static_cast<size_t>(u)], 0}) realized_for_[static_cast<size_t>(id)] = u;
    }
  }

  // The body of a unit realizing `id`: it and its inlined producers. `shifted`:
  // `id` itself is computed at other indices than the unit's own.
  void inline_body(NodeId id, Unit& u, std::set<NodeId>& seen, bool shifted = false) const {
    const Node& n = g_.node(id);
    for (NodeId in : n.inputs) {
      const NodeId s = storage(in);
      if (scalar(s)) continue;
      // A GEMV reads its operands along the reduction axis, not at its outputs' indices.
      const bool moved = shifted || n.op == Op::RotPairs || n.op == Op::MatMul || !same_index(in);
      if (inlined(s)) {
        if (seen.insert(s).second) {
          inline_body(s, u, seen, moved);
          u.body.push_back(s);
        }
        continue;
      }
      const int64_t key = role(s) == Role::Source ? buffer_key(s) : read_key(in);
      u.reads.insert(key);
      if (moved) u.shifted.insert(key);
    }
  }
  int64_t read_key(NodeId in) const {
    auto c = copy_key_.find(in);
    return c != copy_key_.end() ? c->second : buffer_key(storage(in));
  }

  Unit realized_unit(NodeId id) const {
    Unit u;
    u.anchor = id;
    std::set<NodeId> seen;
    const Node& n = g_.node(id);
    if (n.op == Op::KVWrite) {  // writes the fresh rows; the cache is not read
      const NodeId fresh = storage(n.inputs[1]);
      if (inlined(fresh)) {
        inline_body(fresh, u, seen);
        u.body.push_back(fresh);
      } else {
        u.reads.insert(read_key(n.inputs[1]));
      }
      u.numel = numel_[static_cast<size_t>(n.inputs[1])];
    } else {
      inline_body(id, u, seen);
      u.numel = numel_[static_cast<size_t>(id)];
      if (n.op == Op::MatMul) {  // a GEMV sums over K
        u.rnumel = shape_[static_cast<size_t>(n.inputs[0])].back();
        u.inner = false;
      }
      else if (role(id) == Role::Reduction) u.rnumel = numel_[static_cast<size_t>(n.inputs[0])] / std::max<int64_t>(1, u.numel);
    }
    u.body.push_back(id);
    u.writes.insert(buffer_key(id));
    u.registered = registered_[static_cast<size_t>(id)];
    return u;
  }

  void build_units() {
    // Copies first: their keys are read by the externs and by nothing else.
    int64_t next_key = static_cast<int64_t>(g_.size());
    std::map<NodeId, std::pair<int, int>> copy_registered;  // realized as its extern is lowered
    for (NodeId id = 0; id < static_cast<NodeId>(g_.size()); ++id)
      if (role(id) == Role::Extern)
        for (size_t arg = 0; arg < g_.node(id).inputs.size(); ++arg) {
          const NodeId in = g_.node(id).inputs[arg];
          if (!needs_copy(in, id) || copy_key_.count(in)) continue;
          copy_key_[in] = next_key;
          extra_bytes_[next_key++] = numel_[static_cast<size_t>(in)] * dtype_bytes(g_.node(in).dtype);
          copy_registered[in] = {pos_[static_cast<size_t>(id)], static_cast<int>(arg)};
        }
    // SDPA takes a boolean mask as a float bias (0 or -inf), computed by a pointwise kernel first.
    for (NodeId id = 0; id < static_cast<NodeId>(g_.size()); ++id) {
      const Node& n = g_.node(id);
      if (n.op != Op::Attention || n.inputs.size() <= arity(n.op)) continue;
      const NodeId mask = n.inputs[arity(n.op)];
      bias_key_[id] = next_key;
      extra_bytes_[next_key] = numel_[static_cast<size_t>(mask)] * dtype_bytes(n.dtype);
      Unit u;
      u.mask_bias = true;
      u.anchor = id;
      u.reads.insert(read_key(mask));
      u.numel = numel_[static_cast<size_t>(mask)];
      u.writes.insert(next_key++);
      u.registered = {pos_[static_cast<size_t>(id)], static_cast<int>(arity(n.op))};
      units_.push_back(std::move(u));
    }
    for (NodeId id = 0; id < static_cast<NodeId>(g_.size()); ++id) {
      const Role r = role(id);
      if (r == Role::Extern) {
        Unit u;
        u.triton = templated_[static_cast<size_t>(id)] != 0;
        u.templated = u.triton;
        if (u.templated) u.numel = numel_[static_cast<size_t>(id)];  // its loops: one program per output tile
        u.anchor = id;
        u.registered = registered_[static_cast<size_t>(id)];
        u.body = {id};
        // A template's origins include those of the values realized as it is lowered.
        for (size_t arg = 0; u.templated && arg < g_.node(id).inputs.size(); ++arg) {
          const NodeId s = storage(g_.node(id).inputs[arg]);
          if (role(s) == Role::Pointwise && registered_[static_cast<size_t>(s)] == std::pair{pos_[static_cast<size_t>(id)], static_cast<int>(arg)}) {
            const Unit source = realized_unit(s);
            u.also_named_after.insert(u.also_named_after.end(), source.body.begin(), source.body.end());
          }
        }
        const NodeInputs& ins = g_.node(id).inputs;
        for (size_t arg = 0; arg < ins.size(); ++arg)
          u.reads.insert(bias_key_.count(id) && arg == arity(g_.node(id).op) ? bias_key_.at(id) : read_key(ins[arg]));
        u.writes.insert(buffer_key(id));
        u.extern_kind = g_.node(id).op == Op::Attention ? KernelKind::Sdpa
                        : shape_[static_cast<size_t>(id)].size() > 2 ? KernelKind::Bmm
                                                                      : KernelKind::Mm;
        units_.push_back(std::move(u));
      } else if (realized_[static_cast<size_t>(id)] && r != Role::Source && r != Role::View) {
        Unit u = realized_unit(id);
        // A value a GEMV's lowering stored to re-read it: the GEMV is among
        // its origins, and its body among the GEMV's.
        if (const NodeId gemv_reader = realized_for_[static_cast<size_t>(id)]; gemv_reader >= 0) u.named_for.push_back(gemv_reader);
        for (NodeId in : g_.node(id).inputs)
          if (gemv(id) && realized_for_[static_cast<size_t>(storage(in))] == id) {
            const Unit source = realized_unit(storage(in));
            u.also_named_after.insert(u.also_named_after.end(), source.body.begin(), source.body.end());
          }
        if (r == Role::Reduction && splits(u)) {
          split(std::move(u), next_key++, split_parts(u));
        } else if (g_.node(id).op == Op::MatMul && strided_gemv(id)) {
          split(std::move(u), next_key++, kOuterSplitParts);
        } else {
          units_.push_back(std::move(u));
        }
      }
    }
    for (auto [view, key] : copy_key_) {
      Unit u;
      u.copy = true;
      u.anchor = view;
      const NodeId s = storage(view);
      std::set<NodeId> seen;
      if (inlined(s)) {
        inline_body(s, u, seen);
        u.body.push_back(s);
      } else {
        u.reads.insert(buffer_key(s));
        if (!same_index(view)) u.shifted.insert(buffer_key(s));
      }
      for (NodeId v : copied_views(view)) u.body.push_back(v);
      // Lowering the view the extern reads realized the source to read it again: the copy was made from its body.
      if (role(s) == Role::Pointwise && registered_[static_cast<size_t>(s)] == std::pair{pos_[static_cast<size_t>(view)], 0})
        u.also_named_after = realized_unit(s).body;
      u.numel = numel_[static_cast<size_t>(view)];
      u.writes.insert(key);
      u.registered = copy_registered[view];
      units_.push_back(std::move(u));
    }
  }

  // A long row over few rows is reduced in two kernels (ir.py Reduction.num_splits).
  bool splits(const Unit& u) const { return u.rnumel > kSplitMinRow && u.numel < 2 * opt_.sms; }
  int64_t split_parts(const Unit& u) const {
    if (u.inner) return inner_split_parts(u.rnumel, u.numel, opt_.sms);
    int64_t parts = 1;  // no such reduction in the presets: enough parts for two rows per SM
    while (parts * u.numel < 2 * opt_.sms) parts *= 2;
    return parts;
  }
  // A GEMV whose second operand is read across its rows (p·v over the cached
  // values) rather than along them (weights stored as nn.Linear does, kᵀ).
  bool strided_gemv(NodeId id) const {
    NodeId b = g_.node(id).inputs[1];
    if (g_.node(storage(b)).op == Op::Param) return false;
    for (; role(b) == Role::View; b = g_.node(b).inputs[0]) {
      const Perm& p = g_.node(b).attrs.perm;
      const size_t r = p.size();
      if (g_.node(b).op == Op::Transpose && r >= 2 && p[r - 1] == static_cast<int>(r - 2)) return false;
    }
    return true;
  }
  void split(Unit u, int64_t partial_key, int64_t parts) {
    Unit combine;
    combine.inner = u.inner;
    combine.anchor = u.anchor;
    combine.registered = u.registered;
    combine.body = {u.anchor};
    combine.also_named_after = u.body;
    combine.reads = {partial_key};
    combine.writes = u.writes;
    combine.numel = u.numel;
    combine.rnumel = parts;
    u.writes = {partial_key};
    split_rows_[partial_key] = {u.rnumel, u.numel};  // the whole row, the rows (before the split)
    u.numel *= parts;
    extra_bytes_[partial_key] = u.numel * 4;  // float32 partial results
    u.rnumel /= parts;
    units_.push_back(std::move(u));
    units_.push_back(std::move(combine));
  }

  // 2. The scheduler's fusion (scheduler.py can_fuse, simd.py can_fuse).
  struct Group {
    std::vector<int> units;
    std::set<int64_t> reads, writes, shifted;
    int64_t numel = 0, rnumel = 1;
    size_t nodes = 0;
    bool inner = true;  // of its reduction, if any
    bool templated = false;  // a matmul template and its epilogue
  };
  std::vector<Group> groups_;

  static bool loops_match(const Group& a, const Group& b) {
    const bool ra = a.rnumel > 1, rb = b.rnumel > 1;
    if (ra && rb) return a.numel == b.numel && a.rnumel == b.rnumel;
    if (ra) return b.numel == a.numel * a.rnumel || b.numel == a.numel;
    if (rb) return a.numel == b.numel * b.rnumel || a.numel == b.numel;
    return a.numel == b.numel;
  }

  // Whether a path leaves group a, passes another kernel and reaches group b.
  bool path_through_other(int a, int b) const {
    std::vector<char> seen(groups_.size(), 0);
    std::vector<int> stack;
    auto successors = [&](int gi, auto&& visit) {
      for (int64_t w : groups_[static_cast<size_t>(gi)].writes)
        for (size_t j = 0; j < groups_.size(); ++j)
          if (static_cast<int>(j) != gi && !groups_[j].units.empty() && groups_[j].reads.count(w)) visit(static_cast<int>(j));
    };
    successors(a, [&](int j) {
      if (j != b && !seen[static_cast<size_t>(j)]) {
        seen[static_cast<size_t>(j)] = 1;
        stack.push_back(j);
      }
    });
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      bool hit = false;
      successors(x, [&](int j) {
        if (j == b) hit = true;
        else if (j != a && !seen[static_cast<size_t>(j)]) {
          seen[static_cast<size_t>(j)] = 1;
          stack.push_back(j);
        }
      });
      if (hit) return true;
    }
    return false;
  }

  int64_t shared_bytes(const Group& a, const Group& b) const {
    int64_t bytes = 0;
    auto size_of = [&](int64_t key) -> int64_t {
      if (key >= static_cast<int64_t>(g_.size())) return 1 << 20;  // a copy or a partial: large enough to count
      return numel_[static_cast<size_t>(key)] * dtype_bytes(g_.node(static_cast<NodeId>(key)).dtype);
    };
    for (int64_t w : a.writes)
      if (b.reads.count(w)) bytes += size_of(w);
    for (int64_t w : b.writes)
      if (a.reads.count(w)) bytes += size_of(w);
    for (int64_t r : a.reads)
      if (b.reads.count(r)) bytes += size_of(r);
    return bytes;
  }

  // Why groups a and b cannot be one kernel; none when they can.
  std::optional<Refusal> refusal(int a, int b) const {
    const Group &ga = groups_[static_cast<size_t>(a)], &gb = groups_[static_cast<size_t>(b)];
    const Unit &ua = units_[static_cast<size_t>(ga.units.front())], &ub = units_[static_cast<size_t>(gb.units.front())];
    if (!ua.triton || !ub.triton) return Refusal::Extern;
    if (ga.templated || gb.templated) {
      // The scheduler fuses into a template only an epilogue: a pointwise
      // reader of its output that it does not feed.
      const Group &t = ga.templated ? ga : gb, &other = ga.templated ? gb : ga;
      auto feeds = [](const Group& from, const Group& to) {
        return std::any_of(from.writes.begin(), from.writes.end(), [&](int64_t w) { return to.reads.count(w) != 0; });
      };
      if ((ga.templated && gb.templated) || other.rnumel > 1 || !feeds(t, other) || feeds(other, t)) return Refusal::TemplateFusion;
    }
    if (ga.nodes + gb.nodes > opt_.max_fusion_size) return Refusal::MaxFusionSize;
    if (!loops_match(ga, gb)) return Refusal::LoopsMismatch;
    // A reader at other indices than the writer's would need values another program computes.
    for (int64_t w : ga.writes)
      if (gb.shifted.count(w)) return Refusal::MemoryDeps;
    for (int64_t w : gb.writes)
      if (ga.shifted.count(w)) return Refusal::MemoryDeps;
    if (shared_bytes(ga, gb) < kMinSharedBytes) return Refusal::NoSharedData;
    if (path_through_other(a, b) || path_through_other(b, a)) return Refusal::WouldCycle;
    return std::nullopt;
  }
  bool can_fuse(int a, int b) const { return !refusal(a, b); }

  void fuse() {
    for (size_t i = 0; i < units_.size(); ++i) {
      const Unit& u = units_[i];
      groups_.push_back({{static_cast<int>(i)}, u.reads, u.writes, u.shifted, u.numel, u.rnumel, u.body.size(), u.inner, u.templated});
    }
    for (bool merged = true; merged;) {
      merged = false;
      int best_a = -1, best_b = -1;
      int64_t best = 0;
      for (size_t a = 0; a < groups_.size(); ++a)
        for (size_t b = a + 1; b < groups_.size(); ++b) {
          if (groups_[a].units.empty() || groups_[b].units.empty()) continue;
          const int64_t s = shared_bytes(groups_[a], groups_[b]);
          if (s > best && can_fuse(static_cast<int>(a), static_cast<int>(b))) {
            best = s;
            best_a = static_cast<int>(a);
            best_b = static_cast<int>(b);
          }
        }
      if (best_a < 0) break;
      Group& into = groups_[static_cast<size_t>(best_a)];
      Group& from = groups_[static_cast<size_t>(best_b)];
      into.units.insert(into.units.end(), from.units.begin(), from.units.end());
      into.reads.insert(from.reads.begin(), from.reads.end());
      into.writes.insert(from.writes.begin(), from.writes.end());
      into.shifted.insert(from.shifted.begin(), from.shifted.end());
      for (int64_t w : into.writes) into.reads.erase(w);
      if (from.rnumel > 1) {
        into.numel = from.numel;
        into.rnumel = from.rnumel;
        into.inner = from.inner;
      }
      into.nodes += from.nodes;
      into.templated = into.templated || from.templated;
      from = Group{};
      merged = true;
    }
  }

  // Program order as Inductor sees it: post_grad.py's reorder_for_locality
  // moves each value right before its only reader, walking back from the end.
  // A value the caller also gets back moves only if it is a cache write that
  // no extern call reads through a copy: measured on the H200, a cache copied
  // for a GQA repeat that cuBLAS's bmm reads keeps its write where the
  // program made it; one SDPA, or gpt-fast's Triton GEMV, reads in place moves
  // (why, unconfirmed).
  bool movable(NodeId a) const {
    if (role(a) == Role::Source) return false;
    if (!output_[static_cast<size_t>(a)]) return true;
    if (role(a) != Role::Mutation) return false;
    std::vector<std::pair<NodeId, NodeId>> rs;
    readers(a, rs);
    return std::none_of(rs.begin(), rs.end(), [&](const auto& r) {
      return role(r.first) == Role::Extern && needs_copy(r.second, r.first);
    });
  }
  std::vector<int> program_position() const {
    std::list<NodeId> seq;
    std::vector<std::list<NodeId>::iterator> where(g_.size());
    for (NodeId id = 0; id < static_cast<NodeId>(g_.size()); ++id)
      if (role(id) != Role::Source) where[static_cast<size_t>(id)] = seq.insert(seq.end(), id);
    std::vector<char> seen(g_.size(), 0);
    for (auto it = seq.end(); it != seq.begin();) {
      --it;
      const NodeId node = *it;
      seen[static_cast<size_t>(node)] = 1;
      for (NodeId a : g_.node(node).inputs) {
        if (!movable(a)) continue;
        const auto& us = users_[static_cast<size_t>(a)];
        if (std::all_of(us.begin(), us.end(), [&](NodeId u) { return seen[static_cast<size_t>(u)] != 0; }))
          seq.splice(it, seq, where[static_cast<size_t>(a)]);
      }
    }
    std::vector<int> pos(g_.size(), 0);
    int p = 0;
    for (NodeId id : seq) pos[static_cast<size_t>(id)] = p++;
    return pos;
  }

  // The groups in launch order: the scheduler keeps the order in which
  // lowering registered the buffers (a fused kernel at its first), within
  // what the dependencies allow.
  std::vector<int> order() const {
    std::vector<int> live;
    std::vector<std::pair<int, int>> rank(groups_.size(), {0, 0});
    for (size_t i = 0; i < groups_.size(); ++i) {
      if (groups_[i].units.empty()) continue;
      live.push_back(static_cast<int>(i));
      std::pair<int, int> r{1 << 30, 0};
      for (int u : groups_[i].units) r = std::min(r, units_[static_cast<size_t>(u)].registered);
      rank[i] = r;
    }
    std::vector<int> out;
    std::vector<char> done(groups_.size(), 0);
    auto ready = [&](int gi) {
      for (int64_t r : groups_[static_cast<size_t>(gi)].reads)
        for (int other : live)
          if (!done[static_cast<size_t>(other)] && other != gi && groups_[static_cast<size_t>(other)].writes.count(r)) return false;
      return true;
    };
    while (out.size() < live.size()) {
      int pick = -1;
      for (int gi : live)
        if (!done[static_cast<size_t>(gi)] && ready(gi) && (pick < 0 || rank[static_cast<size_t>(gi)] < rank[static_cast<size_t>(pick)])) pick = gi;
      if (pick < 0) throw GraphError("inductor: the kernels wait on each other");
      done[static_cast<size_t>(pick)] = 1;
      out.push_back(pick);
    }
    return out;
  }

  int64_t bytes_of(int64_t key) const {
    if (auto e = extra_bytes_.find(key); e != extra_bytes_.end()) return e->second;
    const NodeId id = static_cast<NodeId>(key);
    return numel_[static_cast<size_t>(id)] * dtype_bytes(g_.node(id).dtype);
  }
  // A cache write stores its new rows only.
  int64_t written_bytes(int64_t key) const {
    if (key < static_cast<int64_t>(g_.size()) && g_.node(static_cast<NodeId>(key)).op == Op::KVWrite)
      return bytes_of(g_.node(static_cast<NodeId>(key)).inputs[1]);
    return bytes_of(key);
  }
  bool read_elsewhere(int64_t key, int group) const {
    if (key < static_cast<int64_t>(g_.size()) && output_[static_cast<size_t>(key)]) return true;
    for (size_t j = 0; j < groups_.size(); ++j)
      if (static_cast<int>(j) != group && groups_[j].reads.count(key)) return true;
    return false;
  }

  // Why each value group gi writes leaves it: for each reader, why the two are
  // not one kernel; for the caller, that it reads it.
  std::vector<End> ends_of(int gi, const std::vector<int>& order) const {
    std::vector<End> ends;
    const Group& gr = groups_[static_cast<size_t>(gi)];
    for (int64_t w : gr.writes) {
      NodeId tensor = w < static_cast<int64_t>(g_.size()) ? static_cast<NodeId>(w) : units_[static_cast<size_t>(gr.units.front())].anchor;
      for (size_t at = 0; at < order.size(); ++at) {
        const int reader = order[at];
        if (reader == gi || !groups_[static_cast<size_t>(reader)].reads.count(w)) continue;
        const Group& rg = groups_[static_cast<size_t>(reader)];
        if (auto split = split_rows_.find(w); split != split_rows_.end()) {
          ends.push_back({tensor, static_cast<int>(at), Refusal::SplitReduction, {split->second[0], split->second[1], 0, 0}});
          continue;
        }
        // Fusion stops only when no two kernels can fuse: every reader has a refusal.
        const Refusal why = refusal(gi, reader).value_or(Refusal::WouldCycle);
        ends.push_back({tensor, static_cast<int>(at), why, {gr.numel, gr.rnumel, rg.numel, rg.rnumel}});
      }
      if (w < static_cast<int64_t>(g_.size()) && output_[static_cast<size_t>(w)]) ends.push_back({tensor, -1, Refusal::Output});
    }
    return ends;
  }

  std::vector<Kernel> emit(const std::vector<int>& order) const {
    std::vector<Kernel> out;
    for (int gi : order) {
      const Group& gr = groups_[static_cast<size_t>(gi)];
      const Unit& first = units_[static_cast<size_t>(gr.units.front())];
      Kernel k;
      k.ends = ends_of(gi, order);
      if (first.triton) {
        k.numel = gr.numel;
        k.rnumel = gr.rnumel;
      }
      k.kind = !first.triton              ? first.extern_kind
               : gr.templated             ? KernelKind::Template
               : gr.rnumel <= 1           ? KernelKind::Pointwise
               : gr.rnumel <= (gr.inner ? kPersistentMaxRow : kPersistentMaxOtherRow) ? KernelKind::Persistent
                                                                                      : KernelKind::Looped;
      std::set<NodeId> computes;
      for (int u : gr.units) {
        const Unit& unit = units_[static_cast<size_t>(u)];
        computes.insert(unit.body.begin(), unit.body.end());
        k.copy = k.copy || unit.copy;
        k.mask_bias = k.mask_bias || unit.mask_bias;
        k.also_named_after.insert(k.also_named_after.end(), unit.also_named_after.begin(), unit.also_named_after.end());
        k.named_for.insert(k.named_for.end(), unit.named_for.begin(), unit.named_for.end());
      }
      k.computes.assign(computes.begin(), computes.end());
      auto node_of = [&](int64_t key) { return key < static_cast<int64_t>(g_.size()) ? static_cast<NodeId>(key) : -1; };
      for (int64_t r : gr.reads) {
        if (node_of(r) >= 0) k.reads.push_back(node_of(r));
        k.read_bytes += bytes_of(r);
      }
      for (int64_t w : gr.writes) {
        if (node_of(w) >= 0) k.writes.push_back(node_of(w));
        if (read_elsewhere(w, gi)) k.write_bytes += written_bytes(w);
      }
      out.push_back(std::move(k));
    }
    return out;
  }
};

}  // namespace

std::vector<Kernel> schedule(const Graph& g, const Binding& bind, const Options& opt) { return Scheduler(g, bind, opt).run(); }

}  // namespace fl::inductor
