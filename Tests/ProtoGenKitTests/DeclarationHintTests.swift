import Foundation
import Testing
@testable import ProtoGenKit
import TestSupport

/// `protogen generate --hint-package-root ROOT`: when ROOT's manifest does not name the C module
/// yet, the command ends by printing how to declare the generated folders as targets (the facades'
/// target too unless --c-only); when it does, or no root is given, it prints nothing more.
@Suite struct DeclarationHintTests {
    private func options(_ extra: [String], root: String?) throws -> GenerateOptions {
        try GenerateOptions.parse(["--proto-dir", "/s/protos", "--c-out", "/s/Gen/ShopC"] + extra
                                  + (root.map { ["--hint-package-root", $0] } ?? []))
    }

    private func package(manifest: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("HintRoot")
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: folder.path + "/Package.swift"))
        return folder
    }

    @Test func aManifestWithoutTheCModuleGetsBothTargetsSpelledOut() throws {
        let root = try package(manifest: "let package = Package(name: \"Other\")\n")
        let id = URL(fileURLWithPath: root.path).lastPathComponent.lowercased()
        #expect(id.hasPrefix("wireproof-hintroot-"), "the package id is the folder's name, lower-cased")
        #expect(try options(["--swift-out", "/s/Gen/Shop"], root: root.path).hint() == [
            "proto: to use the result, declare the generated folders as targets of your package (tools 6.2+):",
            "    dependencies: [.package(path: \"\(root.path)\")],",
            "    .target(name: \"ShopC\", dependencies: [.product(name: \"CNanopb\", package: \"\(id)\")],",
            "            path: \"</s/Gen/ShopC, relative to your package>\"),",
            "    .target(name: \"Shop\", dependencies: [\"ShopC\", .product(name: \"NanopbRuntime\", package: \"\(id)\")],",
            "            path: \"</s/Gen/Shop, relative to your package>\"),",
            "  (the C target's name must be ShopC)",
        ])
    }

    @Test func cOnlyLeavesTheFacadeTargetOutAndANamedModuleIsTheOneSpelled() throws {
        let root = try package(manifest: "")
        let lines = try options(["--c-only", "--c-module", "Named"], root: root.path).hint()
        #expect(lines.count == 5)
        #expect(lines.dropFirst(2).first?.hasPrefix("    .target(name: \"Named\", ") == true)
        #expect(lines.last == "  (the C target's name must be Named)")
        #expect(!lines.contains { $0.contains("NanopbRuntime") })
    }

    @Test func noHintWhenTheManifestNamesTheModuleOrNoRootIsGiven() throws {
        let root = try package(manifest: ".target(name: \"ShopC\", path: \"Gen/ShopC\")\n")
        #expect(try options(["--swift-out", "/s/Gen/Shop"], root: root.path).hint().isEmpty)
        #expect(try options(["--swift-out", "/s/Gen/Shop"], root: nil).hint().isEmpty)
        let named = try package(manifest: "// mentions ShopC without quotes\n")
        #expect(try options(["--swift-out", "/s/Gen/Shop"], root: named.path).hint().count == 7)
    }

    @Test func aRootWithoutAManifestGetsTheHintAsAManifestWithoutTheModuleWould() throws {
        let root = try TemporaryFolder("HintRoot")
        let lines = try options(["--swift-out", "/s/Gen/Shop"], root: root.path).hint()
        #expect(lines.count == 7)
        #expect(lines.dropFirst().first == "    dependencies: [.package(path: \"\(root.path)\")],")
    }
}
