// An embed's fitted scale: the requested one while the view fits; smaller in
// proportion to what ran over; never below the floor; never growing back
// until what the fit holds for changes.
#include <catch2/catch.hpp>

#include "page/embed_fit.h"

#include <utility>

using namespace fl::web;

namespace {

EmbedFitKey key(double requested, int width = 800, int height = 450) {
  return {View::Prefill, width, height, requested, fl::Lang::En, {}};
}

// A view whose content is content(s) layout units (width, height) at scale
// s, shown in the key's frame: frames until the fit settles (or -1).
template <typename Content>
int frames_to_fit(EmbedFit& fit, const EmbedFitKey& k, Content content) {
  for (int frame = 1; frame <= 40; ++frame) {
    const double s = fit.Begin(k);
    const float w = static_cast<float>(k.css_width / s), h = static_cast<float>(k.css_height / s);
    const auto [cw, ch] = content(s);
    if (!fit.Observe(w, h, cw - w, ch - h)) return frame;
  }
  return -1;
}

auto fixed(float w, float h) {
  return [=](double) { return std::pair<float, float>(w, h); };
}

bool fits(const EmbedFitKey& k, double s, std::pair<float, float> content) {
  return content.first <= k.css_width / s && content.second <= k.css_height / s;
}

}  // namespace

TEST_CASE("a view that fits keeps the requested scale") {
  EmbedFit fit;
  CHECK(fit.Begin(key(1.5)) == 1.5);
  CHECK_FALSE(fit.Observe(533, 300, 0, 0));
  CHECK(fit.Begin(key(1.5)) == 1.5);
}

TEST_CASE("a view that runs over is drawn at the largest scale that fits") {
  EmbedFit fit;
  // 420 units tall: at 1.5 the frame holds 300, at 450 / 420 ≈ 1.07 all of it.
  CHECK(frames_to_fit(fit, key(1.5), fixed(500, 420)) > 1);
  CHECK(fit.Scale() <= 450.0 / 420);
  CHECK(fit.Scale() >= 450.0 / 420 - 0.02);
  // Too wide rather than too tall: the width decides.
  EmbedFit wide;
  CHECK(frames_to_fit(wide, key(1.5), fixed(700, 200)) > 1);
  CHECK(wide.Scale() <= 800.0 / 700);
  CHECK(wide.Scale() >= 800.0 / 700 - 0.02);
}

TEST_CASE("lines that unwrap as the scale falls: the fit still finds the largest scale, in a few frames") {
  // Wrapped text: the content is taller the larger the text, so a guess in
  // proportion overshoots; the search climbs back.
  const auto wrapping = [](double s) { return std::pair<float, float>(600, static_cast<float>(150 + 250 * s)); };
  EmbedFit fit;
  const int frames = frames_to_fit(fit, key(1.5), wrapping);
  CHECK(frames > 1);
  CHECK(frames <= 16);  // a main-loop pass lays out at most 16
  const double s = fit.Scale();
  CHECK(fits(key(1.5), s, wrapping(s)));
  CHECK_FALSE(fits(key(1.5), s + 0.03, wrapping(s + 0.03)));
}

TEST_CASE("results that grow past a settled fit shrink it again") {
  EmbedFit fit;
  frames_to_fit(fit, key(1.5), fixed(500, 420));
  const double settled = fit.Scale();
  frames_to_fit(fit, key(1.5), fixed(500, 520));
  CHECK(fit.Scale() < settled);
  CHECK(fits(key(1.5), fit.Scale(), {500, 520}));
}

TEST_CASE("what not even the floor holds is drawn at the requested scale, and scrolls") {
  EmbedFit fit;
  frames_to_fit(fit, key(2), fixed(700, 4000));
  CHECK(fit.Scale() == 2);
  CHECK_FALSE(fit.Observe(400, 225, 300, 3775));  // it stays there
}

TEST_CASE("a settled fit never grows back while its key holds, and a new key starts again") {
  EmbedFit fit;
  frames_to_fit(fit, key(1.5), fixed(500, 420));
  const double settled = fit.Scale();
  // The content shrank (a smaller configuration): same key, same scale.
  CHECK(fit.Begin(key(1.5)) == settled);
  CHECK_FALSE(fit.Observe(static_cast<float>(800 / settled), static_cast<float>(450 / settled), 0, -100));
  CHECK(fit.Scale() == settled);
  // A new frame size starts again from the requested scale.
  CHECK(fit.Begin(key(1.5, 1280, 720)) == 1.5);
}

TEST_CASE("a requested scale under the floor is kept, not raised") {
  EmbedFit fit;
  CHECK(fit.Begin(key(0.5)) == 0.5);
  CHECK_FALSE(fit.Observe(1600, 900, 0, 50));
  CHECK(fit.Scale() == 0.5);
}

TEST_CASE("a width that even the floor cannot hold keeps the requested scale: the table scrolls sideways instead") {
  // A phone's 390 px frame and a table 700 units wide: 390 / 700 < 0.75.
  EmbedFit fit;
  CHECK(frames_to_fit(fit, key(1, 390, 844), fixed(700, 400)) == 1);
  CHECK(fit.Scale() == 1);
  // Too tall as well: the height still shrinks it.
  EmbedFit tall;
  frames_to_fit(tall, key(1, 390, 844), fixed(700, 1000));
  CHECK(tall.Scale() < 1);
  CHECK(fits(key(1, 390, 844), tall.Scale(), {300, 1000}));
}
