/* Umbrella header of the CNanopb module: nanopb's runtime API as Swift imports it.
 *
 * pb.h is nanopb's own header, copied here by `make setup` with wireproof_pb_config.h included as
 * its first line, so the importer sees the same options and the same pb_* -> wp_pb_* renames as the
 * C compiler. Swift code calls the renamed functions (wp_pb_encode, wp_pb_decode, ...).
 */
#ifndef WIREPROOF_CNANOPB_H
#define WIREPROOF_CNANOPB_H

#if defined(__has_include) && !__has_include("pb.h")
#error "nanopb runtime missing from Sources/Shipped/CNanopb: run `make setup`"
#endif

#include "pb.h"
#include "pb_common.h"
#include "pb_decode.h"
#include "pb_encode.h"
#include "wireproof_pb_abi.h"

#endif /* WIREPROOF_CNANOPB_H */
