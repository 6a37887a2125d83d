/* libFuzzer target `decode_c`: the benchmark baseline of the facade `decode` target (`wireproof
 * fuzz rate`). Plain C over the same nanopb runtime and generated C, same framing (byte 0 picks
 * the message type in the catalog's order), same work as the facade path in facade-only mode:
 * decode, encode, decode the encoding again and compare its encoding, release. Not a property
 * target of its own: it aborts only when the round trip is unstable. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CNanopb.h" /* pb_encode.h, pb_decode.h with the wp_pb_* renames */
#include "BundledProtoC.h"
#include "MessageTable.generated.h"

typedef struct {
    const pb_msgdesc_t *descriptor;
    size_t size;
} wp_message_type;

static const wp_message_type types[] = { WP_MESSAGE_TYPES };

/* Encodes `message` into a new buffer (caller frees); NULL when it cannot be encoded. */
static uint8_t *encode(const pb_msgdesc_t *descriptor, const void *message, size_t *size) {
    if (!pb_get_encoded_size(size, descriptor, message)) return NULL;
    uint8_t *buffer = malloc(*size ? *size : 1);
    pb_ostream_t stream = pb_ostream_from_buffer(buffer, *size);
    if (!pb_encode(&stream, descriptor, message)) { free(buffer); return NULL; }
    return buffer;
}

static int decode(const wp_message_type *type, const uint8_t *data, size_t size, void **message) {
    *message = calloc(1, type->size);
    pb_istream_t stream = pb_istream_from_buffer(data, size);
    return pb_decode(&stream, type->descriptor, *message);
}

static void release(const wp_message_type *type, void *message) {
    pb_release(type->descriptor, message);
    free(message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const wp_message_type *type = &types[data[0] % WP_MESSAGE_TYPE_COUNT];
    void *first = NULL;
    if (decode(type, data + 1, size - 1, &first)) {
        size_t first_size = 0, second_size = 0;
        uint8_t *first_bytes = encode(type->descriptor, first, &first_size);
        if (first_bytes != NULL) {
            void *second = NULL;
            if (!decode(type, first_bytes, first_size, &second)) abort();
            uint8_t *second_bytes = encode(type->descriptor, second, &second_size);
            if (second_bytes == NULL || second_size != first_size || memcmp(first_bytes, second_bytes, first_size) != 0) abort();
            free(second_bytes);
            release(type, second);
            free(first_bytes);
        }
    }
    release(type, first);
    return 0;
}
