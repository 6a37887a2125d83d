// A small schema and the device layout nanopb would give it under a few options, written out by
// hand so the device party's pure checks run in process without building nanopb. Shared by the
// tests of DeviceMutantCheck, DeviceComparison and DeviceProof.run with a stand-in driver.

import DeviceProof
import Foundation
import ProofSupport
import ProtoOracle
import ProtoSchema

enum HandWrittenDeviceLayout {
    static let proto = """
        syntax = "proto2";
        package dv;
        message Sub { optional string tag = 1; repeated int32 vals = 2 [packed = true]; }
        message Dev {
          required int32 id = 1;
          optional string name = 2;
          optional bytes note = 3;
          optional Sub sub = 4;
          repeated int32 fixed = 5 [packed = true];
          optional int32 gone = 6;
          optional bytes key = 7;
          optional int32 extra = 8;
          optional int32 plain = 9;
          repeated bytes keys = 10;
        }
        message Holder { required Dev dev = 1; optional Dev far = 20; }
        message Lossy { required bytes blob = 1; optional int32 x = 2; required int32 y = 3; }
        message Tight { required string code = 1; }
        message Counted { map<int32, int32> counts = 1; map<int32, int32> loose = 2; }
        message Clipped { required int32 y = 1; optional string s = 2; }
        """

    /// The layout, in driver table order: Sub, Dev, Holder, Lossy, Tight, Counted, Clipped. Limits: Sub.tag 2 bytes
    /// (max_size = 3), Sub.vals at most 2; Dev.name 4 bytes (max_length = 4), Dev.note a callback,
    /// Dev.fixed exactly 2 (fixed_count), Dev.gone FT_IGNORE, Dev.key and Dev.keys fixed_length 2,
    /// Dev.plain proto3 = true; Dev.extra is not in the layout. Lossy drops both required fields. Tight's
    /// required string holds no byte (max_size = 1); Counted.counts is a map of at most 4 entries;
    /// Clipped drops its required y and holds 2 bytes of s (max_length = 2).
    static let layoutJSON = """
        {"options": true, "messages": [
          {"fullName": "dv.Sub", "cName": "dv_Sub", "dropped": [], "fields": [
            {"name": "tag", "number": 1, "allocation": "STATIC", "rules": "OPTIONAL", "type": "STRING", "maxSize": 3, "cType": "char", "options": {}},
            {"name": "vals", "number": 2, "allocation": "STATIC", "rules": "REPEATED", "type": "INT32", "maxCount": 2, "cType": "int32_t", "options": {}}]},
          {"fullName": "dv.Dev", "cName": "dv_Dev", "dropped": [{"name": "gone", "number": 6, "options": {"type": "FT_IGNORE"}}], "fields": [
            {"name": "id", "number": 1, "allocation": "STATIC", "rules": "REQUIRED", "type": "INT32", "cType": "int32_t", "options": {}},
            {"name": "name", "number": 2, "allocation": "STATIC", "rules": "OPTIONAL", "type": "STRING", "maxSize": 5, "cType": "char", "options": {"max_length": "4"}},
            {"name": "note", "number": 3, "allocation": "CALLBACK", "rules": "OPTIONAL", "type": "BYTES", "cType": "pb_callback_t", "options": {"type": "FT_CALLBACK"}},
            {"name": "sub", "number": 4, "allocation": "STATIC", "rules": "OPTIONAL", "type": "MESSAGE", "cType": "dv_Sub", "options": {}},
            {"name": "fixed", "number": 5, "allocation": "STATIC", "rules": "FIXARRAY", "type": "INT32", "maxCount": 2, "cType": "int32_t", "options": {"fixed_count": "true"}},
            {"name": "key", "number": 7, "allocation": "STATIC", "rules": "OPTIONAL", "type": "FIXED_LENGTH_BYTES", "maxSize": 2, "cType": "pb_byte_t", "options": {"fixed_length": "true"}},
            {"name": "plain", "number": 9, "allocation": "STATIC", "rules": "OPTIONAL", "type": "INT32", "cType": "int32_t", "options": {"proto3": "true"}},
            {"name": "keys", "number": 10, "allocation": "STATIC", "rules": "REPEATED", "type": "FIXED_LENGTH_BYTES", "maxSize": 2, "maxCount": 3, "cType": "pb_byte_t", "options": {"fixed_length": "true"}}]},
          {"fullName": "dv.Holder", "cName": "dv_Holder", "dropped": [], "fields": [
            {"name": "dev", "number": 1, "allocation": "STATIC", "rules": "REQUIRED", "type": "MESSAGE", "cType": "dv_Dev", "options": {}},
            {"name": "far", "number": 20, "allocation": "STATIC", "rules": "OPTIONAL", "type": "MESSAGE", "cType": "dv_Dev", "options": {}}]},
          {"fullName": "dv.Lossy", "cName": "dv_Lossy", "dropped": [{"name": "y", "number": 3, "options": {"type": "FT_IGNORE"}}], "fields": [
            {"name": "blob", "number": 1, "allocation": "CALLBACK", "rules": "REQUIRED", "type": "BYTES", "cType": "pb_callback_t", "options": {}},
            {"name": "x", "number": 2, "allocation": "STATIC", "rules": "OPTIONAL", "type": "INT32", "cType": "int32_t", "options": {}}]},
          {"fullName": "dv.Tight", "cName": "dv_Tight", "dropped": [], "fields": [
            {"name": "code", "number": 1, "allocation": "STATIC", "rules": "REQUIRED", "type": "STRING", "maxSize": 1, "cType": "char", "options": {}}]},
          {"fullName": "dv.Counted", "cName": "dv_Counted", "dropped": [], "fields": [
            {"name": "counts", "number": 1, "allocation": "STATIC", "rules": "REPEATED", "type": "MESSAGE", "maxCount": 4, "cType": "dv_Counted_CountsEntry", "options": {}},
            {"name": "loose", "number": 2, "allocation": "POINTER", "rules": "REPEATED", "type": "MESSAGE", "cType": "dv_Counted_LooseEntry", "options": {}}]},
          {"fullName": "dv.Clipped", "cName": "dv_Clipped", "dropped": [{"name": "y", "number": 1, "options": {"type": "FT_IGNORE"}}], "fields": [
            {"name": "s", "number": 2, "allocation": "STATIC", "rules": "OPTIONAL", "type": "STRING", "maxSize": 3, "cType": "char", "options": {"max_length": "2"}}]}
        ]}
        """

