// An enum as an open RawRepresentable struct: numbers this build does not name survive a round
// trip. Case names: Naming.enumCaseName, aliases spelled alike after camel-casing collapse, other
// collisions take the number as suffix.

import ProtoSchema

struct EnumEmitter {
    let plan: FacadePlan

    func declaration(_ enumType: EnumSchema) -> FacadeDeclaration {
        let name = plan.swiftName(enumType.fullName)
        var declaration = FacadeDeclaration(
            kind: .openEnum,
            doc: ["/// `\(enumType.fullName)`: open, so numbers this build does not name survive a round trip."],
            header: "public struct \(name): RawRepresentable, Hashable, Sendable {")
        declaration.members.append(.constant("rawValue", "public var rawValue: Int32"))
        declaration.members.append(.constant("init", "public init(rawValue: Int32) { self.rawValue = rawValue }"))
        var seen: [String: Int32] = [:]
        for value in enumType.values {
            var caseName = Naming.enumCaseName(value.name, enumName: enumType.name)
            if let number = seen[caseName] {
                if number == value.number { continue }  // alias spelled the same after camel-casing
                caseName += value.number < 0 ? "_m\(-Int(value.number))" : "_\(value.number)"
                while seen[caseName] != nil { caseName += "_" }
            }
            seen[caseName] = value.number
            declaration.members.append(.constant(caseName, "public static let \(Naming.escaped(caseName)) = \(name)(rawValue: \(value.number))"))
        }
        return declaration
    }
}
