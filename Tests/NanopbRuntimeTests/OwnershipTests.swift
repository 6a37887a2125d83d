// Storage identity and lifetime: in-place modifying, copy-on-share, views keeping parents alive,
// owned() detaching them, and builder getters never handing out views into a builder.

import Testing
import TestSupport
@_spi(NanopbFacade) import NanopbRuntime
import BundledProto

@Suite struct OwnershipTests {
    @Test func modifyingAUniquelyOwnedMessageMutatesInPlace() {
        expectBalancedAllocations {
            let message = Rtm_Codec.with { $0.mimeType = "audio/opus"; $0.clockRate = 48_000 }
            let storage = ObjectIdentifier(message._box)
            let address = message._pointer
            let changed = (consume message).modifying { $0.channels = 2 }
            #expect(ObjectIdentifier(changed._box) == storage)
            #expect(changed._pointer == address)
            #expect(changed.channels == 2 && changed.mimeType == "audio/opus" && changed.clockRate == 48_000)
        }
    }

    @Test func modifyingASharedMessageCopiesAndLeavesTheOriginalUntouched() {
        expectBalancedAllocations {
            let original = Rtm_Codec.with { $0.mimeType = "audio/opus" }
            let shared = original
            let changed = shared.modifying { $0.mimeType = "audio/red" }
            #expect(ObjectIdentifier(changed._box) != ObjectIdentifier(original._box))
            #expect(original.mimeType == "audio/opus")
            #expect(changed.mimeType == "audio/red")
        }
    }

    @Test func modifyingAViewCopiesInsteadOfWritingIntoTheParent() {
        expectBalancedAllocations {
            let layer = Rtm_SimulcastCodec.with { $0.layers = [.with { $0.width = 640 }] }
            let view = layer.layers[0]
            #expect(!view.isOwning)
            let changed = view.modifying { $0.width = 1280 }
            #expect(changed.isOwning && changed.width == 1280)
            #expect(layer.layers[0].width == 640)
            #expect(ObjectIdentifier(changed._box) != ObjectIdentifier(layer._box))
        }
    }

    @Test func modifyingTheSharedEmptyValueNeverWritesIt() {
        expectBalancedAllocations {
            let built = Rtm_Codec().modifying { $0.fmtp = "x" }
            #expect(built.fmtp == "x")
            #expect(Rtm_Codec().fmtp == "" && (try? Rtm_Codec().serializedBytes()) == [])
        }
    }

    @Test func aViewKeepsItsParentsStorageAlive() throws {
        try expectBalancedAllocations { () throws in
            weak var parentBox: NanopbBox?
            var view: Rtm_VideoLayer?
            do {
                let parent = try Rtm_SimulcastCodec(serializedBytes: Rtm_SimulcastCodec.with {
                    $0.layers = [.with { $0.rid = "q" }, .with { $0.rid = "h" }]
                }.serializedBytes())
                parentBox = parent._box
                view = parent.layers[1]
            }
            #expect(parentBox != nil, "the view must retain the parent's box")
            #expect(view?.rid == "h")
            #expect(view.map { ObjectIdentifier($0._box) } == parentBox.map(ObjectIdentifier.init))
            view = nil
            #expect(parentBox == nil, "dropping the last view frees the parent")
        }
    }

    @Test func ownedDetachesAViewFromItsParent() throws {
        try expectBalancedAllocations { () throws in
            weak var parentBox: NanopbBox?
            var detached: Rtm_VideoLayer?
            do {
                let parent = Rtm_SimulcastCodec.with { $0.layers = [.with { $0.rid = "f"; $0.width = 1920 }] }
                parentBox = parent._box
                detached = parent.layers[0].owned()
            }
            #expect(parentBox == nil, "owned() must not retain the parent")
            #expect(detached?.isOwning == true)
            #expect(detached?.rid == "f" && detached?.width == 1920)
        }
    }

