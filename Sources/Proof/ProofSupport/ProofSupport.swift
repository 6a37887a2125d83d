// What the proof's tests, tools and fuzz targets share that has nothing to do with protobuf. Child
// processes live in ProcessSupport, which the shipped generator uses too; they are re-exported here
// so the proof's code imports one module.
@_exported import ProcessSupport
