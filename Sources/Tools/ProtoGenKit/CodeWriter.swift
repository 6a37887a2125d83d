/// Indented text output.
package struct CodeWriter {
    package private(set) var text = ""
    private var indent = 0

    package init() {}

    package mutating func line(_ s: String = "") {
        text += s.isEmpty ? "\n" : String(repeating: "    ", count: indent) + s + "\n"
    }
    package mutating func open(_ s: String) { line(s); indent += 1 }
    package mutating func close(_ s: String) { indent -= 1; line(s) }
    package mutating func block(_ header: String, _ body: [String]) {
        open(header)
        for l in body { line(l) }
        close("}")
    }
}
