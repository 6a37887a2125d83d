/* CodecC: the plain nanopb C baseline of the facades' decode and encode (the ratio step
 * of `make bench`, `wirebench run`). Built in the bench's scratch package against the package's own CNanopb and
 * BundledProtoC targets, so the runtime, the generated C, the config header and the release C flags
 * are exactly the ones under the facades. Does what the facades do per operation:
 *   decode = allocate the struct, pb_decode (nanopb allocates the fields), pb_release, free;
 *   encode = pb_get_encoded_size, allocate a buffer of that size, pb_encode, free.
 *
 *   CodecC FILE ITERATIONS    FILE holds one encoded rtm.DataPacket (CodecBench dump)
 *
 * valgrind --tool=callgrind counts the inclusive instructions of loop_decode and loop_encode. Stops
 * unless the bytes decode and re-encode byte for byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CNanopb.h"
#include "BundledProtoC.h"

static int decode_once(const uint8_t *bytes, size_t size) {
    rtm_DataPacket *packet = calloc(1, sizeof *packet);
    pb_istream_t stream = pb_istream_from_buffer(bytes, size);
    int ok = packet != NULL && pb_decode(&stream, rtm_DataPacket_fields, packet);
    pb_release(rtm_DataPacket_fields, packet);
    free(packet);
    return ok;
}

static size_t encode_once(const rtm_DataPacket *packet, uint8_t **keep) {
    size_t size = 0;
    if (!pb_get_encoded_size(&size, rtm_DataPacket_fields, packet)) return 0;
    uint8_t *buffer = malloc(size ? size : 1);
    pb_ostream_t stream = pb_ostream_from_buffer(buffer, size);
    size_t written = pb_encode(&stream, rtm_DataPacket_fields, packet) ? stream.bytes_written : 0;
    if (keep != NULL) *keep = buffer; else free(buffer);
    return written;
}

__attribute__((noinline)) long loop_decode(const uint8_t *bytes, size_t size, long n) {
    long sum = 0;
    for (long i = 0; i < n; i++) sum += decode_once(bytes, size);
    return sum;
}

__attribute__((noinline)) long loop_encode(const rtm_DataPacket *packet, long n) {
    long sum = 0;
    for (long i = 0; i < n; i++) sum += (long)encode_once(packet, NULL);
    return sum;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: CodecC FILE ITERATIONS\n"); return 2; }
    long n = atol(argv[2]);
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL || n <= 0) { fprintf(stderr, "CodecC: cannot read %s\n", argv[1]); return 2; }
    static uint8_t bytes[1 << 20];
    size_t size = fread(bytes, 1, sizeof bytes, file);
    fclose(file);

    /* The message encode works from, and the round-trip check (also the warm-up). */
    rtm_DataPacket *packet = calloc(1, sizeof *packet);
    pb_istream_t stream = pb_istream_from_buffer(bytes, size);
    if (!pb_decode(&stream, rtm_DataPacket_fields, packet)) {
        fprintf(stderr, "CodecC: decode failed: %s\n", PB_GET_ERROR(&stream));
        return 1;
    }
    uint8_t *again = NULL;
    if (encode_once(packet, &again) != size || memcmp(again, bytes, size) != 0) {
        fprintf(stderr, "CodecC: %s does not re-encode byte for byte\n", argv[1]);
        return 1;
    }
    free(again);
    long sum = loop_decode(bytes, size, n) + loop_encode(packet, n);
    pb_release(rtm_DataPacket_fields, packet);
    free(packet);
    printf("CodecC %s: %zu bytes, iterations %ld checksum %ld\n", argv[1], size, n, sum);
    return 0;
}
