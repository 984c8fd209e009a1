// The umbrella module: `import VCProto` brings the whole library. Each part is also a module and a
// product of its own, for an app that wants less (VCProtoCore without the connection code, or without
// zlib: see README.md, "Layout").
@_exported import VCProtoConnection
@_exported import VCProtoCore
@_exported import VCProtoEnvelope
@_exported import VCProtoJSON
