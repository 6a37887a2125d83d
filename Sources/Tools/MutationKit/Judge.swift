// Judging one mutant in the scratch copy: apply it, run what CI would run for its file, undo it.
//   1. prepare steps (setup.sh mutants), then for generator, script and catalog-emitter mutants the
//      regeneration of the bundled output (`make proto`, after building `wireproof`: a mutant that
//      stops that build is no-compile): a failed generation kills, as CI's check-protocol would fail;
//   2. `swift build --build-tests`: a mutant that does not compile is counted apart, never scored,
//      except where a broken build is the check (generated code, the ABI guard);
//   3. the layer's quick suites, then every other suite, then the layer's extra checks: any failure
//      kills; a step past its time limit (after one retry at twice the limit) is "timed out".

import Foundation

/// What became of a mutant.
public enum Outcome: String, CaseIterable, Sendable, Codable {
    case killed, timeout, survived
    case noCompile = "no-compile"
    case equivalent
    case notJudged = "not judged"
}

/// Time limits in seconds; `full` is measured the first time a mutant survives its quick suites.
/// `generate` bounds `make proto` for the mutants that regenerate (measured on the unmutated tree
/// when the sample holds such a mutant; the build's limit, minutes long, let a generator mutant
/// that loops while it allocates run for all of them).
public struct Limits: Sendable {
    public var build: Double
    public var quick: Double
    public var full: Double?
    public var generate: Double?
}

/// A mutant survived its quick suites before every suite was timed on the unmutated tree.
struct NeedsFullBaseline: Error {}

/// The mutant's line is not the scratch copy's: the copy and the tree the mutants came from differ.
struct StaleScratchCopy: Error, CustomStringConvertible {
    let description: String
}

struct Judge {
    /// Regenerates the bundled output with the (mutated) generator.
    static let regeneration = "make proto >/dev/null"
    let tree: String
    let runner: StepRunner

    func judge(_ m: Mutant, _ limits: Limits) throws -> (Outcome, String) {
        let target = tree + "/" + m.path
        guard let text = try? String(contentsOfFile: target, encoding: .utf8) else {
            throw StaleScratchCopy(description: "\(m.ident): cannot read \(target)")
        }
        var lines = SourceLines.split(text)
        guard m.line <= lines.count, lines[m.line - 1] == m.original else {
            throw StaleScratchCopy(description: "\(m.ident): the scratch copy differs from the tree")
        }
        lines[m.line - 1] = m.mutated
        guard FileManager.default.createFile(atPath: target, contents: Data(lines.joined().utf8)) else {
            throw StaleScratchCopy(description: "cannot write \(target)")
        }
        let transparent = SwiftCallers.inTransparentFunction(tree: tree, path: m.path, line: m.line)
        if transparent { SwiftCallers.touch(tree: tree) }
        defer {
            try? ScratchTree.restore(tree: tree)
            if transparent { SwiftCallers.touch(tree: tree) }  // callers inlined the mutant: recompile them
            // What a prepare step wrote outside the tracked files (setup.sh's git-ignored nanopb copy)
            // is not undone by restore: the unmutated step rewrites it.
            for command in m.layer.prepare where runner.run(command, limit: limits.build) != .ok {
                Log.say("the unmutated `\(command)` failed after \(m.ident); see \(runner.logfile)")
            }
        }
        return try steps(m, limits)
    }

    private func steps(_ m: Mutant, _ limits: Limits) throws -> (Outcome, String) {
        for command in m.layer.prepare {
            switch runner.run(command, limit: limits.build) {
            case .ok: continue
            case .failed: return (.killed, "\(command) failed")
            case .timeout: return (.timeout, command)
            }
        }
        let regenerates = m.layer.regenerates(m.path)
        if regenerates {
            // `make proto` runs `wireproof generate`, which links the generator and the catalog
            // emitter: a mutant that stops it building is no-compile, not a failed generation.
            switch runner.run("swift build --product wireproof", limit: limits.build) {
            case .ok: break
            case .failed: return (.noCompile, "wireproof does not build")
            case .timeout: return (.timeout, "build")
            }
            switch runner.run(Judge.regeneration, limit: limits.generate ?? limits.build) {
            case .ok: break
            case .failed: return (.killed, "make proto failed")
            case .timeout: return (.timeout, "make proto")
            }
        }
        switch runner.run("swift build --build-tests", limit: limits.build, retryTimeout: true) {
        case .ok: break
        case .timeout: return (.timeout, "build")
        case .failed:
            // Generated code that does not build is caught by CI's build, and so is a configuration
            // mutant that trips the ABI guard: that guard's job is to break the build.
            if regenerates { return (.killed, "generated code does not build") }
            if m.layer.buildIsCheck { return (.killed, "the build's own checks") }
            return (.noCompile, "")
        }
        switch runner.run("swift test --skip-build --filter '\(m.layer.quick)'", limit: limits.quick, retryTimeout: true) {
        case .ok: break
        case .failed: return (.killed, "quick suites")
        case .timeout: return (.timeout, "quick suites")
        }
        guard let full = limits.full else { throw NeedsFullBaseline() }
        var later = [("all suites", "swift test --skip-build --skip '\(m.layer.quick)'", full)]
        later += m.layer.extra.map { ($0, $0, m.layer.extraLimit > 0 ? Double(m.layer.extraLimit) : limits.build) }
        for (name, command, limit) in later {
            switch runner.run(command, limit: limit, retryTimeout: true) {
            case .ok: continue
            case .failed: return (.killed, name)
            case .timeout: return (.timeout, name)
            }
        }
        return (.survived, "")
    }
}

/// Progress lines on standard error.
enum Log {
    static func say(_ text: String) {
        FileHandle.standardError.write(Data("mutation: \(text)\n".utf8))
    }
}
