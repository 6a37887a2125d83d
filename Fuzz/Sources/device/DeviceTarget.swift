// libFuzzer target `device`: each input decoded by the facades and by the device's build (the
// schema's own nanopb options; DeviceProof's driver kept running in a child process), acceptance
// and meaning judged as the device party judges its seeded mutants (DeviceMutantCheck): what
// differs must be what an option makes differ. Built only over a schema with options, by
// `wireproof prove --fuzz-seconds` (SchemaFuzzStep), which sets the two variables below.
// Coverage guides through the facades' side; the device's C runs uninstrumented in its process.

import DeviceProof
import FacadeProof
import Foundation
import FuzzKit

/// The device driver and its layout (compiled sizes applied), from the environment.
nonisolated(unsafe) let device: (session: DeviceSession, layout: DeviceLayout) = {
    guard let driver = environmentValue("WIREPROOF_DEVICE_DRIVER"), let layoutPath = environmentValue("WIREPROOF_DEVICE_LAYOUT") else {
        fatalError("device: set WIREPROOF_DEVICE_DRIVER and WIREPROOF_DEVICE_LAYOUT (wireproof prove --fuzz-seconds does)")
    }
    do {
        var layout = try DeviceLayout(contentsOf: layoutPath)
        layout.applySizes(try DeviceDriver(executable: driver, workDirectory: NSTemporaryDirectory()).fieldSizes())
        return (DeviceSession(executable: driver), layout)
    } catch {
        fatalError("device: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func deviceOneInput(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let harness = FuzzHarness.shared
    guard let (index, bytes) = harness.frame(data, size) else { return 0 }
    let type = harness.catalog.messageTypes[index], schema = harness.messageSchemas[index]
    guard let deviceIndex = device.layout.index(of: type.fullName) else { return 0 }
    let answer: DeviceAnswer
    do { answer = try device.session.answer(index: deviceIndex, bytes: bytes) } catch {
        brokenProperty("device", "[device-driver] \(error)")
    }
    if case .failure(let what) = DeviceMutantCheck.judge(bytes, schema: schema, facade: type, answer: answer,
                                                         schemas: harness.schemas, layout: device.layout) {
        brokenProperty("device", "[device-agrees] \(type.fullName): \(what)")
    }
    return 0
}
