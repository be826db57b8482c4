import DigitClassifier
import DocumentImaging
import Foundation
import ImageCodecs
import ImagingCore

/// How photos are read.
public struct ReadOptions: Sendable {
    /// Which way is up.
    public enum OrientationMode: String, Sendable, CaseIterable {
        /// Apply the EXIF tag (default); a region lying on its side or upside down is
        /// turned on its own when its glyphs say so (`RegionTurn`).
        case exif
        /// Read the stored pixels as they are, every region as it lies.
        case none
        /// Apply EXIF, then turn the photo a quarter, half or three quarters when the
        /// glyphs it cut say so (the glyph-turn model, `OrientationVote`); regions are
        /// then turned on their own as with `exif`.
        case auto
    }

    /// Digits below this probability show as `unsureMarker` in `text`.
    public var minConfidence: Double = ReadOptions.defaultMinConfidence
    /// `minConfidence` unless the caller sets it (the command line's `--min-confidence`).
    public static let defaultMinConfidence = 0.6
    /// The character standing for an unsure digit in `text`.
    public var unsureMarker: Character = "?"
    /// Orientation handling.
    public var orientation: OrientationMode = .exif
    /// Refuse images whose header declares more pixels.
    public var maxPixels: Int = 120_000_000
    /// Refuse files larger than this many bytes, before reading them.
    public var maxBytes: Int = 256 << 20
    /// The memory all decodes running at once may hold together (file bytes, decoder
    /// buffers, full-size output): a decode waits for room, and an image that could never
    /// fit is refused (`image_too_large`). Default 1 GB: a 120-megapixel progressive
    /// JPEG (4:2:0, about 500 MB to decode) fits; a 4:4:4 one does not.
    public var maxMemory: Int = 1_000_000_000
    /// Photos are decoded at reduced size (JPEG DCT scaling by halves) to at most this
    /// longer side, so between half of it and it: 1700 puts an 8 MP phone photo (3264 px)
    /// at 1632 px rather than 816, where thin lines and small digits were lost (corpus
    /// seed 1: 75 % of their regions found, against 94 % in 12 MP photos read at 1008).
    public var workingSize: Int = 1700

    /// Defaults as documented on each property.
    public init() {}
}

/// Reads digits from images: the library's entry point for back ends.
///
/// Load the model once and share the reader: it is immutable and thread-safe; calls on
/// different threads run in parallel (the classifier starts no threads of its own).
public final class DocumentReader: Sendable {
    /// The options every read uses.
    public let options: ReadOptions
    /// The decode memory shared by every read of this reader (`ReadOptions.maxMemory`).
    public let memoryBudget: MemoryBudget
    let classifier: DigitClassifier
    /// The glyph-turn model, loaded unless the orientation is `.none`: regions lying on
    /// their side are turned by it (`RegionTurn`), and under `.auto` the photo too.
    let turnModel: GlyphTurnClassifier?
    let layout = Layout()

    /// A photo's colour is kept as means over squares of this many working pixels: the
    /// paper it tells from the desk is tens of pixels across, and detection's flat zones
    /// (`FlatZones`) look at a copy 4 to 8 times coarser than the working copy.
    public static let chromaBlock = 4

    /// A reader with the digit classifier's weights at `modelPath` and, unless
    /// `orientation == .none`, the glyph-turn model at `turnModelPath` (default: its
    /// shipped file name beside `modelPath`).
    /// - Throws: `ModelLoadError` when the weights cannot be used.
    public init(modelPath: String, turnModelPath: String? = nil, options: ReadOptions = .init()) throws(ModelLoadError) {
        self.classifier = try DigitClassifier(contentsOf: modelPath)
        self.turnModel = options.orientation != .none
            ? try GlyphTurnClassifier(contentsOf: turnModelPath ?? Self.turnModelPath(besideModelAt: modelPath)) : nil
        self.options = options
        self.memoryBudget = MemoryBudget(capacity: options.maxMemory)
    }

    /// Reads the image file at `path`. Never throws: failures are error records.
    public func read(path: String) -> ScanResult {
        read(loading: { opts throws(ImageLoadError) in try ImageLoader.load(path: path, options: opts) }, name: path).result
    }

