// The inputs the bench package is generated from: the .proto files under a folder in byte order,
// and the message count of a generation plan; and `report` arguments of the form NAME=PATH.

import Testing
@testable import BenchReport

@Suite struct ProtoFileListingTests {
    @Test func protoFilesAreListedRelativeToTheFolderInByteOrderAndOtherFilesLeftOut() throws {
        let folder = try ScratchFolder(["a.proto": "", "sub/b.proto": "", "B.proto": "", "c.txt": "", "sub/d.proto.orig": "", "sub/noproto": ""])
        defer { folder.remove() }
        #expect(try ScratchPackage.protoFiles(under: folder.path) == ["B.proto", "a.proto", "sub/b.proto"])
        #expect(try ScratchPackage.protoFiles(under: folder.path + "/missing") == [])
    }

    @Test func aPlansMessageCountLeavesOutItsOtherKindsOfType() throws {
        let folder = try ScratchFolder(["plan.json": #"{"types": [{"kind": "message"}, {"kind": "enum"}, {"kind": "message"}]}"#])
        defer { folder.remove() }
        #expect(try GenerationPlanCount.messages(inPlanAt: folder.path + "/plan.json") == 2)
    }

    @Test func nameValueArgumentsSplitAtTheFirstEqualsSign() throws {
        let pairs = try ReportCommand.pairs(["default=/tmp/a=b", "stripped="])
        #expect(pairs.map(\.0) == ["default", "stripped"] && pairs.map(\.1) == ["/tmp/a=b", ""])
        #expect(throws: (any Error).self) { try ReportCommand.pairs(["default"]) }
    }
}
