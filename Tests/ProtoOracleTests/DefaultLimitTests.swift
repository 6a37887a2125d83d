import OracleCheck
import ProtoOracle
import ProtoSchema
import Testing

/// The limits the oracle's types apply when a caller names none: each sat on exactly, and one past.
@Suite struct DefaultLimitTests {
    @Test func theDefaultTextFormatParserTakesAHundredLevelsOfNestingAndNoMore() async throws {
        let set = try await Fixtures.wire()
        let parser = TextFormatParser(schemas: set)
        // Unknown-field groups (`99 { ... }`) nest like messages and count against the same limit.
        func nested(_ levels: Int) -> String { String(repeating: "99 { ", count: levels) + "1: 5" + String(repeating: " }", count: levels) }
        let hundred = try parser.parse(nested(100), as: "wire3.Scalars")
        #expect(hundred.unknownFields.count == 1)
        do {
            let deeper = try parser.parse(nested(101), as: "wire3.Scalars")
            Issue.record("101 levels parsed under the default limit: \(deeper)")
        } catch {
            #expect(error.reason == .nestingTooDeep && error.line == 1, "\(error)")
        }
    }

    @Test func theDefaultExemplarBudgetPopulatesExactlyTwoHundredSubmessages() throws {
        // 15 middle messages of 15 leaves each: 240 submessages would fit under the depth cut.
        let fields = { (type: String) in (1...15).map { "\(type) f\($0) = \($0);" }.joined(separator: " ") }
        let set = try InlineSchema.compile(["budget.proto": """
            syntax = "proto3"; package budget;
            message Leaf { int32 v = 1; }
            message Middle { \(fields("Leaf")) }
            message Root { \(fields("Middle")) }
            """])
        let root = try #require(set.message("budget.Root"))
        func submessages(_ message: DynamicMessage) -> Int {
            message.presentFieldNumbers.compactMap { message[number: $0]?.messageValue }.reduce(0) { $0 + 1 + submessages($1) }
        }
        #expect(submessages(Exemplars(schemas: set).full(for: root)) == 200)
    }
}