    /// Reads an image held in memory (an upload); `name` goes into the result.
    public func read(bytes: [UInt8], name: String) -> ScanResult {
        read(loading: { opts throws(ImageLoadError) in try ImageLoader.decode(bytes, name: name, options: opts) }, name: name).result
    }

    /// `read(path:)` off the caller's task.
    public func read(path: String) async -> ScanResult {
        await Task.detached { self.read(path: path) }.value
    }

    /// The reading and the working image with its regions, for debug drawings.
    public func readForDebugging(path: String) -> (result: ScanResult, drawing: RGBCanvas?) {
        let (result, trace) = read(loading: { opts throws(ImageLoadError) in try ImageLoader.load(path: path, options: opts) }, name: path)
        return (result, trace.map {
            DebugRenderer.draw(image: $0.image, regions: $0.regions, result: result, minConfidence: options.minConfidence)
        })
    }

    struct Trace {
        let image: GrayImage
        let regions: [ReadRegion]
    }

    private func read(loading: @escaping (ImageLoadOptions) throws(ImageLoadError) -> LoadedImage, name: String)
        -> (result: ScanResult, trace: Trace?)
    {
        let loadOptions = ImageLoadOptions(maxPixels: options.maxPixels, maxDimension: options.workingSize,
                                           appliesExifOrientation: options.orientation != .none,
                                           maxBytes: options.maxBytes, memoryBudget: memoryBudget,
                                           chromaBlock: Self.chromaBlock)
        let loaded: LoadedImage
        do { loaded = try loading(loadOptions) } catch {
            return (ScanResult.failure(file: name, code: error.code.rawValue, message: error.message), nil)
        }
        let pixels = Self.pixels(of: loaded, options: loadOptions, loading: loading)
        var best = readRegions(in: pixels)
        var turns = 0
        // auto: the glyphs cut say which way is up; the photo is read again only when turned
        if options.orientation == .auto, let turnModel {
            turns = OrientationVote.turn(from: OrientationVote.evidence(of: best, segmenter: layout.segmenter, model: turnModel))
            if turns != 0 { best = readRegions(in: pixels.turned(quarterTurns: turns)) }
        }
        // a document lying on its side or upside down in the photo is turned on its own
        if let turnModel { best = turningRegions(best, model: turnModel) }
        // auto: documents that all had to be turned say the photo was read the wrong way
        // up; it is turned and read once more
        if options.orientation == .auto, let turnModel, case let extra = OrientationVote.uprightTurn(of: best), extra != 0 {
            turns = (turns + extra) % 4
            best = turningRegions(readRegions(in: pixels.turned(quarterTurns: turns)), model: turnModel)
        }
        let image = turns == 0 ? loaded.image : loaded.image.rotated(quarterTurns: turns)
        let scale = Double(loaded.reduction)
        var (fullW, fullH) = loaded.orientation.swapsAxes ? (loaded.storedSize.height, loaded.storedSize.width)
            : (loaded.storedSize.width, loaded.storedSize.height)
        if turns % 2 == 1 { swap(&fullW, &fullH) }
        let orientation = loaded.orientation.followed(byClockwiseQuarterTurns: turns)
        let regions = best.enumerated().map { index, region in
            region.result(index: index, scale: scale, minConfidence: options.minConfidence, unsure: options.unsureMarker)
        }
        let result = ScanResult(file: name, status: "ok", error: nil, width: fullW, height: fullH,
                                orientation: orientation.rawValue, regions: regions)
        return (result, Trace(image: image, regions: best))
    }

    /// What `--orientation auto` weighs for the image at `path` (EXIF applied): the
    /// glyph-turn evidence for turns 0…3 (nil when no crop, or when the reader was made
    /// with `.none`), the turn taken, and each crop asked with the frame it was cut in
    /// (0 as read, 1 turned a quarter) and its evidence. For diagnosing orientation choices.
    public func orientationEvidence(path: String)
        -> (evidence: [Double]?, turn: Int, crops: [(input: DigitInput, frame: Int, evidence: [Double])]) {
        guard let turnModel, let loaded = try? ImageLoader.load(
            path: path, options: .init(maxDimension: options.workingSize, chromaBlock: Self.chromaBlock))
        else { return (nil, 0, []) }
        let votes = OrientationVote.votes(of: readRegions(in: PhotoPixels(loaded.image, chroma: loaded.chroma)),
                                          segmenter: layout.segmenter, model: turnModel)
        return (votes?.total, OrientationVote.turn(from: votes?.total), votes?.crops ?? [])
    }

