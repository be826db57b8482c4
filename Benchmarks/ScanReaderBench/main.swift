// scanreader-bench: measurements behind the figures in the README. Run through the
// scripts beside this folder (they build with -c release).
import Foundation
import DigitClassifier
import DocumentImaging
import ImageCodecs
import ImagingCore
import ScanReader

/// Median of a non-empty list.
func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// JPEG files directly in `directory`, by content (FF D8 FF), sorted.
func jpegFiles(in directory: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.sorted().map { directory + "/" + $0 }.filter { path in
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return ImageFormat.sniff(handle.readData(ofLength: 3)) == .jpeg
    }
}

/// Runs a program with posix_spawn (cheaper than Foundation's Process) and waits.
func spawnAndWait(_ argv: [String]) throws {
    var pid: pid_t = 0
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    guard posix_spawn(&pid, argv[0], nil, nil, cArgs, environ) == 0 else {
        throw CocoaError(.executableLoad)
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0 else { throw CocoaError(.executableRuntimeMismatch) }
}

/// Decode speed: ours in-process vs `djpeg -grayscale` (a process per file, output to
/// /dev/null), interleaved file by file so both see the same machine state.
func decodeBenchmark(directory: String, repeats: Int) throws {
    let files = jpegFiles(in: directory)
    guard !files.isEmpty else { print("no JPEG files in \(directory)"); exit(1) }
    var ours: [Double] = [], theirs: [Double] = []
    var megapixels: [Double] = []
    for file in files {
        var best = (Double.infinity, Double.infinity)
        for _ in 0..<repeats {
            var pixels = 0
            let t = try seconds {
                let loaded = try ImageLoader.load(path: file,
                                                  options: .init(appliesExifOrientation: false))
                pixels = loaded.image.pixels.count
            }
            best.0 = min(best.0, t)
            megapixels.append(Double(pixels) / 1e6)
            let u = try seconds {
                try spawnAndWait(["/usr/bin/djpeg", "-grayscale", "-outfile", "/dev/null", file])
            }
            best.1 = min(best.1, u)
        }
        ours.append(best.0)
        theirs.append(best.1)
    }
    let (a, b) = (median(ours), median(theirs))
    print(String(format: "files: %d JPEGs, median %.1f MP, best of %d runs each",
                 files.count, median(megapixels), repeats))
    print(String(format: "scanreader decode (in process): median %.1f ms/image", a * 1000))
    print(String(format: "djpeg -grayscale (process):     median %.1f ms/image", b * 1000))
    var spawn: [Double] = []
    for _ in 0..<20 { spawn.append(try seconds { try spawnAndWait(["/usr/bin/true"]) }) }
    print(String(format: "ratio ours / djpeg: %.3f", a / b))
    print(String(format: "(process start-up, /usr/bin/true: median %.2f ms; djpeg minus it: "
                 + "%.1f ms, ratio %.3f)", median(spawn) * 1000, (b - median(spawn)) * 1000,
                 a / (b - median(spawn))))
}

/// Decodes each file with us and with djpeg and reports the largest pixel difference.
func verifyAgainstDjpeg(directory: String) throws {
    var worst = 0
    for file in jpegFiles(in: directory) {
        let ours = try ImageLoader.load(path: file, options: .init(appliesExifOrientation: false))
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/djpeg")
        process.arguments = ["-grayscale", "-pnm", file]
        process.standardOutput = pipe
        try process.run()
        let pgm = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let pixels = Array(pgm.suffix(ours.image.pixels.count))
        let diff = zip(pixels, ours.image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        worst = max(worst, diff)
        print("\(file): \(ours.image.width)x\(ours.image.height), max difference \(diff)")
    }
    print("largest difference from djpeg: \(worst)")
}

/// Rows of an outlines.csv: file, then TL, TR, BR, BL x/y.
func readOutlines(_ path: String) throws -> [(String, [Point])] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
        let f = line.split(separator: ",").map(String.init)
        guard f.count == 9 else { return nil }
        let v = f[1...].compactMap(Double.init)
        return (f[0], stride(from: 0, to: 8, by: 2).map { Point(v[$0], v[$0 + 1]) })
    }
}