    /// The compiled schema (protoc, once per test process), the decoded layout, and the
    /// descriptor set's bytes (for commands that read it from a file).
    static let fixture: (schemas: SchemaSet, layout: DeviceLayout, descriptorSet: [UInt8]) = {
        do {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wireproof-dv-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: dir + "/dv", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try proto.write(toFile: dir + "/dv/dev.proto", atomically: true, encoding: .utf8)
            try layoutJSON.write(toFile: dir + "/layout.json", atomically: true, encoding: .utf8)
            let protoc = try ChildProcess.run("/usr/bin/protoc", ["-I.", "--descriptor_set_out=set.pb", "dv/dev.proto"], in: dir)
            guard protoc.status == 0 else { fatalError("protoc: \(protoc.stderrText)") }
            return (try SchemaSet(contentsOf: dir + "/set.pb"), try DeviceLayout(contentsOf: dir + "/layout.json"),
                    try ChildProcess.readFile(dir + "/set.pb"))
        } catch {
            fatalError("hand-written device layout: \(error)")
        }
    }()
    static var schemas: SchemaSet { fixture.schemas }
    static var layout: DeviceLayout { fixture.layout }
    static func schema(_ name: String) -> MessageSchema { schemas.message("dv." + name)! }
    /// The oracle's reading of `bytes` as `dv.<name>`.
    static func message(_ name: String, _ bytes: [UInt8]) throws -> DynamicMessage {
        try DynamicMessage(serializedBytes: bytes, schema: schema(name), in: schemas)
    }
}