    @Test func ownedReturnsAnOwningValueUnchanged() {
        expectBalancedAllocations {
            let message = Rtm_VideoLayer.with { $0.rid = "x" }
            #expect(ObjectIdentifier(message.owned()._box) == ObjectIdentifier(message._box))
        }
    }

    @Test func submessageReadsAreZeroCopyViews() {
        expectBalancedAllocations {
            let codec = Rtm_SimulcastCodec.with { $0.codec = .with { $0.mimeType = "video/AV1" } }
            let a = codec.codec, b = codec.codec
            #expect(a._pointer == b._pointer)
            #expect(ObjectIdentifier(a._box) == ObjectIdentifier(codec._box))
        }
    }

    @Test func builderGettersReturnCopiesThatSurviveLaterSetters() {
        expectBalancedAllocations {
            var kept: Rtm_Codec?
            let built = Rtm_SimulcastCodec.with {
                $0.codec = .with { $0.mimeType = "first" }
                kept = $0.codec
                $0.codec = .with { $0.mimeType = "second" }  // frees the struct a view would point into
            }
            #expect(kept?.mimeType == "first" && kept?.isOwning == true)
            #expect(built.codec.mimeType == "second")
        }
    }

    @Test func settingAMessageStoresACopyNotAnAlias() {
        expectBalancedAllocations {
            let inner = Rtm_Codec.with { $0.mimeType = "a" }
            let outer = Rtm_SimulcastCodec.with { $0.codec = inner }
            #expect(outer.codec._pointer != inner._pointer)
            #expect(outer.codec == inner)
        }
    }

    @Test func settingAFreshlyBuiltChildAdoptsItsTreeInsteadOfCopyingIt() {
        expectBalancedAllocations {
            // The documented idiom `$0.child = .with { ... }`: the child is uniquely owned, so its tree
            // moves into the parent (the string allocation is the very one the inner builder made).
            var innerString: UnsafeMutablePointer<CChar>?
            let outer = Rtm_SimulcastCodec.with {
                $0.codec = .with { $0.mimeType = "video/AV1"; innerString = $0._pointer.pointee.mime_type }
            }
            #expect(innerString != nil && outer.codec._pointer.pointee.mime_type == innerString)
            #expect(outer.codec.mimeType == "video/AV1")
        }
    }

    @Test func aFreshlyBuiltOneofMemberIsAdoptedToo() {
        expectBalancedAllocations {
            var innerText: UnsafeMutablePointer<CChar>?
            let viaCase = Rtm_DataPacket.with {
                $0.value = .chat(.with { $0.text = "hi"; innerText = $0._pointer.pointee.text })
            }
            #expect(innerText != nil && viaCase.chat._pointer.pointee.text == innerText)
            let viaMember = Rtm_DataPacket.with {
                $0.chat = .with { $0.text = "hello"; innerText = $0._pointer.pointee.text }
            }
            #expect(viaMember.chat._pointer.pointee.text == innerText && viaMember.chat.text == "hello")
        }
    }

    @Test func aSharedChildIsCopiedAndStaysIntact() {
        expectBalancedAllocations {
            let child = Rtm_Codec.with { $0.mimeType = "audio/opus" }
            let outer = Rtm_SimulcastCodec.with { $0.codec = child }
            #expect(outer.codec._pointer.pointee.mime_type != child._pointer.pointee.mime_type)
            #expect(child.mimeType == "audio/opus" && outer.codec.mimeType == "audio/opus")
        }
    }

    @Test func aViewChildIsCopiedAndItsParentStaysIntact() {
        expectBalancedAllocations {
            let source = Rtm_SimulcastCodec.with { $0.codec = .with { $0.mimeType = "video/VP8" } }
            let outer = Rtm_SimulcastCodec.with { $0.codec = source.codec }
            #expect(outer.codec._pointer.pointee.mime_type != source.codec._pointer.pointee.mime_type)
            #expect(source.codec.mimeType == "video/VP8" && outer.codec.mimeType == "video/VP8")
        }
    }

