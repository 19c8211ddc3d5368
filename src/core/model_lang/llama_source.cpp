#include "core/model_lang/llama_source.h"

namespace fl::lang {

namespace {

// The layer after its sizes; the tracer's steps (origins.def) mark what each line computes.
constexpr std::string_view kLayer = R"(
param attn_norm[d]
param wq[d, heads * head_dim]
param wk[d, kv_heads * head_dim]
param wv[d, kv_heads * head_dim]
param wo[heads * head_dim, d]
param mlp_norm[d]
param w_gate[d, ffn]
param w_up[d, ffn]
param w_down[ffn, d]

# Rotary position embedding: each pair of x turned by its position's angle.
def rope(x):
    return x * cos + rot_pairs(x) * sin

# Rows (B*T, n*head_dim) to heads (B*n, T, head_dim), rotated by RoPE if asked.
def heads_first(rows, n, rotate):
    x = reshape(rows, [B, T, n, head_dim])
    if rotate:
        x = rope(x)
    return reshape(transpose(x, [0, 2, 1, 3]), [B * n, T, head_dim])

# Causal attention of q over the repeated k and v heads, written as the
# attention form asks: the lecture's, PyTorch's math, or one SDPA call.
def attend(q, kh, vh):
    if attention == "sdpa":
        step attention
        if decode:
            return sdpa(q, kh, vh, 1 / sqrt(head_dim), offset, mask)
        return sdpa(q, kh, vh, 1 / sqrt(head_dim), offset)
    step scores
    scores = q @ transpose(kh, [0, 2, 1]) / sqrt(head_dim)
    step softmax
    if attention == "math":
        p = cast(softmax(cast(masked_fill(scores, logical_not(mask), -inf), "fp32")), act)
    else:
        p = softmax(causal_mask(scores, offset))
    step attn_values
    return p @ vh

def layer(x):
    step attn_norm
    n = rmsnorm(x, attn_norm)
    step q_proj
    q_rows = n @ wq
    step q_rope
    q = heads_first(q_rows, heads, 1)
    step k_proj
    k_rows = n @ wk
    step k_rope
    k = heads_first(k_rows, kv_heads, 1)
    step v_proj
    v = heads_first(n @ wv, kv_heads, 0)
    if decode:
        step kv_write
        k = kv_write(k_cache, k, P)
        v = kv_write(v_cache, v, P)
    step gqa_repeat
    kh = repeat_kv(k, heads / kv_heads)
    vh = repeat_kv(v, heads / kv_heads)
    o = attend(q, kh, vh)
    step merge_heads
    merged = transpose(reshape(o, [B, heads, T, head_dim]), [0, 2, 1, 3])
    attended = reshape(merged, [B * T, heads * head_dim])
    step o_proj
    o = attended @ wo
    step attn_residual
    h = x + o
    step mlp_norm
    m = rmsnorm(h, mlp_norm)
    step gate_proj
    gate_rows = m @ w_gate
    step silu
    gate = silu(gate_rows)
    step up_proj
    up = m @ w_up
    step gate_mul
    gated = gate * up
    step down_proj
    down = gated @ w_down
    step mlp_residual
    return h + down
)";

}  // namespace

std::string llama_source(const LayerCfg& c, std::string_view title) {
  std::string s = "# ";
  s.append(title).append("\n# One decoder layer in Fusion Lab's model language (docs/model-language.md).\n");
  auto size = [&](const char* name, int64_t v, const char* what) {
    s.append(name).append(" = ").append(std::to_string(v)).append("  # ").append(what).append("\n");
  };
  size("d", c.d, "the model's width");
  size("heads", c.H, "query heads");
  size("kv_heads", c.G, "key and value heads (grouped-query attention)");
  size("head_dim", c.dh, "each head's width");
  size("ffn", c.f, "the MLP's width");
  return s.append(kLayer);
}

}  // namespace fl::lang
