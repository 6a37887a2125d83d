/* Compile-time ABI checks that need the stream types from pb_decode.h / pb_encode.h. This file
 * produces no code; the build fails here if the configuration the runtime is compiled with is not
 * the one wireproof_pb_config.h declares. The checks every TU runs are in include/wireproof_pb_abi.h
 * (included through pb.h). */
#include "pb.h"
#include "pb_decode.h"
#include "pb_encode.h"

/* PB_BUFFER_ONLY: the callback slot is nanopb's placeholder `int *`, not a function pointer. */
_Static_assert(_Generic(((pb_istream_t *)0)->callback, int *: 1, default: 0),
               "pb_istream_t.callback is a function pointer: PB_BUFFER_ONLY is not in effect");
_Static_assert(_Generic(((pb_ostream_t *)0)->callback, const int *: 1, default: 0),
               "pb_ostream_t.callback is a function pointer: PB_BUFFER_ONLY is not in effect");

/* The stream layouts the Swift runtime builds and reads (errmsg present: PB_NO_ERRMSG is off). */
_Static_assert(offsetof(pb_istream_t, bytes_left) == 2 * sizeof(void *), "pb_istream_t layout");
_Static_assert(offsetof(pb_istream_t, errmsg) == 3 * sizeof(void *), "pb_istream_t.errmsg offset");
/* patches/nanopb/0100-depth-limit.patch appends the nesting depth after errmsg. */
_Static_assert(offsetof(pb_istream_t, depth) == 4 * sizeof(void *), "pb_istream_t.depth offset (patch 0100 applied?)");
/* patches/nanopb/0200-allocation-budget.patch appends the budget pointer after the depth. */
_Static_assert(offsetof(pb_istream_t, budget) == 5 * sizeof(void *), "pb_istream_t.budget offset (patch 0200 applied?)");
_Static_assert(sizeof(pb_istream_t) == 6 * sizeof(void *), "pb_istream_t size");
_Static_assert(sizeof(pb_budget_t) == 3 * sizeof(void *), "pb_budget_t layout");
_Static_assert(offsetof(pb_ostream_t, bytes_written) == 3 * sizeof(void *), "pb_ostream_t layout");
_Static_assert(offsetof(pb_ostream_t, errmsg) == 4 * sizeof(void *), "pb_ostream_t.errmsg offset");
/* patches/nanopb/0300-encode-size-cache.patch appends the size cache pointer after errmsg. */
_Static_assert(offsetof(pb_ostream_t, size_cache) == 5 * sizeof(void *), "pb_ostream_t.size_cache offset (patch 0300 applied?)");
_Static_assert(sizeof(pb_ostream_t) == 6 * sizeof(void *), "pb_ostream_t size");
_Static_assert(sizeof(pb_size_cache_t) == 5 * sizeof(void *), "pb_size_cache_t layout");
