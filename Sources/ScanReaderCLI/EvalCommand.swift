import ArgumentParser
import Foundation
import ScanReader

/// `scanreader eval`: scores a run against ground truth.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval", abstract: "Score readings against ground truth (regions.jsonl or truth.csv).",
        discussion: """
            A JSON Lines truth file (.jsonl: one photo a line with its regions, README "Scoring \
            regions") is scored region by region: found (corners within --tolerance of the region's \
            side), read exactly, digits right, extra regions holding digits, orientation; printed per \
            document type and condition; --gallery draws the worst photos.

            A CSV truth file (file,expected) scores one grid or the fields' digits per photo. Grids: `expected` holds the cells row by row: 1-9 a digit, '.' empty, '?' a cell of small \
            pencilled candidates (right when read as empty). The grid scored is the largest one read. \
            Fields: `expected` is the digits; scored for exact fields and per-digit accuracy. \
            Paths in truth.csv are relative to its folder.
            """)

    @Option(help: "Ground truth: regions.jsonl (regions) or a CSV (file,expected).") var truth: String
    @Option(help: "Optional per-file mask CSV (file,mask) of p/h per cell: report printed and handwritten separately.")
    var mask: String?
    @Option(help: "Classifier weights. Default: the shipped model.") var model: String?
    @Option(help: "Images read in parallel.") var jobs: Int?
    @Option(help: "exif, none or auto.") var orientation: ReadOptions.OrientationMode = .exif
    @Option(name: .customLong("min-confidence")) var minConfidence: Double = ReadOptions.defaultMinConfidence
    @Option(help: "Write a PNG gallery here: the worst photos (JSONL truth) or misread cells (CSV).")
    var gallery: String?
    @Option(help: "JSONL truth: a region is found when every corner is within this fraction of its mean side.")
    var tolerance: Double = RegionScorer.defaultTolerance
    @Option(help: "Write every reading (JSONL) here.") var out: String?
    @Flag(help: "List every misread file.") var verbose = false

    func validate() throws {
        guard tolerance > 0 else { throw ValidationError("--tolerance must be positive") }
    }

    /// The reader with this command's options, or exit status 1 with the loader's message.
    func makeReader() throws -> DocumentReader {
        var options = ReadOptions()
        options.orientation = orientation
        options.minConfidence = minConfidence
        do { return try DocumentReader(modelPath: ModelLocator.modelPath(explicit: model), options: options) } catch {
            throw CLIFailure(description: error.message)
        }
    }

    func run() throws {
        let reader = try makeReader()
        if truth.hasSuffix(".jsonl") {
            try RegionEval(truthPath: truth, reader: reader, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                           tolerance: tolerance, galleryPath: gallery, outPath: out, verbose: verbose).run()
            return
        }
        let rows = try TruthTable(path: truth)
        let masks = try mask.map { try TruthTable(path: $0) }
        let files = rows.entries.map { rows.resolve($0.file) }
        var score = Scorecard()
        var misreads: [(file: String, result: ScanResult, cells: [Int])] = []
        let sink = try out.map { try OutputSink(path: $0) }
        let started = Date()
        BatchRunner().run(count: files.count, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                          work: { i, _ in reader.read(path: files[i]) }, emit: { i, result in
            try? sink?.write(ResultWriter.json(result) + "\n")
            let expected = rows.entries[i].expected
            let wrong = score.add(result: result, expected: expected, mask: masks?.lookup(rows.entries[i].file))
            if !wrong.isEmpty {
                misreads.append((files[i], result, wrong))
                if verbose { print("\(files[i]): \(wrong.count) wrong") }
            }
        })
        try sink?.finish()
        print(score.report(seconds: Date().timeIntervalSince(started), files: files.count))
        if let gallery {
            try MisreadGallery.write(misreads.map { ($0.file, $0.result, $0.cells) }, to: gallery, reader: reader)
            print("gallery: \(gallery)")
        }
    }
}

/// A two-column CSV of file → value (truth or mask).
struct TruthTable {
    let entries: [(file: String, expected: String)]
    let base: URL

    init(path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CLIFailure(description: "\(path): cannot read the truth file")
        }
        base = URL(fileURLWithPath: path).deletingLastPathComponent()
        entries = text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let parts = line.split(separator: ",", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }
    }

    func resolve(_ file: String) -> String {
        file.hasPrefix("/") ? file : base.appendingPathComponent(file).path
    }

    func lookup(_ file: String) -> String? { entries.first { $0.file == file }?.expected }
}