/// Corner accuracy and speed of quad detection against hand-marked grid outlines.
/// The grid is taken to be the largest quad detected (the data's note: the labelled
/// grid is the largest one). Error: corner distance / mean side of the true quad.
func geometryBenchmark(dataset: String, outlines: String, verbose: Bool) throws {
    let rows = try readOutlines(outlines)
    var errors: [Double] = [], worstPerPhoto: [Double] = [], times: [Double] = []
    var readerErrors: [Double] = [], readerWorst: [Double] = []
    var missing = 0
    // The hand-marked corners are in the displayed image, EXIF orientation applied (a
    // wichtounet photo stored 960 px wide with tag 6 has corners at x = 981), so both
    // the detector and the reader see it that way; the reader makes no rotation of its own.
    var options = ReadOptions()
    options.orientation = .exif
    let reader = try DocumentReader(modelPath: "Models/digits-lenet.safetensors", options: options)
    for (file, truth) in rows {
        let path = dataset + "/" + file
        guard let loaded = try? ImageLoader.load(path: path, options: .init(appliesExifOrientation: true)) else {
            print("cannot load \(path)"); continue
        }
        var quads: [DetectedQuad] = []
        var detector = QuadDetector()
        let env = ProcessInfo.processInfo.environment
        if let p = env["BIN_PERCENT"].flatMap(Double.init) { detector.binarization = .localMean(window: Int(env["BIN_WINDOW"] ?? "0") ?? 0, percent: p) }
        if env["NO_CLOSE"] != nil { detector.closesGaps = false }
        times.append(seconds { quads = detector.detect(in: loaded.image) })
        let side = (0..<4).map { Polygon.distance(truth[$0], truth[($0 + 1) % 4]) }.reduce(0, +) / 4
        // the grid as the reader reports it: its largest grid region
        let grids = reader.read(path: path).regions.filter { $0.kind == "grid" }
        if let g = grids.max(by: { Polygon.signedArea($0.corners.map { Point($0[0], $0[1]) }) < Polygon.signedArea($1.corners.map { Point($0[0], $0[1]) }) }) {
            let e = zip(g.corners.map { Point($0[0], $0[1]) }, truth).map { Polygon.distance($0, $1) / side * 100 }
            readerErrors += e
            readerWorst.append(e.max()!)
        } else {
            readerWorst.append(.infinity)
        }
        // the largest quad that is not the border of something larger than the photo
        guard let grid = quads.first(where: { !$0.followsImageFrame }) else {
            missing += 1; worstPerPhoto.append(.infinity)
            if verbose { print("\(file): no quad") }
            continue
        }
        let e = zip(grid.quad.corners, truth).map { Polygon.distance($0, $1) / side * 100 }
        errors += e
        worstPerPhoto.append(e.max()!)
        if verbose {
            print(String(format: "%@: worst corner %.2f %%, reader's grid %.2f %%  (%.0f ms)", file, e.max()!,
                         readerWorst.last!, times.last! * 1000))
        }
    }
    let within2 = Double(worstPerPhoto.filter { $0 <= 2 }.count) / Double(max(1, worstPerPhoto.count))
    print(String(format: "%@: %d photos, %d without a quad", outlines, rows.count, missing))
    print(String(format: "corner error, %% of grid side: median %.3f, 90th pct %.3f", median(errors),
                 errors.sorted()[min(errors.count - 1, Int(Double(errors.count) * 0.9))]))
    print(String(format: "photos with every corner within 2 %%: %.1f %%", within2 * 100))
    print(String(format: "detection time after decode (1 thread): median %.1f ms/photo", median(times) * 1000))
    let readerWithin2 = Double(readerWorst.filter { $0 <= 2 }.count) / Double(max(1, readerWorst.count))
    print(String(format: "the reader's grid (largest grid region, %d of %d found): median corner error %.3f %%, "
                 + "every corner within 2 %%: %.1f %% of photos", readerWorst.filter { $0.isFinite }.count,
                 readerWorst.count, readerErrors.isEmpty ? .nan : median(readerErrors), readerWithin2 * 100))
}

/// Draws what the detector sees and finds, on the photo decoded as the reader decodes it
/// (at `ReadOptions.workingSize`, with colour): the binarized working copy and the quads.
func drawDetection(file: String, output: String) throws {
    let loaded = try ImageLoader.load(path: file, options: .init(maxDimension: ReadOptions().workingSize,
                                                                 appliesExifOrientation: false,
                                                                 chromaBlock: DocumentReader.chromaBlock))
    let quads = QuadDetector().detect(in: loaded.image, chroma: loaded.chroma)
    var canvas = RGBCanvas(loaded.image)
    for (i, q) in quads.enumerated() {
        let color: RGBCanvas.Color = q.parent == nil ? .red : .blue
        canvas.polygon(q.quad.corners.map { ($0.x, $0.y) }, color, thickness: max(1, loaded.image.width / 400))
        canvas.text("\(i)", x: Int(q.quad.topLeft.x) + 4, y: Int(q.quad.topLeft.y) + 4, scale: max(1, loaded.image.width / 500))
    }
    try Data(PNGEncoder.encode(canvas)).write(to: URL(fileURLWithPath: output))
    let factor = max(1, Int((Double(max(loaded.image.width, loaded.image.height)) / 1000).rounded(.up)))
    let binary = loaded.image.reduced(by: factor).binarized()
    let ink = GrayImage(width: binary.width, height: binary.height, pixels: binary.bits.map { $0 == 0 ? 255 : 0 })
    try Data(PNGEncoder.encode(ink)).write(to: URL(fileURLWithPath: output + ".binary.png"))
    for q in quads.prefix(3) { print(q.quad.corners.map { String(format: "(%.1f, %.1f)", $0.x, $0.y) }.joined(separator: " ")) }
    print("\(quads.count) quads")
}

