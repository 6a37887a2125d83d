// Reading `callgrind_annotate --inclusive=yes` listings: each function line starts with its
// inclusive instruction count ("  7,684,800 (45.0%)  ???:$s10CodecBench16loopFacadeEncode..."),
// and a loop function's count divided by its iterations is the cost of one operation.

import Foundation

public enum CallgrindListing {
    /// Inclusive count of the first line whose function matches `functionPattern` (a regular
    /// expression searched after the count), or nil.
    public static func inclusive(_ listing: String, matching functionPattern: String) -> Int? {
        let regex = TextMatching.regex(#"\s*([\d,]+) .*"# + functionPattern)
        for line in TextMatching.lines(listing) {
            if let m = TextMatching.matchAtStart(regex, String(line)) { return TextMatching.count(m[0]) }
        }
        return nil
    }

    static let codecBenchLoop = TextMatching.regex(#"\s*([\d,]+) .*\$s10CodecBench(\d+)(\w+?)y"#)
    static let oracleLayoutInit = TextMatching.regex(#"\s*([\d,]+) .*\$s11ProtoOracle13MessageLayoutC_2in\w*cfc "#)
    /// CodecBench's loop functions and the operation each one times.
    public static let codecBenchOperations = ["loopFacadeEncode": "facade_encode", "loopOracleEncode": "oracle_encode",
                                              "loopFacadeDecode": "facade_decode", "loopOracleDecode": "oracle_decode"]

    /// Instructions per operation of CodecBench's four loops in one packet's listing (`iterations`
    /// per loop), plus "layout_builds": the oracle's MessageLayout initialiser, for its share of
    /// oracle decode. A function listed twice keeps its last line.
    public static func codecBenchCounts(_ listing: String, iterations: Int) -> [String: Double] {
        var counts: [String: Double] = [:]
        for line in TextMatching.lines(listing) {
            guard let m = TextMatching.matchAtStart(codecBenchLoop, String(line)), let count = TextMatching.count(m[0]),
                  let length = Int(m[1]) else { continue }
            // The mangled identifier is `length` characters long; what follows is its signature.
            if let operation = codecBenchOperations[String(m[2].prefix(length))] {
                counts[operation] = Double(count) / Double(iterations)
            }
        }
        for line in TextMatching.lines(listing) {
            if let m = TextMatching.matchAtStart(oracleLayoutInit, String(line)), let count = TextMatching.count(m[0]) {
                counts["layout_builds"] = Double(count) / Double(iterations)
            }
        }
        return counts
    }
}
