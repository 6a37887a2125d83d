// GenerationTools.wireproofRoot: the one way every tool finds the Wireproof tree.

import Foundation
import Testing
@testable import ProtoGenKit
import TestSupport

@Suite struct WireproofRootTests {
    let elsewhere = "/usr/bin/true"

    @Test func theTreeAboveTheRunningProgramIsFoundWithoutEnvironment() throws {
        let program = repositoryRoot + "/.build/debug/protogen"
        #expect(try GenerationTools.wireproofRoot(environment: [:], executable: program, compiledFrom: "/nowhere/x.swift") == repositoryRoot)
    }

    @Test func aProgramOutsideAnyTreeFallsBackToTheTreeItWasCompiledFrom() throws {
        let source = repositoryRoot + "/Sources/Tools/ProtoGenKit/Generation/GenerationTools.swift"
        #expect(try GenerationTools.wireproofRoot(environment: [:], executable: elsewhere, compiledFrom: source) == repositoryRoot)
    }

    @Test func noTreeAnywhereFailsNamingTheVariableToSet() {
        #expect(throws: GeneratorError.self) {
            try GenerationTools.wireproofRoot(environment: [:], executable: elsewhere, compiledFrom: "/nowhere/a/b/c/d/e.swift")
        }
        do {
            _ = try GenerationTools.wireproofRoot(environment: [:], executable: elsewhere, compiledFrom: "/nowhere/a/b/c/d/e.swift")
        } catch { #expect("\(error)".contains("set WIREPROOF_ROOT")) }
    }

    @Test func aWireproofRootThatIsNoTreeIsRefusedNotIgnored() throws {
        do {
            _ = try GenerationTools.wireproofRoot(environment: ["WIREPROOF_ROOT": "/tmp"], executable: repositoryRoot + "/.build/debug/protogen")
            Issue.record("WIREPROOF_ROOT=/tmp was accepted")
        } catch { #expect("\(error)".contains("WIREPROOF_ROOT is not a Wireproof tree")) }
        #expect(try GenerationTools.wireproofRoot(environment: ["WIREPROOF_ROOT": repositoryRoot], executable: elsewhere) == repositoryRoot)
    }
}
