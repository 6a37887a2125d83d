/// Indented text output.
struct CodeWriter {
    private(set) var text = ""
    private var indent = 0

    mutating func line(_ s: String = "") {
        text += s.isEmpty ? "\n" : String(repeating: "    ", count: indent) + s + "\n"
    }
    mutating func open(_ s: String) { line(s); indent += 1 }
    mutating func close(_ s: String) { indent -= 1; line(s) }
    mutating func block(_ header: String, _ body: [String]) {
        open(header)
        for l in body { line(l) }
        close("}")
    }
}
