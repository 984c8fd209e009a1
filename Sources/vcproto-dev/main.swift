import Foundation
import VCProtoCLI
import VCProtoCodegen

// `vcproto-dev`: the maintainers' commands (regenerating the model, the schemas and the message
// reference from the catalog; HMAC for the cross-checks). Not a product: users run `vcproto`, which
// does not link the code generator.
let tools = DeveloperTools(
  modelFiles: { SwiftModelGenerator().files().map { (path: $0.name, contents: $0.contents) } },
  schemaFiles: { SchemaGenerator(catalog: $0).files().map { (path: $0.path, contents: $0.contents) } },
  referencePath: SpecGenerator.referencePath,
  renderSpec: { examples, standards in
    let generator = SpecGenerator(examples: examples)
    return (generator.render(into: standards), generator.reference())
  })
exit(VCProtoCommand.developerMain(Array(CommandLine.arguments.dropFirst()), .standard, tools: tools))