/// The boxes the reader's sheet pass looks for, drawn: each sheet (a top-level quad over a
/// tenth of the photo) straightened as the reader does, its ink against the paper grey,
/// the lines `LineBoxes` finds along rows blue and down columns green, its boxes red; one
/// PNG per sheet and ink (OUT-k-f.png), the last its ridges (every box they show, before
/// `LineBoxes.boxes(in:ridges:largestShare:)` sets some aside). The reader skips sheets
/// where it read a grid; this does not.
func drawSheetBoxes(file: String, output: String) throws {
    let image = try ImageLoader.load(path: file, options: .init(maxDimension: ReadOptions().workingSize)).image
    let detector = QuadDetector()
    var sheets = detector.detect(in: image).filter {
        $0.parent == nil && !$0.followsImageFrame && $0.quad.area >= 0.1 * Double(image.width * image.height)
    }
    // SHEET=x,y,x,y,x,y,x,y: that quad instead (a sheet the reader recovered from its fields)
    if let given = ProcessInfo.processInfo.environment["SHEET"]?.split(separator: ",").compactMap({ Double($0) }),
       given.count == 8 {
        sheets = [DetectedQuad(quad: Quadrilateral(ordering: (0..<4).map { Point(given[2 * $0], given[2 * $0 + 1]) }),
                               parent: nil, isHole: false)]
    }
    for (k, sheet) in sheets.enumerated() {
        guard let (inks, ridges, _) = LineBoxes.straightenedInk(of: sheet.quad, in: image, longestSide: detector.workingSize)
        else { continue }
        for (f, ink) in (inks + [ridges]).enumerated() {
        let (w, h) = (ink.width, ink.height)
        let finder = LineBoxes(longerSide: max(w, h)).forStrokes(of: ink)
        let (rows, columns) = finder.lines(in: ink)
        let boxes = finder.boxes(in: ink)
        var canvas = RGBCanvas(width: w, height: h)
        for y in 0..<h { for x in 0..<w where ink.bits[y * w + x] != 0 { canvas.plot(x, y, RGBCanvas.Color(170, 170, 170)) } }
        for r in rows { canvas.fillRect(x: r.along.lowerBound, y: r.across.lowerBound, width: r.length, height: r.across.count, .blue) }
        for c in columns { canvas.fillRect(x: c.across.lowerBound, y: c.along.lowerBound, width: c.across.count, height: c.length, .green) }
        for b in boxes {
            canvas.polygon([(b.left, b.top), (b.right, b.top), (b.right, b.bottom), (b.left, b.bottom)], .red, thickness: 2)
        }
        let path = (output.hasSuffix(".png") ? String(output.dropLast(4)) : output) + "-\(k)-\(f).png"
        try Data(PNGEncoder.encode(canvas)).write(to: URL(fileURLWithPath: path))
        print("sheet \(k), ink \(f): \(w)x\(h), \(rows.count) row lines, \(columns.count) column lines, \(boxes.count) boxes -> \(path)")
        }
    }
    if sheets.isEmpty { print("no sheet (a top-level quad over a tenth of the photo)") }
}

