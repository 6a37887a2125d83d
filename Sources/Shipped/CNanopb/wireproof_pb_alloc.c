/* The counted allocation hooks declared in include/wireproof_pb_alloc.h. */
#include <stdlib.h>
#include "wireproof_pb_alloc.h"

/* Blocks allocated minus blocks freed through these hooks on this thread. */
static _Thread_local int64_t live_allocations;

void *wp_pb_counted_realloc(void *ptr, size_t size)
{
    void *result = realloc(ptr, size);
    if (ptr == NULL && result != NULL)
        live_allocations++;
    return result;
}

void *wp_pb_counted_calloc(size_t count, size_t size)
{
    void *result = calloc(count, size);
    if (result != NULL)
        live_allocations++;
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
