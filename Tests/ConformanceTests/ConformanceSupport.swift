// Shared pieces of the exemplar conformance suite: the bundled schema loaded at test time (protoc on
// the schema folder the catalog recorded) and the oracle's exemplars by name. The checks themselves
// live in FacadeProof, shared with `wireproof prove` and the fuzz targets.

import BundledProtoCatalog
import FacadeProof
import Foundation
import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing
import TestSupport

extension FacadeExemplar: CustomTestStringConvertible {
    /// The oracle's exemplar name, so a failing case names the message and the variant.
    public var testDescription: String { name }
}

/// The bundled schema's catalog entries, as test arguments.
let catalogExemplars = facadeCatalog.exemplars

