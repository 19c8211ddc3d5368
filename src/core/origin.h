// Where in the layer's code a node comes from: the step of the decoder layer
// (or of the model around it) that traced it. The tracer stamps every node;
// a pass gives the nodes it makes the origin of the node it rewrites. A
// kernel's origins say which part of the layer it computes, so that the
// kernels of different compilers line up by the code they run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/i18n.h"

namespace fl {

enum class Origin : uint8_t {
#define FL_ORIGIN(id, key) id,
#include "core/origins.def"
};

inline constexpr Origin kOrigins[] = {
#define FL_ORIGIN(id, key) Origin::id,
#include "core/origins.def"
};

std::string_view origin_key(Origin o);  // "attn_norm", ...: stable, for JSON
std::optional<Origin> origin_named(std::string_view key);
Text origin_text(Origin o);             // the step in words

// The steps an origin stands for: itself, or for one attention op (traced as
// SDPA, or matched by a pass) the three steps it does at once.
std::span<const Origin> origin_steps(Origin o);

}  // namespace fl
