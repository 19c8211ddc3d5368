// The page's record for tests and benchmarks (src/page/frame_record.h).
#include <catch2/catch.hpp>

#include "page/frame_record.h"

using fl::web::TimeRing;

TEST_CASE("a time ring's median is of its last 120 times only") {
  TimeRing ring;
  CHECK(ring.Median() == 0);
  for (int i = 1; i <= 5; ++i) ring.Add(i);
  CHECK(ring.Median() == 3);
  // 120 slow frames push the five fast ones out.
  for (size_t i = 0; i < TimeRing::kFrames; ++i) ring.Add(100);
  CHECK(ring.Size() == TimeRing::kFrames);
  CHECK(ring.Median() == 100);
  // 61 fast frames of the last 120: the median is fast again.
  for (int i = 0; i < 61; ++i) ring.Add(2);
  CHECK(ring.Median() == 2);
}
