// Google's C++ protobuf parser (Debian's libprotobuf 3.21) behind a C interface, for the
// differential fuzz target: messages are DynamicMessages of types from a protoc descriptor set, so
// the parser judges exactly the schema the facades and the oracle were built from.
#ifndef WIREPROOF_GOOGLE_PARSER_H
#define WIREPROOF_GOOGLE_PARSER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A descriptor pool and message factory built from one serialized FileDescriptorSet.
typedef struct wpg_parser wpg_parser;

/// Builds the pool from `descriptor_set` (files in dependency order, as `protoc --include_imports`
/// writes them). NULL on failure, with a reason in `error` (NUL-terminated, truncated to
/// `error_size`). Google's log output is silenced for the life of the process.
wpg_parser *wpg_parser_create(const uint8_t *descriptor_set, size_t size, char *error, size_t error_size);
void wpg_parser_destroy(wpg_parser *parser);

/// Parses `data` as the message type `full_name` with ParsePartialFromArray (required fields are
/// not checked; `*initialized` says whether they are all present). Returns 1 when accepted, 0 when
/// rejected, -1 when the pool has no such type. On acceptance `*out`/`*out_size` hold the
/// message re-serialized with its unknown fields discarded (free with wpg_free).
int wpg_parse(wpg_parser *parser, const char *full_name, const uint8_t *data, size_t size,
              uint8_t **out, size_t *out_size, int *initialized);

void wpg_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
