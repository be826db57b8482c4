import ArgumentParser

/// `scanreader`: reads digits from photos and scans.
@main
struct ScanReaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scanreader",
        abstract: "Read digits from photos and scans of documents, in batch.",
        subcommands: [ReadCommand.self, EvalCommand.self, ModelCommand.self],
        defaultSubcommand: ReadCommand.self)
}