    /// The glyph-turn model's file beside the digit classifier's weights at `modelPath`.
    public static func turnModelPath(besideModelAt modelPath: String) -> String {
        URL(fileURLWithPath: modelPath).deletingLastPathComponent()
            .appendingPathComponent(GlyphTurnClassifier.defaultFileName).path
    }

    /// The classifier inputs cut from an image and what the model said of each, for
    /// inspecting the preprocessing on real photos.
    public func classifierInputs(path: String) -> [(DigitInput, DigitPrediction)] {
        pieces(path: path).map { ($0.input, $0.prediction) }
    }

    /// Every piece the reading of the image at `path` cuts (EXIF applied as the options
    /// say, regions not turned): its classifier input, what the model said, its region's
    /// kind, its box [x, y, w, h] in full-resolution upright pixels and its ink. For
    /// mining the model's training data (`scanreader-bench pieces`).
    public func pieces(path: String) -> [(input: DigitInput, prediction: DigitPrediction, kind: String, box: [Int], crop: InkCrop)] {
        let loadOptions = ImageLoadOptions(maxDimension: options.workingSize, appliesExifOrientation: options.orientation != .none,
                                           maxBytes: options.maxBytes, memoryBudget: memoryBudget,
                                           chromaBlock: Self.chromaBlock)
        let load = { (o: ImageLoadOptions) throws(ImageLoadError) in try ImageLoader.load(path: path, options: o) }
        guard let loaded = try? load(loadOptions) else { return [] }
        let reduction = Double(loaded.reduction)
        // small fields from the finer copy, as `read(path:)` cuts them
        return readRegions(in: Self.pixels(of: loaded, options: loadOptions, loading: load)).flatMap { region in
            let map = region.toImage
            return region.pieces.compactMap { p -> (input: DigitInput, prediction: DigitPrediction, kind: String, box: [Int], crop: InkCrop)? in
                guard let crop = p.crop, let pr = p.prediction else { return nil }
                return (crop.modelInput, pr, region.region.kind.rawValue, region.imageBox(crop.box, scale: reduction, map: map), crop)
            }
        }
    }

    /// `regions` with each one `RegionTurn` finds lying on its side or upside down
    /// turned upright and read again, kept when the digit classifier agrees
    /// (`RegionTurn.confirmed`).
    func turningRegions(_ regions: [ReadRegion], model: GlyphTurnClassifier) -> [ReadRegion] {
        let turns = RegionTurn.turns(of: regions, segmenter: layout.segmenter, model: model)
        guard turns.contains(where: { $0.turn != 0 }) else { return regions }
        var again = read(zip(regions, turns).filter { $0.1.turn != 0 }.map { RegionTurn.turned($0.0.region, quarterTurns: $0.1.turn) })
            .makeIterator()
        return zip(regions, turns).map { region, choice in
            guard choice.turn != 0, let turned = again.next() else { return region }
            return RegionTurn.confirmed(turned, over: region, quarterTurns: choice.turn, onLean: choice.onLean) ? turned : region
        }
    }

    /// Lays out, segments and classifies (one batch for the whole image).
    func readRegions(in image: GrayImage) -> [ReadRegion] {
        readRegions(in: PhotoPixels(image))
    }

    /// `readRegions(in:)` with small regions straightened from the finer copy, if any.
    func readRegions(in pixels: PhotoPixels) -> [ReadRegion] {
        read(layout.regions(in: pixels))
    }

    /// The working copy `loaded` with, when it was decoded reduced, a finer copy at half
    /// its reduction that `loading` decodes again (with `options`) if a region needs it;
    /// a finer decode that fails leaves the region at its working size.
    static func pixels(of loaded: LoadedImage, options: ImageLoadOptions,
                       loading: @escaping (ImageLoadOptions) throws(ImageLoadError) -> LoadedImage) -> PhotoPixels {
        let reduction = loaded.reduction
        guard reduction > 1 else { return PhotoPixels(loaded.image, chroma: loaded.chroma) }
        let finerReduction = reduction / 2
        var finerOptions = options
        let longer = max(loaded.storedSize.width, loaded.storedSize.height)
        finerOptions.maxDimension = (longer + finerReduction - 1) / finerReduction
        finerOptions.chromaBlock = nil   // regions are straightened from the gray only
        return PhotoPixels(loaded.image, chroma: loaded.chroma, finerScale: Double(reduction) / Double(finerReduction)) {
            guard let finer = try? loading(finerOptions), finer.reduction == finerReduction else { return nil }
            return finer.image
        }
    }

