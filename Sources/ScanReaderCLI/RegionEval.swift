import Foundation
import ScanReader

/// `scanreader eval` with a JSON Lines truth file: every region scored (found, read
/// exactly, digits right, extra regions, orientation), per document type and condition.
struct RegionEval {
    let truthPath: String
    let reader: DocumentReader
    let jobs: Int
    let tolerance: Double
    let galleryPath: String?
    let outPath: String?
    let verbose: Bool

    func run() throws {
        let truths: [PhotoTruth]
        do { truths = try PhotoTruth.load(path: truthPath) } catch {
            throw CLIFailure(description: error.description)
        }
        let base = URL(fileURLWithPath: truthPath).deletingLastPathComponent()
        let resolve: @Sendable (String) -> String = { file in file.hasPrefix("/") ? file : base.appendingPathComponent(file).path }
        var table = RegionScoreTable()
        var pairs: [(PhotoScore, ScanResult)] = []
        let sink = try outPath.map { try OutputSink(path: $0) }
        let started = Date()
        var sinkError: Error?
        BatchRunner().run(count: truths.count, jobs: jobs, work: { i, _ in reader.read(path: resolve(truths[i].file)) },
                          emit: { i, result in
            do { try sink?.write(ResultWriter.json(result) + "\n") } catch { sinkError = sinkError ?? error }
            let score = RegionScorer.score(result, against: truths[i], tolerance: tolerance)
            table.add(score)
            pairs.append((score, result))
            if verbose && score.badness > 0 {
                print("\(truths[i].file): \(score.regions.filter { !$0.exact }.count) not exact, "
                      + "\(score.extraRegions) extra, orientation \(score.orientationRight ? "right" : "wrong")"
                      + " (read \(result.orientation.map(String.init) ?? "-"), truth \(truths[i].readingOrientation))")
            }
        })
        if let sinkError { throw sinkError }
        try sink?.finish()
        let seconds = Date().timeIntervalSince(started)
        print("\(truths.count) photos, \(String(format: "%.1f", seconds)) s, corners within "
              + "\(String(format: "%g", tolerance * 100)) % of the region's side\n")
        print(table.markdown())
        if let galleryPath {
            let png = try WorstPhotoGallery.png(scores: pairs, resolve: resolve)
            try Data(png).write(to: URL(fileURLWithPath: galleryPath), options: .atomic)
            print("\ngallery of the worst photos: \(galleryPath)")
        }
    }
}
