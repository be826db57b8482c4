import ArgumentParser

/// `scanreader`: reads digits from photos and scans.
@main
struct ScanReaderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scanreader",
        abstract: "Read digits from photos and scans of documents, in batch.",
        subcommands: [ModelCommand.self])
}
