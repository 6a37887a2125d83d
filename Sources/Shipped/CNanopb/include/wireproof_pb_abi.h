/* Wireproof's ABI guard for nanopb: compile-time checks that this translation unit sees the
 * project configuration, so the runtime, the generated C and Swift agree on every struct layout.
 *
 * Who evaluates it: `scripts/setup.sh` appends `#include "wireproof_pb_abi.h"` to the copied pb.h and
 * to each copied runtime .c file, so the checks run in every runtime TU, every generated .pb.c
 * (through pb.h), the ABI-check TU of CNanopb, and while Swift's Clang importer builds the CNanopb
 * module. A failure is a build error naming the broken assumption; the usual causes are a pb.h that
 * was not patched (re-run `make setup`) or an option set on a command line or in Package.swift.
 * The checks that need the stream types live in ../wireproof_abi_check.c.
 */
#ifndef WIREPROOF_PB_ABI_H
#define WIREPROOF_PB_ABI_H

#ifndef PB_H_INCLUDED
#include "pb.h"
#endif

/* C11 spelling in C, C++11 spelling when a C++ file includes nanopb's headers. */
#ifdef __cplusplus
#define WIREPROOF_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define WIREPROOF_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* pb.h must have read wireproof_pb_config.h before anything else. */
#ifndef WIREPROOF_PB_CONFIG_VERSION
#error "nanopb's pb.h did not include wireproof_pb_config.h first: re-run `make setup` (it patches the copy)"
#endif
/* These checks were written against configuration version 1; a config header that changes what it
 * promises bumps its version, and this guard must be re-read against it before the number here moves. */
#if WIREPROOF_PB_CONFIG_VERSION != 1
#error "wireproof_pb_config.h is not the configuration version this ABI guard checks: re-check wireproof_pb_abi.h"
#endif

/* The four options the project depends on (see wireproof_pb_config.h for why). */
#if !defined(PB_ENABLE_MALLOC) || !defined(PB_FIELD_32BIT) || !defined(PB_NO_PACKED_STRUCTS) || !defined(PB_BUFFER_ONLY)
#error "PB_ENABLE_MALLOC, PB_FIELD_32BIT, PB_NO_PACKED_STRUCTS and PB_BUFFER_ONLY must all be defined (wireproof_pb_config.h)"
#endif

/* Options that would change a layout or remove something the Swift runtime uses. */
#if defined(PB_NO_ERRMSG)
#error "PB_NO_ERRMSG removes pb_istream_t.errmsg / pb_ostream_t.errmsg, which the Swift errors carry"
#endif
#if defined(PB_WITHOUT_64BIT)
#error "PB_WITHOUT_64BIT drops 64-bit field types; Wireproof supports every protobuf scalar"
#endif
#if defined(PB_SYSTEM_HEADER)
#error "PB_SYSTEM_HEADER replaces the C standard headers nanopb's layouts are checked against"
#endif

/* The symbol rename is active: Swift and generated C must call wp_pb_*, never pb_*. */
#if !defined(pb_decode) || !defined(pb_encode) || !defined(pb_release) || !defined(WIREPROOF_PB_RENAMED_VERSION)
#error "wireproof_pb_rename.h is not in effect: the runtime would export unprefixed pb_* symbols"
#endif

/* The generated C this runtime accepts (nanopb 0.4.x generated headers check the same number). */
#if PB_PROTO_HEADER_VERSION != 40
#error "unexpected PB_PROTO_HEADER_VERSION: the runtime and the generator are from different nanopb releases"
#endif

/* PB_FIELD_32BIT took effect: counts, sizes and tags are 32 bits wide everywhere. */
WIREPROOF_STATIC_ASSERT(sizeof(pb_size_t) == 4, "pb_size_t must be 32-bit (PB_FIELD_32BIT)");
WIREPROOF_STATIC_ASSERT(sizeof(pb_ssize_t) == 4, "pb_ssize_t must be 32-bit (PB_FIELD_32BIT)");
WIREPROOF_STATIC_ASSERT(PB_SIZE_MAX == UINT32_MAX, "PB_SIZE_MAX must be UINT32_MAX (PB_FIELD_32BIT)");
WIREPROOF_STATIC_ASSERT(offsetof(pb_bytes_array_t, bytes) == sizeof(uint32_t),
               "pb_bytes_array_t.bytes must follow a 32-bit size (PB_FIELD_32BIT)");
WIREPROOF_STATIC_ASSERT(sizeof(pb_msgdesc_t) == 4 * sizeof(void *) + 3 * sizeof(uint32_t) +
                                           (sizeof(void *) == 8 ? 4 : 0),
               "pb_msgdesc_t layout differs from the one the Swift runtime was written against");

#if defined(__clang__)
/* The rename list was taken from this nanopb release (`wireproof nanopb-symbols --write`). */
WIREPROOF_STATIC_ASSERT(__builtin_strcmp(NANOPB_VERSION, WIREPROOF_PB_RENAMED_VERSION) == 0,
               "nanopb was upgraded: refresh the rename list with `swift run wireproof nanopb-symbols --write`");
#endif

#endif /* WIREPROOF_PB_ABI_H */
