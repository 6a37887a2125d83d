/* The counted allocation hooks declared in include/wireproof_pb_alloc.h. */
#include <stdlib.h>
#include "wireproof_pb_alloc.h"

/* Blocks allocated minus blocks freed through these hooks on this thread. */
static _Thread_local int64_t live_allocations;
/* Bytes asked for by every allocation and reallocation through these hooks that succeeded on this
 * thread (a total that only grows; not the bytes live now). */
static _Thread_local uint64_t requested_bytes;
/* Failure injection (wp_pb_fail_allocations_after): allocations this thread may still make before
 * every further one fails; negative: never fail. And how many were refused since it was set. */
static _Thread_local int64_t allocations_before_failure = -1;
static _Thread_local int64_t refused_allocations;

/* Whether the injection refuses this allocation (and counts it if so). */
static int injected_failure(void)
{
    if (allocations_before_failure < 0)
        return 0;
    if (allocations_before_failure == 0) {
        refused_allocations++;
        return 1;
    }
    allocations_before_failure--;
    return 0;
}

void *wp_pb_counted_realloc(void *ptr, size_t size)
{
    if (injected_failure())
        return NULL; /* as realloc does when it fails: `ptr` stays valid and owned by the caller */
    void *result = realloc(ptr, size);
    if (result != NULL)
        requested_bytes += size;
    if (ptr == NULL && result != NULL)
        live_allocations++;
    return result;
}

void *wp_pb_counted_calloc(size_t count, size_t size)
{
    if (injected_failure())
        return NULL;
    void *result = calloc(count, size);
    if (result != NULL) {
        live_allocations++;
        requested_bytes += count * size; /* calloc succeeded, so the product did not overflow */
    }
    return result;
}

void wp_pb_counted_free(void *ptr)
{
    if (ptr != NULL)
        live_allocations--;
    free(ptr);
}

int64_t wp_pb_live_allocations_on_this_thread(void)
{
    return live_allocations;
}

uint64_t wp_pb_requested_bytes_on_this_thread(void)
{
    return requested_bytes;
}

void wp_pb_fail_allocations_after(int64_t count)
{
    allocations_before_failure = count;
    refused_allocations = 0;
}

int64_t wp_pb_refused_allocations_on_this_thread(void)
{
    return refused_allocations;
}
