// The project's tests: the functional guards that guardlint prove --test
// measures against the invariants in guardlint.yaml. Each prints its name
// and fails the run with a message when its check does not hold.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "encoder_pool.h"
#include "registry.h"
#include "table.h"

static int failures = 0;

#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) {                                                    \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #cond); \
      failures++;                                                     \
    }                                                                 \
  } while (0)

static void encoder_is_retained_and_released_once() {
  Pool pool;
  CommandBuffer cb(pool);
  CHECK(cb.getOrCreateEncoder()->refs == 1);
  CHECK(cb.endActiveEncoder() == 0);
  CHECK(pool.free_count() == 1);
}

static void reset_ends_the_active_encoder() {
  Pool pool;
  CommandBuffer cb(pool);
  cb.getOrCreateEncoder();
  cb.reset();
  CHECK(!cb.hasActive());
  CHECK(pool.free_count() == 1);
}

static void registry_adds_and_names() {
  Registry r;
  CHECK(r.add(7) == 1);
  r.rename(0, "main");
  CHECK(r.name(0) == "main");
  CHECK(r.add_named(8, "copy") == 2);
  CHECK(r.add_and_wait(9) == 3);
}

static void read_past_the_end_is_refused() {
  Table t({10, 20});
  CHECK(t.read(1) == 20);
  bool refused = false;
  try {
    t.read(5);
  } catch (const std::out_of_range&) {
    refused = true;
  }
  CHECK(refused);
}

int main() {
  try {
    encoder_is_retained_and_released_once();
    reset_ends_the_active_encoder();
    registry_adds_and_names();
    read_past_the_end_is_refused();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "uncaught: %s\n", e.what());
    return 1;
  }
  if (failures > 0) {
    return 1;
  }
  std::puts("ok");
  return 0;
}
