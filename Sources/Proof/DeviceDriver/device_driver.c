/* The device side of `wireproof prove`: the schema's C as nanopb's generator writes it with the
 * schema's own options (scripts/device-build.py), driven the way firmware would drive it.
 *
 *   device_driver REQUESTS RESPONSES   (either may be "-": standard input / output)
 *   device_driver --fields          (prints `index tag data_size` for every field of every message,
 *                                    after a line `bytes_header N`: what the decoder checks sizes
 *                                    against, padding of the C structs included)
 *
 * REQUESTS holds records `u32 message index, u32 length, length bytes` (little-endian), the index
 * into device_messages (the order of scripts/device-build.py's layout.json). For each, RESPONSES
 * gets `u8 status, u32 length, length bytes`: status 0 with nanopb's re-encoding of what it decoded,
 * 1 with pb_decode's error message, 2 with pb_encode's error message. Each answer is flushed
 * before the next record is read, so a crash inside nanopb leaves the earlier answers complete.
 *
 * Built by the device party of `wireproof prove` with nanopb's own runtime (pb_common.c,
 * pb_decode.c, pb_encode.c), not the shipped layer's patched copy, in nanopb's default
 * configuration plus PB_ENABLE_MALLOC (for the schema's FT_POINTER fields, if any; it changes no
 * static field). PB_FIELD_32BIT only when the generated C demands it: it widens pb_size_t and
 * with it the padding of static bytes fields, so it changes what the device accepts. Callback fields keep no callback: decoding skips them, as firmware does
 * that sets none. Exit status: 0 when every record was answered, 1 on an I/O or record error. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pb.h>
#include <pb_common.h>
#include <pb_decode.h>
#include <pb_encode.h>

typedef struct { const char *full_name; const pb_msgdesc_t *fields; size_t size; } device_message_t;
extern const device_message_t device_messages[];
extern const size_t device_message_count;

static int read_u32(FILE *in, uint32_t *value) {
    unsigned char b[4];
    if (fread(b, 1, 4, in) != 4) return 0;
    *value = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return 1;
}

static int answer(FILE *out, unsigned char status, const void *data, uint32_t length) {
    unsigned char head[5] = { status, (unsigned char)length, (unsigned char)(length >> 8),
                              (unsigned char)(length >> 16), (unsigned char)(length >> 24) };
    /* Flushed per answer: if nanopb crashes on a later record, the answers so far are kept. */
    return fwrite(head, 1, 5, out) == 5 && (length == 0 || fwrite(data, 1, length, out) == length) && fflush(out) == 0;
}

static int answer_text(FILE *out, unsigned char status, const char *text) {
    return answer(out, status, text, (uint32_t)strlen(text));
}

/* Decodes one record's bytes as message `index` and answers. 0 on an I/O failure. The answer is
 * written only after nanopb has released the message, so a crash in pb_release leaves this
 * record unanswered and is blamed on it, not on the next one. */
static int handle(FILE *out, uint32_t index, const unsigned char *bytes, uint32_t length) {
    const device_message_t *type = &device_messages[index];
    void *message = calloc(1, type->size ? type->size : 1);
    if (message == NULL) return 0;
    pb_istream_t in = pb_istream_from_buffer(bytes, length);
    unsigned char status = 0;
    const char *error = NULL;
    unsigned char *buffer = NULL;
    size_t written = 0;
    if (!pb_decode(&in, type->fields, message)) {  /* pb_decode releases what it allocated */
        status = 1;
        error = PB_GET_ERROR(&in);  /* a string constant of nanopb's, valid after the release */
    } else {
        size_t size = 0;
        if (!pb_get_encoded_size(&size, type->fields, message)) {
            status = 2;
            error = "cannot size the re-encoding";
        } else if ((buffer = malloc(size ? size : 1)) == NULL) {
            pb_release(type->fields, message);
            free(message);
            return 0;
        } else {
            pb_ostream_t stream = pb_ostream_from_buffer(buffer, size);
            if (pb_encode(&stream, type->fields, message)) {
                written = stream.bytes_written;
            } else {
                status = 2;
                error = PB_GET_ERROR(&stream);
            }
        }
        pb_release(type->fields, message);
    }
    free(message);
    int ok = status == 0 ? answer(out, 0, buffer, (uint32_t)written) : answer_text(out, status, error);
    free(buffer);
    return ok;
}

/* The sizes pb_decode checks against: a static bytes field holds data_size - bytes_header bytes,
 * which is max_size rounded up to the struct's alignment, not max_size itself. */
static int print_fields(void) {
    printf("bytes_header %zu\n", (size_t)offsetof(pb_bytes_array_t, bytes));
    for (size_t index = 0; index < device_message_count; index++) {
        pb_field_iter_t iter;
        void *message = calloc(1, device_messages[index].size ? device_messages[index].size : 1);
        if (message == NULL) return 1;
        if (pb_field_iter_begin(&iter, device_messages[index].fields, message)) {
            do {
                printf("%zu %u %u\n", index, (unsigned)iter.tag, (unsigned)iter.data_size);
            } while (pb_field_iter_next(&iter));
        }
        free(message);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--fields") == 0) return print_fields();
    if (argc != 3) { fprintf(stderr, "usage: device_driver REQUESTS|- RESPONSES|-\n"); return 1; }
    /* "-": standard input / output, for a caller that keeps the driver running (DeviceSession). */
    FILE *in = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "rb");
    FILE *out = strcmp(argv[2], "-") == 0 ? stdout : fopen(argv[2], "wb");
    if (in == NULL || out == NULL) { fprintf(stderr, "device_driver: cannot open %s or %s\n", argv[1], argv[2]); return 1; }
    uint32_t index, length;
    while (read_u32(in, &index)) {
        if (!read_u32(in, &length) || index >= device_message_count) {
            fprintf(stderr, "device_driver: bad record (message index %u of %zu)\n", index, device_message_count);
            return 1;
        }
        unsigned char *bytes = malloc(length ? length : 1);
        if (bytes == NULL || fread(bytes, 1, length, in) != length) { fprintf(stderr, "device_driver: short record\n"); return 1; }
        if (!handle(out, index, bytes, length)) { fprintf(stderr, "device_driver: cannot write %s\n", argv[2]); return 1; }
        free(bytes);
    }
    return fclose(out) == 0 ? 0 : 1;
}
