// Measured per-op profiles against our roofline: every shipped profile reads
// and validates; each malformed file is refused with its line.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "core/measured/op_profile.h"

using namespace fl;

namespace {

std::string shipped(const std::string& name) {
  std::ifstream in(std::string(FUSIONLAB_DATA_DIR) + "/measured/op-profiles/" + name);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kHeader =
    "gpu,model,n_head,n_kv_head,n_embd,n_expanded_embd,vocab_size,use_gated_mlp,num_tokens,emb_us,input_layernorm_us,"
    "attn_pre_proj_us,attn_rope_us,attn_post_proj_us,post_attention_layernorm_us,mlp_up_proj_us,mlp_act_us,"
    "mlp_down_proj_us,add_us\n";
const std::string kRow = "h100,m,32,32,4096,11008,32768,True,1,2,4,38,4,16,4,64,6,38,1\n";

// The line and message a malformed profile is refused with.
std::pair<int, std::string> refusal(const std::string& text) {
  try {
    parse_op_profile(text);
  } catch (const ProfileError& e) {
    return {e.line, e.what()};
  }
  return {-1, "accepted"};
}

}  // namespace

TEST_CASE("every shipped profile validates: a row per token count and op, a summary per op") {
  for (const char* name : {"a100_llama-2-7b.csv", "h100_llama-2-7b.csv", "h200_llama-3.1-8b.csv"}) {
    INFO(name);
    const OpProfile p = parse_op_profile(shipped(name));
    REQUIRE(!p.rows.empty());
    const ProfileValidation v = validate_profile(p);
    CHECK(v.rows.size() == p.rows.size() * std::size(kProfiledOps));
    REQUIRE(v.summary.size() == std::size(kProfiledOps));
    for (const OpValidation& r : v.rows) CHECK(r.roofline_us > 0);  // every op found among the eager kernels
    for (const OpSummary& s : v.summary) CHECK(s.median_error <= s.p90_error);
  }
}

TEST_CASE("the projections' roofline is the closed form: at 4096 tokens q, k and v are compute-bound GEMMs") {
  const OpProfile p = parse_op_profile(shipped("h100_llama-2-7b.csv"));
  CHECK(p.config.model.d == 4096);
  CHECK(p.config.model.dh == 128);
  const ProfileValidation v = validate_profile(p);
  const double T = 4096, d = 4096;
  for (const OpValidation& r : v.rows)
    if (r.num_tokens == 4096 && r.op == ProfiledOp::AttnPreProj)
      CHECK(r.roofline_us == Approx(3 * 2 * T * d * d / 989e12 * 1e6).epsilon(0.01));  // H = G = 32: q, k, v alike
}

TEST_CASE("a malformed profile is refused with its line and what is wrong") {
  CHECK(refusal("") == std::pair<int, std::string>{1, "empty file: no header line"});
  auto [line, message] = refusal("gpu,model,num_tokens\nh100,m,1\n");
  CHECK(line == 1);
  CHECK(message.find("missing column 'n_head'") != std::string::npos);
  std::tie(line, message) = refusal(kHeader + kRow + "h100,m,32,32,4096,11008,32768,True,2,2,4,x,4,16,4,64,6,38,1\n");
  CHECK(line == 3);
  CHECK(message.find("attn_pre_proj_us: not a number") != std::string::npos);
  std::tie(line, message) = refusal(kHeader + "h100,m,32,32,4096,11008,32768,True,1,2,4,-38,4,16,4,64,6,38,1\n");
  CHECK(line == 2);
  CHECK(message.find("negative") != std::string::npos);
  std::tie(line, message) = refusal(kHeader + "tpu-v5,m,32,32,4096,11008,32768,True,1,2,4,38,4,16,4,64,6,38,1\n");
  CHECK(line == 2);
  CHECK(message.find("unknown GPU 'tpu-v5'") != std::string::npos);
  std::tie(line, message) = refusal(kHeader + kRow + "h100,m,32,8,4096,11008,32768,True,2,2,4,38,4,16,4,64,6,38,1\n");
  CHECK(line == 3);
  CHECK(message.find("n_kv_head") != std::string::npos);
  std::tie(line, message) = refusal(kHeader);
  CHECK(line == 2);
  std::tie(line, message) = refusal(kHeader + "h100,m,32\n");
  CHECK(line == 2);
  CHECK(message.find("fields") != std::string::npos);
}