    @Test func freshRepeatedElementsAreAdoptedAndSharedOnesCopied() {
        expectBalancedAllocations {
            var rids: [UnsafeMutablePointer<CChar>?] = []
            let adopted = Rtm_SimulcastCodec.with {
                $0.layers = (0..<3).map { i in .with { $0.rid = "r\(i)"; rids.append($0._pointer.pointee.rid) } }
            }
            #expect(NanopbField.entries(adopted._pointer.pointee.layers, adopted._pointer.pointee.layers_count).map { $0.rid } == rids)
            let shared = adopted.layers.map { $0.owned() }
            let copied = Rtm_SimulcastCodec.with { $0.layers = shared }
            #expect(copied.layers.map(\.rid) == ["r0", "r1", "r2"] && shared.map(\.rid) == ["r0", "r1", "r2"])
            #expect(copied.layers[0]._pointer.pointee.rid != shared[0]._pointer.pointee.rid)
        }
    }

    @Test func emptyMessagesShareOneAllocation() {
        expectBalancedAllocations {
            #expect(ObjectIdentifier(Rtm_Codec()._box) == ObjectIdentifier(Rtm_Codec()._box))
            let absent = Rtm_SimulcastCodec().codec
            #expect(ObjectIdentifier(absent._box) == ObjectIdentifier(Rtm_Codec()._box))
        }
    }

    @Test func descriptionSurvivesGenericContexts() {
        expectBalancedAllocations {
            func render<T>(_ value: T) -> String { "\(value)" }
            let layer = Rtm_VideoLayer.with { $0.width = 1 }
            #expect(render(layer) == "Rtm_VideoLayer(10 01)")
            #expect(String(describing: layer) == render(layer))
        }
    }

    @Test func messagesAreSendableAndReadableConcurrently() async {
        let message = Rtm_SimulcastCodec.with { $0.layers = (0..<16).map { i in .with { $0.width = UInt32(i) } } }
        let sums = await withTaskGroup(of: UInt32.self) { group in
            for _ in 0..<8 { group.addTask { message.layers.reduce(0) { $0 + $1.width } } }
            return await group.reduce(into: [UInt32]()) { $0.append($1) }
        }
        #expect(sums == Array(repeating: 120, count: 8))
    }

    @Test func overwritingOrClearingScalarEnumAndRepeatedFieldsReleasesTheOldValues() throws {
        // The same for the other setters: a scalar or enum set back to its implicit default, and
        // repeated scalars and messages replaced, then emptied.
        try expectBalancedAllocations { () throws in
            let message = Rtm_Codec.with {
                $0.clockRate = 48_000; $0.codec = .opus
                $0.clockRate = 16_000; $0.codec = .red
                $0.payloadTypes = [96, 97]; $0.feedback = [.with { $0.kind = "nack" }, .with { $0.kind = "pli" }]
                $0.payloadTypes = [111]; $0.feedback = [.with { $0.kind = "fir" }]
                $0.clockRate = 0; $0.codec = .unspecified; $0.payloadTypes = []; $0.feedback = []
            }
            #expect(message.clockRate == 0 && message.codec == .unspecified && message.payloadTypes.isEmpty && message.feedback.isEmpty)
            #expect(try message.serializedBytes() == [])
        }
    }

    @Test func overwritingOrClearingAStringOrBytesFieldReleasesTheOldValue() throws {
        // Every setter frees the value it replaces: when it stores a new one, and when the
        // implicit-presence empty value clears the field (a leak mutation testing found unguarded).
        try expectBalancedAllocations { () throws in
            let message = Rtm_UserPayload.with {
                $0.payload = [1, 2, 3]; $0.topic = "a"
                $0.payload = [4, 5]; $0.topic = "bb"
                $0.payload = []; $0.topic = ""
            }
            #expect(message.payload.isEmpty && message.topic.isEmpty)
            #expect(try message.serializedBytes() == [])
        }
    }
}

