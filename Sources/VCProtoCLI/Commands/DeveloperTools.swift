import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// What the maintainers' commands (`generate-model`, `generate-spec`, `schema`) need from the code
/// generator, handed in by the `vcproto-dev` executable, which links VCProtoCodegen. The shipped
/// `vcproto` has none, so it neither lists those commands nor links the generator.
public struct DeveloperTools: Sendable {
  /// One generated file: its path under the output directory and its text.
  public typealias File = (path: String, contents: String)

  /// The typed Swift model's files.
  var modelFiles: @Sendable () -> [File]
  /// The JSON Schema files of one catalog.
  var schemaFiles: @Sendable (ProtocolCatalog) -> [File]
  /// Where the message reference is written by default (relative to the checkout).
  var referencePath: String
  /// From the example frames (``SpecExamples``) and STANDARDS.md's text: the rewritten STANDARDS.md
  /// and the message reference.
  var renderSpec:
    @Sendable (_ examples: [String: String], _ standards: String) -> (standards: String, reference: String)

  /// Tools made of the generator's entry points.
  public init(
    modelFiles: @escaping @Sendable () -> [File], schemaFiles: @escaping @Sendable (ProtocolCatalog) -> [File],
    referencePath: String,
    renderSpec:
      @escaping @Sendable (_ examples: [String: String], _ standards: String) -> (
        standards: String, reference: String
      )
  ) {
    self.modelFiles = modelFiles
    self.schemaFiles = schemaFiles
    self.referencePath = referencePath
    self.renderSpec = renderSpec
  }
}
