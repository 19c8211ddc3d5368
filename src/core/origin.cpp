#include "core/origin.h"

#include "core/enum_names.h"

namespace fl {

namespace {

constexpr std::string_view kKeys[] = {
#define FL_ORIGIN(id, key) key,
#include "core/origins.def"
};

constexpr Text kTexts[] = {
#define FL_ORIGIN(id, key) Text::Origin##id,
#include "core/origins.def"
};

static_assert(std::size(kKeys) == std::size(kOrigins));

}  // namespace

std::string_view origin_key(Origin o) { return kKeys[static_cast<size_t>(o)]; }

std::optional<Origin> origin_named(std::string_view key) { return enum_named(kOrigins, origin_key, key); }

Text origin_text(Origin o) { return kTexts[static_cast<size_t>(o)]; }

std::span<const Origin> origin_steps(Origin o) {
  static constexpr Origin kAttention[] = {Origin::Scores, Origin::Softmax, Origin::AttnValues};
  if (o == Origin::Attention) return kAttention;
  return {&kOrigins[static_cast<size_t>(o)], 1};
}

}  // namespace fl
