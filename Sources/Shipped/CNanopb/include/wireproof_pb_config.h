/* Wireproof's nanopb configuration: the one place the runtime's compile-time options are set.
 *
 * Who sees this file: `scripts/setup.sh` copies nanopb's pb.h into this folder with
 * `#include "wireproof_pb_config.h"` as its first line, so every translation unit that includes
 * pb.h -- the runtime .c files, every generated .pb.c, and Swift's Clang importer reading the
 * CNanopb module -- reads exactly these definitions before any nanopb declaration. Never set these
 * options in Package.swift (cSettings are invisible to the importer; unsafeFlags make the package
 * unusable as a dependency) or on a compiler command line: two views of one struct would disagree
 * silently. `wireproof_pb_abi.h` turns any such disagreement into a compile error.
 *
 * "ABI" below means: changing the option changes the layout or meaning of a type that crosses the
 * boundary between the runtime, the generated C and Swift, so all three must be rebuilt together.
 */
#ifndef WIREPROOF_PB_CONFIG_H
#define WIREPROOF_PB_CONFIG_H

/* Marker the ABI guard checks: proves pb.h was patched to include this file first. */
#define WIREPROOF_PB_CONFIG_VERSION 1

/* Dynamically allocated fields. Every generated field is FT_POINTER, so the runtime must malloc
 * while decoding, and must provide pb_release, which the Swift box calls to free a message tree.
 * Without it the runtime rejects every pointer field at run time ("no malloc support") and
 * pb_release is not declared. No struct layout changes, but the runtime's behaviour and its set of
 * symbols do, so treat it as part of the ABI contract all the same. */
#define PB_ENABLE_MALLOC 1

/* 32-bit tags, sizes and counts. Tag numbers above 65535 are legal protobuf (up to 2^29-1), and
 * a repeated field may hold more than 65535 elements. ABI: pb_size_t becomes uint32_t, which
 * changes the layout of pb_msgdesc_t, pb_bytes_array_t, every generated `_count` / `which_` field
 * and the field-info descriptor width. */
#define PB_FIELD_32BIT 1

/* No packed structs. A message with nanopb's `packed_struct` option would otherwise get
 * __attribute__((packed)), putting fields at unaligned offsets; the Swift accessors take pointers
 * to fields, and reading through a misaligned pointer is undefined behaviour. ABI: changes the
 * layout of exactly those structs (they become naturally aligned). */
#define PB_NO_PACKED_STRUCTS 1

/* Memory buffers only; no custom stream callbacks. The Swift side always encodes to and decodes
 * from a contiguous buffer, and the runtime gets smaller and faster. ABI: the layout of
 * pb_istream_t / pb_ostream_t stays the same (nanopb keeps a placeholder pointer in the callback
 * slot), but the slot's type and meaning change, so a runtime and a caller built with different
 * settings would misread each other's streams. */
#define PB_BUFFER_ONLY 1

/* Deepest submessage nesting the decoder accepts (protoc-gen-swift's default; the top-level
 * message is depth 0). Enforced inside nanopb's submessage decoder by
 * patches/nanopb/0100-depth-limit.patch: a counter in pb_istream_t, always on, independent of the
 * schema's shape. Deeper input fails with "nesting too deep" (NanopbError.Reason.nestingTooDeep).
 * Not ABI: only the decoder reads it. */
#define PB_MAX_NESTING_DEPTH 100

/* Every heap block of a message tree -- nanopb's decoder and pb_release, and the Swift runtime's
 * setters and boxes -- is allocated and freed through these counted hooks (wireproof_pb_alloc.h),
 * so a per-thread live-allocation count can prove that decode, build, modify and release return to
 * their baseline in every ordinary test run, without a sanitizer. They wrap realloc/free: a
 * block from either side may be released by the other. Not ABI: no layout changes. */
#include "wireproof_pb_alloc.h"
#define pb_realloc(ptr, size) wp_pb_counted_realloc(ptr, size)
#define pb_free(ptr) wp_pb_counted_free(ptr)

/* Deliberately NOT defined (the ABI guard rejects them):
 *   PB_NO_ERRMSG     -- the Swift error carries nanopb's message; removes `errmsg` from streams.
 *   PB_WITHOUT_64BIT -- int64/uint64/fixed64/double fields are ordinary protobuf.
 *   PB_SYSTEM_HEADER -- the standard C headers are used as they are. */

/* Rename every exported runtime symbol pb_* -> wp_pb_* (see the header for why and how). */
#include "wireproof_pb_rename.h"

#endif /* WIREPROOF_PB_CONFIG_H */
