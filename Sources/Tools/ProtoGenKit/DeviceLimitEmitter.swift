// `--limits-from-options`: per message, the limits the schema's options give the device's nanopb
// build (read from nanopb's own layout of the schema, scripts/device-build.py) and the walk that
// checks a built message against them, as a `NanopbDeviceLimited` conformance of the C struct.
// The walk reads the C members directly (string lengths as the encoder sends them) and descends
// only into submessage types that carry a limit somewhere below them.

import NanopbDeviceLayout
import ProtoSchema

struct DeviceLimitEmitter {
    let plan: FacadePlan
    let cModule: String
    let layout: DeviceLayout
    /// Emitted messages with a limit on a field the device keeps, or on one of a submessage below.
    let limited: Set<String>

    init(plan: FacadePlan, cModule: String, layout: DeviceLayout) {
        self.plan = plan
        self.cModule = cModule
        self.layout = layout
        limited = Self.limitedMessages(plan: plan, layout: layout)
    }

    func declaration(_ message: MessageSchema) -> FacadeDeclaration {
        let cType = "\(cModule).\(plan.cTypeName(message.fullName))"
        var limits: [String] = []
        var walk: [String] = []
        let slot = "message._pointer.pointee."
        let fieldPlans = plan.plainFields(of: message).map { ($0, nil as (OneofPlan, FieldPlan)?) }
            + plan.oneofPlans(of: message).flatMap { oneof in oneof.members.map { ($0, (oneof, $0) as (OneofPlan, FieldPlan)?) } }
        for (field, oneof) in fieldPlans.sorted(by: { $0.0.field.number < $1.0.field.number }) {
            guard let device = layout.message(message.fullName)?.field(number: field.field.number), !device.isDroppedByDevice else { continue }
            var lines: [String] = []
            let member = slot + (oneof.map { $0.0.memberPath($0.1) } ?? field.cMember)
            let count = slot + field.countName
            let path = "path + \(device.name.swiftLiteral)"
            let (whole, each) = device.limits
            func index(_ limit: DeviceLimit) -> String {
                limits.append("NanopbDeviceLimit(field: \(device.name.swiftLiteral), kind: \(Self.kind(limit.kind)), option: \(limit.option.swiftLiteral)),")
                return "deviceLimits[\(limits.count - 1)]"
            }
            for limit in whole { lines.append("check.count(\(index(limit)), \(path), \(count))") }
            // A map is counted (above), never looked into, as the device's check does.
            let isMap: Bool, isRepeated: Bool
            switch field.shape {
            case .map: (isMap, isRepeated) = (true, false)
            case .repeated: (isMap, isRepeated) = (false, true)
            case .singular, .oneofMember: (isMap, isRepeated) = (false, false)
            }
            if !isMap {
                for limit in each {
                    let call: String
                    switch field.value.category {
                    case .string: call = isRepeated ? "strings" : "string"
                    case .bytes: call = isRepeated ? "byteArrays" : "bytes"
                    case .scalar: call = isRepeated ? "integers" : "integer"
                    case .bool, .enumeration, .message: continue
                    }
                    lines.append("check.\(call)(\(index(limit)), \(path), \(member)\(isRepeated ? ", \(count)" : ""))")
                }
                if field.value.isMessage, let type = field.field.typeName, limited.contains(type) {
                    lines.append(isRepeated ? "check.messages(message._views(\(member), \(count)), \(path))"
                                            : "if \(member) != nil { check.message(message._view(\(member)), \(path)) }")
                }
            }
            if let (oneofPlan, _) = oneof, !lines.isEmpty {
                lines = ["if \(slot)\(oneofPlan.whichCName) == \(field.field.number) {"] + lines.map { "    " + $0 } + ["}"]
            }
            walk += lines
        }
        var declaration = FacadeDeclaration(kind: .deviceLimits, header: "extension \(cType): NanopbDeviceLimits.NanopbDeviceLimited {")
        declaration.members.append(FacadeMember(name: "deviceLimits", access: .constant, lines: limits.isEmpty
            ? ["public static let deviceLimits: [NanopbDeviceLimit] = []"]
            : ["public static let deviceLimits: [NanopbDeviceLimit] = ["] + limits.map { "    " + $0 } + ["]"]))
        let signature = "public static func _collectDeviceLimitViolations(_ message: NanopbMsg<Self>, _ path: String, into check: inout NanopbDeviceLimitCheck)"
        declaration.members.append(FacadeMember(name: "_collectDeviceLimitViolations", access: .constant,
                                                lines: walk.isEmpty ? [signature + " {}"] : [signature + " {"] + walk.map { "    " + $0 } + ["}"]))
        return declaration
    }

    /// The limit kind as a `NanopbDeviceLimit.Kind` expression.
    static func kind(_ kind: DeviceLimit.Kind) -> String {
        switch kind {
        case .stringBytes(let max): ".stringBytes(max: \(max))"
        case .bytes(let max): ".bytes(max: \(max))"
        case .fixedBytes(let size): ".fixedBytes(size: \(size))"
        case .count(let max): ".count(max: \(max))"
        case .fixedCount(let count): ".fixedCount(count: \(count))"
        case .integer(let low, let high): ".integer(low: \(low), high: \(high))"
        }
    }

    /// Emitted messages that have a limit on a kept field, or a kept submessage field (not a map)
    /// whose type has one: the least fixed point, so recursive types terminate.
    static func limitedMessages(plan: FacadePlan, layout: DeviceLayout) -> Set<String> {
        var limited: Set<String> = []
        let messages = plan.schema.messages.filter { plan.emitted.contains($0.fullName) && !plan.namespaces.contains($0.fullName) }
        var changed = true
        while changed {
            changed = false
            for message in messages where !limited.contains(message.fullName) {
                guard let shape = layout.message(message.fullName) else { continue }
                let hasLimit = shape.fields.contains { device in
                    guard !device.isDroppedByDevice, let field = message.field(number: device.number) else { return false }
                    let (whole, each) = device.limits
                    if !whole.isEmpty || !each.isEmpty { return true }
                    guard let type = field.typeName, field.type == .message, plan.schema.message(type)?.isMapEntry != true else { return false }
                    return limited.contains(type)
                }
                if hasLimit { limited.insert(message.fullName); changed = true }
            }
        }
        return limited
    }
}
