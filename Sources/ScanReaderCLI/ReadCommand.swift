import ArgumentParser
import Foundation
import ScanReader

extension ReadOptions.OrientationMode: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}

/// The main job: `scanreader photos/*.jpg --out results.csv`.
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read the digits in images (the default command).",
        discussion: """
            Exit status: 0 every input read; 2 some inputs failed (their error records are in \
            the output, all other inputs complete); 1 nothing could be done (bad model, output \
            not writable); 64 usage error. Output files are replaced atomically.
            In `text`, an empty grid cell is `.` and a digit under --min-confidence is `?`.
            """)

    @Argument(help: "Image files or folders (folders are searched for JPEG and PNG by content).")
    var inputs: [String] = []
    @Option(name: .customLong("files-from"), help: "Read more paths from FILE, one per line ('-': stdin).")
    var filesFrom: String?
    @Flag(name: [.customShort("0"), .customLong("null")], help: "--files-from entries end with NUL, not newline (find -print0).")
    var nulSeparated = false
    @Option(help: "Output file (default: stdout). Written atomically.") var out: String?
    @Option(help: "csv, json or jsonl (default: from --out's extension, else csv).") var format: OutputFormat?
    @Option(help: "Images read in parallel (default: the number of cores).") var jobs: Int?
    @Option(name: .customLong("min-confidence"), help: "Digits below this probability show as '?' in text.")
    var minConfidence: Double = ReadOptions.defaultMinConfidence
    @Option(help: "exif (apply the tag), none (ignore it, and turn no region) or auto (apply it, then turn the photo when its glyphs show a quarter or half turn: Models/glyph-turn.md). With exif and auto a document lying on its side or upside down is turned on its own.")
    var orientation: ReadOptions.OrientationMode = .exif
    @Option(name: .customLong("debug-dir"), help: "Write a PNG per image with regions, cells and digits drawn.")
    var debugDir: String?
    @Option(help: "Classifier weights (safetensors). Default: the shipped model.") var model: String?
    @Option(name: .customLong("max-pixels"), help: "Refuse images larger than this (header check).")
    var maxPixels: Int = 120_000_000
    @Option(name: .customLong("max-bytes"), help: "Refuse files larger than this many bytes, before reading them (default 256 MiB).")
    var maxBytes: Int = 256 << 20
    @Option(name: .customLong("max-memory"), help: "Bytes all decodes running at once may hold together (default 1 GB); an image needing more is refused.")
    var maxMemory: Int = 1_000_000_000
    @Flag(help: "No progress on stderr.") var quiet = false

    func validate() throws {
        if inputs.isEmpty && filesFrom == nil { throw ValidationError("no input: name image files, folders or --files-from") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if !(0...1).contains(minConfidence) { throw ValidationError("--min-confidence must be within 0...1") }
        if maxPixels < 1 { throw ValidationError("--max-pixels must be positive") }
        if maxBytes < 1 { throw ValidationError("--max-bytes must be positive") }
        if maxMemory < 1 { throw ValidationError("--max-memory must be positive") }
    }

    func run() throws {
        var options = ReadOptions()
        options.minConfidence = minConfidence
        options.orientation = orientation
        options.maxPixels = maxPixels
        options.maxBytes = maxBytes
        options.maxMemory = maxMemory
        let reader: DocumentReader
        do { reader = try DocumentReader(modelPath: ModelLocator.modelPath(explicit: model), options: options) } catch {
            throw CLIFailure(description: error.message)
        }
        let files = try InputFiles.expand(inputs, filesFrom: filesFrom, nulSeparated: nulSeparated)
        try OutputSafety.check(out: out, debugDir: debugDir, arguments: inputs, inputs: files)
        if let debugDir {
            do { try FileManager.default.createDirectory(atPath: debugDir, withIntermediateDirectories: true) } catch {
                throw CLIFailure(description: "\(debugDir): cannot create the debug folder")
            }
        }
        let format = self.format ?? out.flatMap(OutputFormat.inferred(fromPath:)) ?? .csv
        let sink = try OutputSink(path: out)
        let progress = Progress(total: files.count, enabled: !quiet && isatty(2) != 0)
        var failures = 0
        do {
            try sink.write(ResultWriter.header(format))
            var writeError: Error?
            let debugDir = self.debugDir
            let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
            SignalCleanup.install(partial: sink.temporary, destination: sink.destination, inputs: files.map(\.path), slots: jobs)
            BatchRunner().run(count: files.count, jobs: jobs, work: { i, slot in
                SignalCleanup.reading(i, slot: slot)
                defer { SignalCleanup.reading(-1, slot: slot) }
                let path: String
                switch files[i] {
                case .refused(let shown, let code, let message):
                    return ScanResult.failure(file: shown, code: code.rawValue, message: message)
                case .file(let file): path = file
                }
                guard let debugDir else { return reader.read(path: path) }
                let (result, drawing) = reader.readForDebugging(path: path)
                if let drawing, let png = try? PNGEncoder.encode(drawing) {
                    let name = String(format: "%04d-", i) + URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".png"
                    try? Data(png).write(to: URL(fileURLWithPath: debugDir).appendingPathComponent(name), options: .atomic)
                }
                return result
            }, emit: { index, result in
                if result.status != "ok" { failures += 1 }
                if writeError == nil {
                    do { try sink.write(ResultWriter.record(result, format: format, position: index)) } catch { writeError = error }
                }
                progress.advance()
            })
            if let writeError { throw CLIFailure(description: "cannot write the output: \(writeError)") }
            try sink.write(ResultWriter.trailer(format, count: files.count))
            try sink.finish()
            SignalCleanup.outputSettled()
        } catch {
            sink.abandon()
            SignalCleanup.outputSettled()
            throw error
        }
        progress.finish()
        if failures > 0 {
            if !quiet { FileHandle.standardError.write(Data("scanreader: \(failures) of \(files.count) inputs could not be read\n".utf8)) }
            throw ExitCode(2)
        }
    }
}

/// A one-line progress report on stderr (count, rate, time left), only on a terminal.
final class Progress {
    let total: Int, enabled: Bool
    var count = 0
    let start = Date()
    init(total: Int, enabled: Bool) { self.total = total; self.enabled = enabled }

    func advance() {
        count += 1
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(start)
        let rate = Double(count) / max(elapsed, 1e-6)
        let left = Double(total - count) / max(rate, 1e-6)
        FileHandle.standardError.write(Data(String(format: "\r%d/%d images  %.1f/s  %.0fs left ", count, total, rate, left).utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