let args = CommandLine.arguments
switch args.count > 1 ? args[1] : "" {
case "decode" where args.count >= 3:
    try decodeBenchmark(directory: args[2], repeats: args.count > 3 ? Int(args[3]) ?? 3 : 3)
case "chroma-cost" where args.count >= 3:
    // the reader's decode (working size) with and without the chroma planes, best of 5
    // each, interleaved per file: what keeping the colour costs
    var plain: [Double] = [], coloured: [Double] = []
    for file in jpegFiles(in: args[2]) {
        var best = (Double.infinity, Double.infinity)
        for _ in 0..<5 {
            best.0 = min(best.0, try seconds { _ = try ImageLoader.load(path: file, options: .init(maxDimension: ReadOptions().workingSize)) })
            best.1 = min(best.1, try seconds { _ = try ImageLoader.load(path: file, options: .init(maxDimension: ReadOptions().workingSize, chromaBlock: DocumentReader.chromaBlock)) })
        }
        plain.append(best.0); coloured.append(best.1)
    }
    print(String(format: "%d JPEGs: gray %.2f ms, gray + chroma %.2f ms (median), total %.0f / %.0f ms",
                 plain.count, median(plain) * 1000, median(coloured) * 1000, plain.reduce(0, +) * 1000, coloured.reduce(0, +) * 1000))
case "geometry" where args.count >= 4:
    try geometryBenchmark(dataset: args[2], outlines: args[3], verbose: args.contains("-v"))
case "contours" where args.count >= 3:
    let loaded = try ImageLoader.load(path: args[2], options: .init(appliesExifOrientation: false))
    let f = max(1, Int((Double(max(loaded.image.width, loaded.image.height)) / 1000).rounded(.up)))
    let cs = loaded.image.reduced(by: f).binarized().contours()
    for c in cs.sorted(by: { $0.points.count > $1.points.count }).prefix(5) {
        let per = Double(c.points.count)
        for e in [0.01, 0.02, 0.035, 0.05] {
            let p = Polygon.simplified(closed: c.points, epsilon: e * per)
            print(c.isHole, c.points.count, Polygon.signedArea(c.points), e, p.count, Polygon.isConvex(p), p.map { "(\(Int($0.x)),\(Int($0.y)))" }.joined())
        }
    }
case "ruling" where args.count >= 4:
    let loaded = try ImageLoader.load(path: args[2], options: .init(maxDimension: ReadOptions().workingSize))
    // QUAD=i picks the i-th largest quad (default the largest)
    let quads = QuadDetector().detect(in: loaded.image)
    let index = Int(ProcessInfo.processInfo.environment["QUAD"] ?? "0") ?? 0
    guard index < quads.count else { print("no quad \(index) (\(quads.count) found)"); exit(1) }
    let q = quads[index]
    print("quad \(index):", q.quad.corners.map { "(\(Int($0.x)),\(Int($0.y)))" }.joined())
    // the size the layout straightens a quad to (its longer side at most 450 px)
    var (w, h) = q.quad.rectifiedSize
    let scale = min(1, 450 / Double(max(w, h)))
    w = max(8, Int(Double(w) * scale)); h = max(8, Int(Double(h) * scale))
    let g = loaded.image.rectified(q.quad, width: w, height: h)!
    let pct = Double(ProcessInfo.processInfo.environment["PCT"] ?? "15") ?? 15
    let b = g.binarized(.localMean(window: max(15, max(w, h) / 12), percent: pct))
    print("rows:", RulingFinder.lines(in: b, horizontal: true).map { Int($0) })
    print("cols:", RulingFinder.lines(in: b, horizontal: false).map { Int($0) })
    print("ruling (binary):", RulingFinder.ruling(in: b).map { "\($0.rowCount)x\($0.columnCount)" } ?? "none")
    let d = g.darkness()
    print("profile rows:", RulingFinder.profileLines(d, width: g.width, height: g.height, horizontal: true).map { Int($0) })
    print("profile cols:", RulingFinder.profileLines(d, width: g.width, height: g.height, horizontal: false).map { Int($0) })
    print("ruling (profile):", RulingFinder.ruling(in: g).map { "\($0.rowCount)x\($0.columnCount)" } ?? "none", w, h)
    print("ruling (profile against its background):", RulingFinder.ruling(in: g, againstBackground: true).map {
        "\($0.rowCount)x\($0.columnCount) rows \($0.rows.map { Int($0) }) cols \($0.columns.map { Int($0) })" } ?? "none")
    let paper = g.binarizedAgainstPaper(darkness: d)
    print("paper-relative cols:", RulingFinder.linesWithCoverage(in: paper, horizontal: false).map { "\(Int($0.position)):\(Int($0.coverage * 100))" })
    print("paper-relative rows:", RulingFinder.linesWithCoverage(in: paper, horizontal: true).map { "\(Int($0.position)):\(Int($0.coverage * 100))" })
    print("ruling (paper-relative):", RulingFinder.ruling(FoundLines(in: paper), width: w, height: h).map {
        "\($0.rowCount)x\($0.columnCount) rows \($0.rows.map { Int($0) }) cols \($0.columns.map { Int($0) })" } ?? "none")
    if let coarse = RulingFinder.ruling(in: g) ?? RulingFinder.ruling(in: paper) {
        print("band rows:", RulingFinder.linesInBands(of: coarse, in: paper, horizontal: true).map { Int($0) })
        print("band cols:", RulingFinder.linesInBands(of: coarse, in: paper, horizontal: false).map { Int($0) })
    }
    let paperInk = GrayImage(width: paper.width, height: paper.height, pixels: paper.bits.map { $0 == 0 ? 255 : 0 })
    try Data(PNGEncoder.encode(paperInk)).write(to: URL(fileURLWithPath: args[3] + ".paper.png"))
    let ink = GrayImage(width: b.width, height: b.height, pixels: b.bits.map { $0 == 0 ? 255 : 0 })
    try Data(PNGEncoder.encode(ink)).write(to: URL(fileURLWithPath: args[3]))
    if let r = RulingFinder.ruling(in: b) {
        let cells = g.binarizedByCells(r)
        let cellInk = GrayImage(width: cells.width, height: cells.height, pixels: cells.bits.map { $0 == 0 ? 255 : 0 })
        try Data(PNGEncoder.encode(cellInk)).write(to: URL(fileURLWithPath: args[3] + ".cells.png"))
        try Data(PNGEncoder.encode(g)).write(to: URL(fileURLWithPath: args[3] + ".gray.png"))
    }
case "classify" where args.count >= 4:
    // digits per second of the Swift engine on one thread: classify IDX images N times over
    let images = try IDXFile(contentsOf: args[2])
    let total = Int(args[3])!, batch = Int(args[4])!
    let model = try DigitClassifier(contentsOf: args.count > 5 ? args[5] : "Models/digits-lenet.safetensors")
    let n = images.dimensions[0]
    let inputs = (0..<n).map { DigitInput(normalizedPixels: Array(images.bytes[($0 * 784)..<(($0 + 1) * 784)])) }
    _ = model.classify(Array(inputs.prefix(batch)))   // warm-up
    // digits per second of `body` run over `total` inputs in batches, cycling through the set
    func rate(_ body: ([DigitInput]) -> Void) -> Double {
        var done = 0
        let t = seconds {
            while done < total {
                let start = done % n, count = min(batch, total - done, n - start)
                body(Array(inputs[start..<(start + count)]))
                done += count
            }
        }
        return Double(total) / t
    }
    print(String(format: "swift batch %d: %.0f digits/s", batch, rate { _ = model.logits($0) }))
    // the classifier's whole answer: softmax and the second look at unsure digits
    print(String(format: "swift classify with second look, batch %d: %.0f digits/s", batch, rate { _ = model.classify($0) }))
case "detect-parts" where args.count >= 3:
    // where detection spends its time on one photo as the reader loads it (best of 5)
    let image = try ImageLoader.load(path: args[2], options: .init(maxDimension: ReadOptions().workingSize,
                                                                   appliesExifOrientation: false)).image
    let factor = max(1, Int((Double(max(image.width, image.height)) / Double(QuadDetector().workingSize)).rounded(.up)))
    var best: [String: Double] = [:]
    for _ in 0..<5 {
        var small = image, dark = image, bins: [BinaryImage] = [], dil: [BinaryImage] = []
        let parts: [(String, () -> Void)] = [
            ("reduce", { small = image.reduced(by: factor) }),
            ("reduce darkest", { dark = image.reducedKeepingDarkest(by: factor) }),
            ("dark contours", { _ = dark.binarized(QuadDetector().binarization).contours() }),
            ("flat zones", { _ = FlatZones.zones(of: small) }),
            ("flat paper", { _ = QuadDetector().flatPaper(in: small, minimumAreaFraction: 0.002) }),
            ("binarize x2", { bins = small.localMeanBinarizations(window: 0, percents: [12, 5]) }),
            ("dilate x2", { dil = bins.map { $0.dilated() } }),
            ("contours x2", { _ = dil.map { $0.contours() } }),
            ("detect (all)", { _ = QuadDetector().detect(in: image) }),
        ]
        for (name, body) in parts { best[name] = min(best[name] ?? .infinity, seconds(body)) }
    }
    for (name, t) in best.sorted(by: { $0.value < $1.value }) { print(String(format: "%-14@ %6.2f ms", name as NSString, t * 1000)) }
case "inputs" where args.count >= 4:
    // the normalized classifier inputs of one photo, as a captioned gallery
    var options = ReadOptions()
    options.orientation = .none
    let reader = try DocumentReader(modelPath: "Models/digits-lenet.safetensors", options: options)
    let pairs = reader.classifierInputs(path: args[2])
    let png = try MistakeGallery.png(inputs: pairs.map(\.0), captions: pairs.map {
        "\($0.1.isRejected ? "R" : String($0.1.label)) \(Int(($0.1.confidence * 100).rounded()))" }, columns: 8)
    try Data(png).write(to: URL(fileURLWithPath: args[3]))
case "pieces" where args.count >= 3:
    // every piece the reading cuts, one line each: file, region kind, box x y w h (full
    // resolution), the model's label (10: rejected) and confidence, the 784 input bytes in hex
    let reader = try DocumentReader(modelPath: "Models/digits-lenet.safetensors")
    for path in args[2...] {
        for p in reader.pieces(path: path) {
            let hex = p.input.pixels.map { String(format: "%02x", $0) }.joined()
            print("\(path)\t\(p.kind)\t\(p.box.map(String.init).joined(separator: " "))\t\(p.prediction.label)\t\(p.prediction.confidence)\t\(hex)")
        }
    }
case "sevens" where args.count >= 3:
    // every piece the model reads as 1 or 7 (or rejects, favouring one of them among the
    // digits): file, box, label, confidence, the probabilities of 1 and 7, and how far a
    // bar across the glyph's middle reaches past its stem, in strokes (InkCrop
    // .crossBarStrokes: a 7's cross bar)
    let reader = try DocumentReader(modelPath: "Models/digits-lenet.safetensors")
    for path in args[2...] {
        for p in reader.pieces(path: path) where [1, 7].contains(p.prediction.amongDigits.label) {
            let cross = p.crop.crossBarStrokes.map { String(format: "%.2f", $0) } ?? "-"
            print("\(path)\t\(p.box.map(String.init).joined(separator: " "))\t\(p.prediction.label)\t\(p.prediction.confidence)\t\(p.prediction.probabilities[1])\t\(p.prediction.probabilities[7])\t\(cross)")
        }
    }
case "orient" where args.count >= 3:
    // what --orientation auto weighs, per photo: the glyph-turn evidence per turn
    // (summed log-probabilities) and the turn taken
    var options = ReadOptions()
    options.orientation = .auto
    let reader = try DocumentReader(modelPath: "Models/digits-lenet.safetensors", options: options)
    for path in args[2...] {
        let e = reader.orientationEvidence(path: path)
        let f = { (xs: [Double]) in xs.map { String(format: "%.1f", $0) }.joined(separator: " ") }
        if ProcessInfo.processInfo.environment["ORIENT_JSON"] != nil {   // one line a photo, every crop's evidence
            let crops = e.crops.map { c in "[\(c.frame),\(c.evidence.map { String(format: "%.4f", $0) }.joined(separator: ","))]" }
            print("{\"file\":\"\(path)\",\"turn\":\(e.turn),\"crops\":[\(crops.joined(separator: ","))]}")
            continue
        }
        print("\(path)\tevidence \(e.evidence.map(f) ?? "-")\tturn \(e.turn)")
        if let gallery = ProcessInfo.processInfo.environment["ORIENT_GALLERY"], !e.crops.isEmpty {
            // each crop asked, captioned with its frame and its likeliest turn of that frame
            let png = try MistakeGallery.png(inputs: e.crops.map(\.input), captions: e.crops.map { c in
                let k = c.evidence.indices.max { c.evidence[$0] < c.evidence[$1] }!
                return "f\(c.frame) k\(k) \(Int((exp(c.evidence[k]) * 100).rounded()))" }, columns: 8)
            try Data(png).write(to: URL(fileURLWithPath: gallery))
        }
    }
case "stages" where args.count >= 3:
    // where the reader's time goes per photo, one thread: decode at the working size,
    // quad detection, and the whole read (decode included); medians over the files
    let reader = try DocumentReader(modelPath: "Models/digits-lenet.safetensors", options: ReadOptions())
    var load: [Double] = [], detect: [Double] = [], whole: [Double] = []
    var isFolder: ObjCBool = false
    let paths = args.count == 3 && FileManager.default.fileExists(atPath: args[2], isDirectory: &isFolder) && isFolder.boolValue
        ? jpegFiles(in: args[2]) : Array(args[2...])
    for path in paths {
        var image: GrayImage?
        load.append(seconds { image = try? ImageLoader.load(path: path, options: .init(maxDimension: ReadOptions().workingSize)).image })
        guard let image else { continue }
        detect.append(seconds { _ = QuadDetector().detect(in: image) })
        whole.append(seconds { _ = reader.read(path: path) })
    }
    guard !whole.isEmpty else { print("no readable JPEG among \(paths.count) paths"); exit(1) }
    print(String(format: "decode %.1f ms, detect %.1f ms, whole read %.1f ms (medians of %d)",
                 median(load) * 1000, median(detect) * 1000, median(whole) * 1000, whole.count))
case "photo-times" where args.count >= 3:
    // each photo's whole read, one thread, best of REPEATS (env, default 2), slowest first:
    // the mean a batch pays against the median `stages` prints
    let reader = try DocumentReader(modelPath: "Models/digits-lenet.safetensors", options: ReadOptions())
    var isFolder: ObjCBool = false
    let paths = args.count == 3 && FileManager.default.fileExists(atPath: args[2], isDirectory: &isFolder) && isFolder.boolValue
        ? jpegFiles(in: args[2]) : Array(args[2...])
    let repeats = Int(ProcessInfo.processInfo.environment["REPEATS"] ?? "") ?? 2
    let times = paths.map { path in (path, (0..<max(1, repeats)).map { _ in seconds { _ = reader.read(path: path) } }.min()!) }
    for (path, t) in times.sorted(by: { $0.1 > $1.1 }) { print(String(format: "%7.1f ms  %@", t * 1000, path)) }
    let all = times.map(\.1)
    print(String(format: "mean %.1f ms, median %.1f ms over %d photos", all.reduce(0, +) / Double(max(1, all.count)) * 1000,
                 median(all) * 1000, all.count))
case "warp" where args.count >= 3:
    // rectification alone: the largest quad of a photo straightened to 450 px, ns per output pixel
    let image = try ImageLoader.load(path: args[2], options: .init(maxDimension: ReadOptions().workingSize)).image
    guard let quad = QuadDetector().detect(in: image).first?.quad else { print("no quad"); exit(1) }
    var best = Double.infinity
    for _ in 0..<20 { best = min(best, seconds { _ = image.rectified(quad, width: 450, height: 450) }) }
    print(String(format: "warp 450x450: %.3f ms, %.2f ns/pixel", best * 1000, best * 1e9 / (450 * 450)))
case "load-model":
    // the one-off cost of a process: loading and packing the model (best of 5)
    var best = Double.infinity
    for _ in 0..<5 { best = min(best, seconds { _ = try? DigitClassifier(contentsOf: "Models/digits-lenet.safetensors") }) }
    print(String(format: "model load: %.1f ms", best * 1000))
case "boxes" where args.count >= 4:
    try drawSheetBoxes(file: args[2], output: args[3])
case "borders" where args.count >= 5:
    // every border of the detector's copies (mean, darkest-kept, sensitive, shadow-free,
    // ridges) whose box holds (X, Y) (detection-copy pixels of
    // the photo decoded at the working size, as the reader decodes it),
    // with its hull and the quad taken from it (holes may bend, as in the detector)
    let loaded = try ImageLoader.load(path: args[2], options: .init(maxDimension: ReadOptions().workingSize,
                                                                    appliesExifOrientation: false))
    let f = max(1, Int((Double(max(loaded.image.width, loaded.image.height)) / 1000).rounded(.up)))
    let small = loaded.image.reduced(by: f)
    let px = Double(args[3])!, py = Double(args[4])!
    let det = QuadDetector()
    let minArea = det.minimumAreaFraction * Double(small.width * small.height)
    // the shadow-free copy as the detector's fourth pass makes it
    let window = max(5, Int((2 * LineBoxes.thicknessShare * Double(max(small.width, small.height))).rounded()))
    let shadowFree = small.inkBelowClosing(small.binarized(), window: window, percent: 12)
    // the ridges as the detector's sixth pass finds them
    let reach = LineBoxes.ridgeReach(longerSide: max(small.width, small.height))
    let step = small.ridgeStep(reach: reach)
    print("ridges: reach \(reach), step \(step)")
    for (name, b) in [("mean", small.binarized()), ("dark", loaded.image.reducedKeepingDarkest(by: f).binarized()),
                      ("sensitive dilated", small.binarized(.localMean(percent: 5)).dilated()),
                      ("shadow-free", shadowFree), ("shadow-free dilated", shadowFree.dilated()),
                      ("ridges", small.ridges(reach: reach, step: step))] {
        if let prefix = ProcessInfo.processInfo.environment["BORDERS_PNG"] {   // the copy itself, ink black
            var canvas = RGBCanvas(width: b.width, height: b.height, fill: .white)
            for y in 0..<b.height { for x in 0..<b.width where b.bits[y * b.width + x] != 0 { canvas.plot(x, y, .black) } }
            try Data(PNGEncoder.encode(canvas)).write(to: URL(fileURLWithPath: "\(prefix)-\(name).png"))
        }
        for c in b.contours() where c.points.count >= 16 {
            let xs = c.points.map(\.x), ys = c.points.map(\.y)
            guard xs.min()! <= px, xs.max()! >= px, ys.min()! <= py, ys.max()! >= py else { continue }
            let hull = Polygon.convexHull(c.points)
            let q = det.quadrilateral(for: c.points, minArea: minArea, allowingBends: c.isHole)
            print(name, c.isHole, c.points.count, Int(abs(Polygon.signedArea(c.points))), Int(abs(Polygon.signedArea(hull))), hull.count, q.map { $0.corners.map { "(\(Int($0.x)),\(Int($0.y)))" }.joined() } ?? "nil")
        }
    }
case "zones" where args.count >= 4:
    // the flat zones `QuadDetector` takes paper from (with the photo's colour, as the
    // reader decodes it), each drawn in its own colour on the coarse copy, with its area,
    // quad, whether its outline is paper's and its sides' contrasts (before/middle/after)
    let loaded = try ImageLoader.load(path: args[2], options: .init(maxDimension: ReadOptions().workingSize, chromaBlock: DocumentReader.chromaBlock))
    let f = max(1, Int((Double(max(loaded.image.width, loaded.image.height)) / 1000).rounded(.up)))
    let small = loaded.image.reduced(by: f)
    let (_, coarse, masks, colour) = FlatZones.zones(of: small, chroma: loaded.chroma?.forReduced(by: f))
    print("coarse \(coarse.width)x\(coarse.height), step \(FlatZones.joiningStep(coarse)), colour steps",
          colour.map { max(FlatZones.smallestColourStep, FlatZones.joiningStep($0)) }, "\(masks.count) zones")
    var canvas = RGBCanvas(coarse)
    let palette: [RGBCanvas.Color] = [.red, .blue, .green, RGBCanvas.Color(200, 0, 200), RGBCanvas.Color(0, 200, 200), RGBCanvas.Color(230, 150, 0)]
    let detector = QuadDetector()
    for (k, mask) in masks.enumerated() {
        for y in 0..<coarse.height { for x in 0..<coarse.width where mask.bits[y * coarse.width + x] != 0 { canvas.plot(x, y, palette[k % palette.count]) } }
        let area = mask.bits.reduce(0) { $0 + Int($1) }
        let outer = mask.contours().filter { !$0.isHole }.max { $0.points.count < $1.points.count }
        let quad = outer.flatMap { detector.quadrilateral(for: $0.points, minArea: 0.002 * Double(coarse.width * coarse.height)) }
        print(k, "area", area, "quad", quad.map { $0.corners.map { "(\(Int($0.x)),\(Int($0.y)))" }.joined() } ?? "nil",
              "paper", quad.map { FlatZones.outlinesPaper($0, in: coarse, colour: colour) } ?? false,
              quad.map { FlatZones.sideContrasts(of: $0, in: coarse).map { "\($0.before.map { Int($0) } ?? -99)/\(Int($0.middle))/\($0.after.map { Int($0) } ?? -99)" }.joined(separator: " ") } ?? "")
    }
    try Data(PNGEncoder.encode(canvas)).write(to: URL(fileURLWithPath: args[3]))
case "draw" where args.count >= 4:
    try drawDetection(file: args[2], output: args[3])
case "verify" where args.count >= 3:
    try verifyAgainstDjpeg(directory: args[2])
default:
    print("""
        usage: scanreader-bench decode DIR [REPEATS]        decode time vs djpeg -grayscale
               scanreader-bench verify DIR                  our pixels vs djpeg's
               scanreader-bench geometry DATASET OUTLINES [-v]  grid corner error and detection time
               scanreader-bench detect-parts FILE           where detection spends its time
               scanreader-bench photo-times DIR|FILE...     each photo's whole read, slowest first (REPEATS=2)
               scanreader-bench classify IDX COUNT BATCH [MODEL]  classifier digits/s on one thread
               scanreader-bench draw FILE OUT.png           detected quads and the binary copy
               scanreader-bench ruling FILE OUT.png         ruling lines of the largest quad (QUAD=i: the i-th)
               scanreader-bench boxes FILE OUT.png          each sheet's lines and boxes (OUT-k.png; SHEET=x,y,…: that quad as the sheet)
               scanreader-bench contours FILE               the largest borders and their polygons
               scanreader-bench borders FILE X Y            the borders around a point and their quads (BORDERS_PNG=P: each copy as P-NAME.png)
               scanreader-bench zones FILE OUT.png          the flat zones paper is taken from
               scanreader-bench chroma-cost DIR             the decode with and without the colour planes
               scanreader-bench inputs FILE OUT.png         the classifier inputs of one photo
               scanreader-bench pieces FILE...              every piece cut, with its box and input (for mining training data)
               scanreader-bench orient FILE...              --orientation auto's evidence per turn
                                                            (ORIENT_GALLERY=out.png draws the crops, ORIENT_JSON=1 prints each)
        """)
    exit(64)
}
