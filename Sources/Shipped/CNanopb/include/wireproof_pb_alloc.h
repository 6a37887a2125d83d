/* Wireproof's allocation hooks for nanopb and the Swift runtime: one place where every heap block of
 * a message tree is allocated and freed, counted per thread.
 *
 * nanopb calls them through pb_realloc / pb_free (defined in wireproof_pb_config.h); the Swift
 * runtime calls them directly for the structs, strings, bytes and arrays its boxes and setters make.
 * So a block from either side can be freed by the other, and the count is exact: +1 for every block
 * a hook returns, -1 for every non-NULL block one frees. Beside the count, the hooks total the bytes
 * each successful request asked for, so a test can pin the size of what the runtime allocates (a
 * string's NUL, a bytes array's header), which the block count cannot see.
 *
 * The count is per thread (C11 _Thread_local: no atomics, no contention, no global state shared
 * between threads). It balances on a thread that allocates and releases its own trees, which is
 * what a synchronous test body does; a tree released on another thread moves +1 to one thread and
 * -1 to the other. Cost: two thread-local adds per allocation, one per free.
 */
#ifndef WIREPROOF_PB_ALLOC_H
#define WIREPROOF_PB_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* realloc(ptr, size), counting a new block when `ptr` is NULL and the allocation succeeds. */
void *wp_pb_counted_realloc(void *ptr, size_t size);
/* calloc(count, size) (zeroed), counted. */
void *wp_pb_counted_calloc(size_t count, size_t size);
/* free(ptr), counting a released block when `ptr` is not NULL. */
void wp_pb_counted_free(void *ptr);
/* Blocks allocated minus blocks freed through the hooks on the calling thread since it started. */
int64_t wp_pb_live_allocations_on_this_thread(void);
/* Bytes requested by the successful allocations (calloc: count * size) and reallocations (the new
 * size) through the hooks on the calling thread since it started; only grows. */
uint64_t wp_pb_requested_bytes_on_this_thread(void);

/* Failure injection, for tests of the out-of-memory paths: on the calling thread, the next `count`
 * allocations succeed and every one after them fails (returns NULL, as an exhausted allocator
 * would) until the next call; a negative `count` (the initial state) turns the injection off.
 * Each call resets the refused count. Cost when off: one thread-local compare per allocation. */
void wp_pb_fail_allocations_after(int64_t count);
/* Allocations the injection refused on the calling thread since wp_pb_fail_allocations_after. */
int64_t wp_pb_refused_allocations_on_this_thread(void);

#ifdef __cplusplus
}
#endif

#endif /* WIREPROOF_PB_ALLOC_H */
