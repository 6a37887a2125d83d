// Patching fields onto already-encoded bytes by concatenation, without decoding or re-encoding them.

extension NanopbMsg {
    /// `encoded` followed by the encoding of `patch`: a parser reads the concatenation as `encoded`
    /// merged with `patch`, so writing a few bytes replaces re-encoding the whole message.
    ///
    /// Protobuf defines concatenation as merge, which makes this correct when `patch` sets only:
    /// - singular scalars, enums, strings and bytes: the last occurrence wins, so they overwrite;
    /// - a oneof member that is not a message: it replaces whichever member `encoded` carries;
    /// - repeated fields: their elements are appended, not substituted;
    /// - map entries: a key already present takes the new value (though a facade that decodes
    ///   the result keeps both entries and re-encodes the key twice).
    ///
    /// Not correct for:
    /// - a singular or oneof *message* already present in `encoded`: the specification merges the
    ///   two, nanopb replaces the first with the second, so receivers disagree;
    /// - a zero (or empty) value of a proto3 field without presence: the builder stores it as
    ///   absent, the patch encodes to nothing, and the old value stays. Use `modifying` for that.
    ///
    /// `encoded` is neither checked nor decoded. Throws what `patch.serializedBytes()` throws (a
    /// proto2 message whose required fields the patch lacks cannot be encoded on its own).
    public static func stamping(_ encoded: [UInt8], with patch: Self) throws(NanopbError) -> [UInt8] {
        try encoded + patch.serializedBytes()
    }

    /// `stamping(encoded, with: .with(body))`: `Pkg_Msg.stamping(bytes) { $0.sequence = 7 }`.
    public static func stamping(_ encoded: [UInt8], _ body: (inout Builder) -> Void) throws(NanopbError) -> [UInt8] {
        try stamping(encoded, with: with(body))
    }
}
