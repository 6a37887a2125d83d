import Testing
@testable import MutationKit

@Suite struct ProseMaskTests {
    @Test func aPythonDocstringsLinesAreBlankedAndTheCodeAfterItIsNot() {
        let source = ["def f():\n", "    \"\"\"Doc\n", "    x == 1\n", "    \"\"\"\n", "    return x == 1\n", "y = '''one'''\n", "z == 1\n"]
        #expect(ProseMask.masked(path: "a.py", source) == ["def f():\n", "\n", "\n", "\n", "    return x == 1\n", "\n", "z == 1\n"])
    }

    @Test func aShellHereDocumentsBodyIsBlankedUpToItsDelimiter() {
        let source = ["cat <<-'EOF' > f\n", "if true; then\n", "  EOF\n", "rm -f x\n", "read a <<<word\n", "grep y\n"]
        #expect(ProseMask.masked(path: "a.sh", source) == ["cat <<-'EOF' > f\n", "\n", "\n", "rm -f x\n", "read a <<<word\n", "grep y\n"])
    }

    @Test func aGlobIsNotReadAsABlockCommentInScriptsAndComesBackInTheMutant() throws {
        let set = try RuleSet(text: " -f ==> \n", path: "t")
        let source = ["rm -f \"$d\"/*.h\n", "rm -f x\n"]
        let mutants = MutantSource.mutants(layer: Layer.all[0], path: "a.sh", source: source, rules: set)
        #expect(mutants.map(\.mutated) == ["rm \"$d\"/*.h\n", "rm x\n"])
        // In Swift the same line opens a block comment: nothing after it is mutated.
        #expect(MutantSource.mutants(layer: Layer.all[0], path: "a.swift", source: source, rules: set).isEmpty)
    }
}