    /// Segments and classifies laid-out regions (one batch for all); touching digits the
    /// model rejected are read again cut apart, and a grid found a table of numbers so has
    /// its cells of digits apart read too (`TouchingDigits`); a field or a grid's cell
    /// with a rejected piece is read again from its faint ink (`FaintInkReading`); a
    /// cell's rejected piece that is a 1 written with a flag is read as 1 (`FlaggedOnes`);
    /// a sudoku's cells are read with the digits the givens (sure digits) of their row and
    /// column already are ruled out (`SudokuRule`); a 7 or 1 the model doubts between the
    /// two, without a cross bar, in a region whose writer crosses 7s is a 1 (`CrossedSevens`);
    /// a grid's strips past its frame that read nothing are dropped
    /// (`ReadRegion.trimmedPastFrame`).
    func read(_ laidOut: [LaidOutRegion]) -> [ReadRegion] {
        var pieces: [[ReadRegion.Piece]] = []
        var inputs: [DigitInput] = []
        var apart: [[Int]] = []   // per region, a grid's cells read empty holding digits side by side
        var offPaper: [Int] = []   // per region, the glyphs a paper field's cut left out as running off it
        for region in laidOut {
            var list: [ReadRegion.Piece] = []
            var apartCells: [Int] = []
            var offPaperCount = 0
            if region.kind == .grid, let ruling = region.ruling {
                let (cells, cellsApart) = layout.segmenter.gridCells(gray: region.gray, binary: region.binary,
                                                                     faint: region.faint, ruling: ruling)
                apartCells = cellsApart
                for (k, crops) in cells.enumerated() {
                    let (row, col) = (k / ruling.columnCount, k % ruling.columnCount)
                    if crops.isEmpty { list.append(ReadRegion.Piece(crop: nil, row: row, col: col, input: nil)) }
                    for crop in crops {   // a table's number: several pieces of one cell, left to right
                        list.append(ReadRegion.Piece(crop: crop, row: row, col: col, input: inputs.count))
                        inputs.append(crop.modelInput)
                    }
                }
            } else {
                let inner = Layout.readableArea(of: region)
                let (crops, leftOut) = layout.segmenter.fieldGlyphs(gray: region.gray, binary: region.binary,
                                                                    faint: region.faint, region: inner,
                                                                    photoEdge: region.kind == .page, paperEdge: region.isFlatPaper)
                offPaperCount = leftOut
                for crop in crops {
                    list.append(ReadRegion.Piece(crop: crop, row: nil, col: nil, input: inputs.count))
                    inputs.append(crop.modelInput)
                }
            }
            pieces.append(list)
            apart.append(apartCells)
            offPaper.append(offPaperCount)
        }
        let predictions = inputs.isEmpty ? [] : classifier.classify(inputs)
        let read = pieces.map { list in list.map { var p = $0; p.prediction = p.input.map { predictions[$0] }; return p } }
        let grown = GrownPieceReading.reading(read, of: laidOut, secondCut: layout.segmenter.growingLonePieces,
                                              classifier: classifier)
        let split = TouchingDigits.splitting(grown, of: laidOut, apart: apart, segmenter: layout.segmenter,
                                             classifier: classifier)
        let faint = FaintInkReading.reading(split, of: laidOut, segmenter: layout.segmenter, classifier: classifier)
        let ones = FlaggedOnes.reading(faint, of: laidOut, digitHeight: layout.segmenter.minimumRelativeDigitHeight)
        let whole = CrossedSevens.reading(SudokuRule.reading(ones, of: laidOut), of: laidOut,
                                          digitHeight: layout.segmenter.minimumRelativeDigitHeight)
        return laidOut.indices.map { r in
            ReadRegion(region: laidOut[r], pieces: whole[r], piecesOffPaper: offPaper[r]).trimmedPastFrame()
        }
    }
}
